"""The first-run form in Chief's tab as markup: provider → key → Test connection
→ model → start.

``wiggum.web.views.onboarding`` mounts :func:`form` and drives it; what the
form decides is ``wiggum.session.onboarding``.  The key field and Test
connection are the Settings dialog's (``markup.settings``), under ids of
their own.
"""

from __future__ import annotations

from ..markdown import El
from ..presets import PRESETS
from ..tree import btn, e
from .forms import checkbox, field, hint, options, text_input
from .settings import conn_row, key_field, worker_input

__all__ = ["form"]


def form() -> El:
    """The form; refs: ``provider``, ``base_url``, the key field's, ``proxy``,
    ``proxy_url`` in ``proxy_row``, ``test``, ``test_result``, ``model`` and
    ``models`` in ``model_row`` (hidden until a test passed)."""
    provider = e(
        "select",
        None,
        options((p.id, p.name) for p in PRESETS),
        testid="onb-provider",
        ref="provider",
        id="onb-provider",
    )
    proxy_url = worker_input("onb-proxy-url", "onb-proxy-url", "proxy_url")
    start = btn("Start chatting", action="onb-start", testid="onb-start", cls="btn btn-primary")
    model = text_input("onb-model", "onb-model", ref="model", list="onb-models")
    return e(
        "section",
        "onboarding",
        e("h3", None, "Connect a model provider", id="onb-title"),
        hint(
            "Chief needs a model to talk with you. Choose a provider, paste your key, "
            "and test the connection."
        ),
        field("Provider", provider, for_id="onb-provider"),
        field(
            "Server address",
            text_input(
                "onb-base-url", "onb-base-url", type_="url", placeholder="https://…", ref="base_url"
            ),
            for_id="onb-base-url",
        ),
        key_field("onb-key", "onb-key", "onb-key-link", "Kept in this browser only. "),
        checkbox("onb-proxy", "onb-proxy", "Send requests through my CORS proxy", "proxy"),
        field(
            "Your proxy's URL",
            proxy_url,
            hint(
                "The worker address (or a template with {href}). How to run one: Settings → "
                "Run your own proxy."
            ),
            for_id="onb-proxy-url",
            ref="proxy_row",
            hidden=True,
        ),
        conn_row(
            action="onb-test", testid="onb-test", result_testid="onb-result", cls="btn btn-primary"
        ),
        field(
            "Model",
            e("div", "model-row", model, start),
            e("datalist", None, ref="models", id="onb-models"),
            for_id="onb-model",
            ref="model_row",
            hidden=True,
        ),
        hint(btn("More settings", action="onb-settings", cls="btn-link")),
        testid="onboarding",
        aria_labelledby="onb-title",
    )
