"""The first-run form in Chief's tab as markup: provider → key → Test connection
→ model → start.

``wiggum.web.views.onboarding`` mounts :func:`form` and drives it; what the
form decides is ``wiggum.session.onboarding``.  The key form comes first, so
that the main path (the key's link, Test connection, the model row) fits a
1280×800 screen without scrolling; under it, in one compact section, the ways
in without pasting a key: Connect with OpenRouter, the demo, and the model
servers found on this computer (:func:`local_rows`, from
``wiggum.session.local_servers``).  The key field and Test connection are the
Settings dialog's (``markup.settings``), under ids of their own.  The card's
``notice`` line is where a refused action points back to the card.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import NamedTuple

from ..markdown import El
from ..presets import PRESETS
from ..tree import btn, e
from .forms import checkbox, field, hint, options, text_input
from .settings import conn_row, key_field, worker_input

__all__ = ["LocalRow", "form", "local_rows"]


class LocalRow(NamedTuple):
    """A model server found on this computer, as its line shows it."""

    index: int
    name: str
    base_url: str
    #: Its models, named (and the rest counted).
    models: str
    #: Set when it refuses this page: how to make it accept it.
    fix: str | None


def local_rows(found: Sequence[LocalRow]) -> list[El]:
    """One line per server: its name, address and models with Use it, or its fix."""
    out = []
    for row in found:
        head = e("strong", None, row.name)
        where = e("code", None, row.base_url)
        if row.fix is not None:
            body: list[El | str] = [e("p", "onb-local-fix", row.fix, testid="onb-local-fix")]
        else:
            use = btn(
                f"Use {row.name}",
                action="onb-use-local",
                testid="onb-use-local",
                cls="btn btn-small",
                data_index=str(row.index),
            )
            body = [e("span", "onb-local-models", row.models, testid="onb-local-models"), use]
        out.append(e("li", "onb-local-row", head, " ", where, " ", *body, testid="onb-local-row"))
    return out


def _quick() -> El:
    """The ways in without a key to paste, in one compact section under the key form."""
    local = e(
        "div",
        "onb-local",
        e("span", "onb-local-title", "On this computer:", id="onb-local-title"),
        " ",
        e("span", "hint", testid="onb-local-status", ref="local_status", role="status"),
        e("ul", "onb-local-list", testid="onb-local-list", ref="local_list"),
        btn(
            "Look for model servers",
            action="onb-find-local",
            testid="onb-find-local",
            cls="btn btn-small",
            ref="find_local",
        ),
        aria_labelledby="onb-local-title",
    )
    quick = e(
        "div",
        "onb-quick",
        btn(
            "Connect with OpenRouter",
            action="onb-openrouter",
            testid="onb-openrouter",
            cls="btn btn-small",
        ),
        btn("See it build a site", action="onb-demo", testid="onb-demo", cls="btn btn-small"),
    )
    return e(
        "div",
        "onb-other",
        e("h4", None, "Or, without a key", id="onb-other-title"),
        quick,
        hint(
            "OpenRouter: sign in there and come back with a key, nothing to paste. "
            "The demo replays a recorded session and calls no provider."
        ),
        local,
        testid="onb-other",
        role="group",
        aria_labelledby="onb-other-title",
    )


def form() -> El:
    """The form; refs: ``notice``, ``local_status``, ``local_list``, ``find_local``,
    ``provider``, ``base_url``, the key field's, ``proxy``, ``proxy_url`` in
    ``proxy_row``, ``test``, ``test_result``, ``model`` and ``models`` in
    ``model_row`` (hidden until a test passed)."""
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
        e("p", "onb-notice", testid="onb-notice", role="alert", hidden=True, ref="notice"),
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
        _quick(),
        testid="onboarding",
        aria_labelledby="onb-title",
    )
