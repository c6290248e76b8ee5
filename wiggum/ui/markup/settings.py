"""The Settings dialog as markup: which provider and its fields, the model
field, Test connection, web search, the CORS proxy, the waits (idle and answer timeouts).

``wiggum.web.views.settings`` mounts :func:`dialog` and drives it; what the
fields mean is ``wiggum.session.settings``.  The key field, the model's
suggestions and Test connection's line are shared with the first-run form
(``markup.onboarding``), which gives them ids of its own.
"""

from __future__ import annotations

from collections.abc import Iterable

from ..markdown import El
from ..models import ModelOption
from ..presets import PRESETS, web_search_hint
from ..provider_form import ELSEWHERE_TEXT, KINDS
from ..tree import btn, e
from .forms import (
    checkbox,
    error_line,
    field,
    heading,
    hint,
    link,
    modal,
    options,
    submit,
    text_input,
)

__all__ = [
    "BLAMED",
    "WEB_SEARCH_OFF",
    "WEB_SEARCH_ON",
    "conn_row",
    "diagnosis",
    "dialog",
    "key_field",
    "model_options",
    "provider_options",
    "web_search_text",
    "worker_input",
]

#: The fields Save can blame: each has a control and an error line of these names.
BLAMED = ("base_url", "api_key", "model", "proxy_template", "proxy")

WEB_SEARCH_ON = (
    "Chief can look things up while planning and lists his sources under his answer. "
    "The provider bills each search."
)
#: Who can search: the vendors that do (``wiggum/llm/vendors/``), by their preset names.
WEB_SEARCH_OFF = web_search_hint()


def web_search_text(available: bool) -> str:
    """What the line under "Let Chief search the web" says for a provider."""
    return WEB_SEARCH_ON if available else WEB_SEARCH_OFF


def key_field(id_: str, testid: str, link_testid: str, hint_text: str, *after: El) -> El:
    """An API key field: its label, the password input, a hint ending in "Make a key at …".

    Refs: ``key_field``, ``key_label``, ``api_key``, ``key_link``."""
    return e(
        "div",
        "field",
        e("label", None, "API key", for_=id_, ref="key_label"),
        text_input(id_, testid, type_="password", ref="api_key"),
        hint(hint_text, link(link_testid, ref="key_link")),
        *after,
        ref="key_field",
    )


def conn_row(*, action: str, testid: str, result_testid: str, cls: str = "btn") -> El:
    """Test connection and its result line (refs ``test``, ``test_result``)."""
    return e(
        "div",
        "conn-row",
        btn("Test connection", action=action, testid=testid, cls=cls, ref="test"),
        e("div", "conn-result", testid=result_testid, role="status", ref="test_result"),
    )


def diagnosis(title: str, message: str) -> list[El]:
    """What Test connection found: its cause in bold, then the fix."""
    return [e("strong", None, title + ". "), e("span", None, message)]


def worker_input(id_: str, testid: str, ref: str) -> El:
    """Where the person pastes their proxy worker's address."""
    placeholder = "https://wiggum-cors-proxy.you.workers.dev"
    return text_input(id_, testid, type_="url", placeholder=placeholder, ref=ref)


def model_options(models: Iterable[ModelOption]) -> list[El]:
    """A ``<datalist>``'s options: the id to fill in, the label to read."""
    return [e("option", None, value=m.id, label=m.label) for m in models]


def provider_options(providers: Iterable[tuple[str, str]]) -> list[El]:
    """The provider select's options, from ``(id, label)`` pairs (the view selects one)."""
    return options(providers)


def _provider_head() -> list[El]:
    """Above the model field: which provider, and how to reach it."""
    add = options([("", "Add a provider…"), *((p.id, p.name) for p in PRESETS)])
    return [
        e(
            "div",
            "provider-row",
            e("label", "sr-only", "Provider", for_="set-provider"),
            e("select", None, testid="provider-select", ref="provider_select", id="set-provider"),
            e(
                "select",
                None,
                add,
                testid="add-provider",
                ref="add_select",
                id="set-add",
                aria_label="Add a provider",
            ),
            btn(
                "Remove",
                action="remove-provider",
                testid="remove-provider",
                cls="btn btn-small btn-quiet",
                ref="remove",
            ),
        ),
        hint(
            "Chief uses the provider shown here when you save. ",
            btn(
                "Connect with OpenRouter",
                action="connect-openrouter",
                testid="settings-openrouter",
                cls="btn-link",
            ),
            " adds OpenRouter with a key of its own, nothing to paste.",
        ),
        field(
            "Name",
            text_input("set-name", "provider-name", spellcheck=None, ref="name"),
            for_id="set-name",
        ),
        field(
            "Kind",
            e("select", None, options(KINDS), testid="provider-kind", ref="kind", id="set-kind"),
            hint("The API it speaks. Most services are OpenAI-compatible."),
            for_id="set-kind",
        ),
        field(
            "Server address",
            text_input(
                "set-base-url",
                "provider-base-url",
                type_="url",
                placeholder="https://api.example.com/v1",
                ref="base_url",
            ),
            error_line("base-url-error", "base_url_error"),
            for_id="set-base-url",
        ),
        key_field(
            "set-api-key",
            "provider-api-key",
            "key-link",
            "Stored on this device only and sent only to this provider "
            "(through the proxy if you turn it on). ",
            error_line("api-key-error", "api_key_error"),
        ),
    ]


def _model_field() -> El:
    """The model: free text with the provider's list as suggestions, and its facts."""
    model = text_input(
        "set-model",
        "provider-model",
        placeholder="e.g. gpt-4o-mini",
        ref="model",
        list="set-models",
    )
    load = btn(
        "Load models",
        action="load-models",
        testid="models-refresh",
        cls="btn btn-small",
        ref="models_btn",
    )
    return field(
        "Model",
        e("div", "model-row", model, load),
        e("datalist", None, ref="models", id="set-models"),
        hint(testid="model-info", ref="model_info"),
        hint(testid="models-status", ref="models_status", aria_live="polite"),
        error_line("model-error", "model_error"),
        for_id="set-model",
    )


def _web_search() -> El:
    box = e(
        "input",
        None,
        testid="web-search",
        ref="web_search",
        id="set-web-search",
        type="checkbox",
        aria_describedby="web-search-hint",
    )
    # The hint goes under the checkbox row, not in it (the row is a flex line).
    return e(
        "div",
        "research-setting",
        e(
            "div",
            "field field-check",
            box,
            e("label", None, "Let Chief search the web", for_="set-web-search"),
        ),
        hint(ref="web_search_hint", id="web-search-hint"),
    )


def _provider_tail() -> list[El]:
    """Under Test connection: the proxy box and web search."""
    return [
        checkbox(
            "set-proxy",
            "provider-proxy",
            "Send this provider's requests through the CORS proxy",
            "proxy",
        ),
        error_line("proxy-check-error", "proxy_error"),
        _web_search(),
    ]


def _proxy_section() -> El:
    """The proxy URL template, the two waits, and "Run your own proxy" (the
    one deploy command, and the worker's address made into the template)."""
    worker_url = worker_input("set-worker-url", "worker-url", "worker_url")
    answer_wait = e(
        "input",
        None,
        testid="request-timeout-seconds",
        ref="request_seconds",
        id="set-request-seconds",
        type="number",
        min="10",
        max="3600",
        step="1",
    )
    use_it = btn("Use it", action="use-worker", testid="use-worker", cls="btn btn-small")
    idle = e(
        "input",
        None,
        testid="stream-idle-seconds",
        ref="idle_seconds",
        id="set-idle-seconds",
        type="number",
        min="5",
        max="3600",
        step="1",
    )
    howto = e(
        "details",
        "proxy-howto",
        e("summary", None, "Run your own proxy"),
        e(
            "p",
            None,
            "The proxy is a small Cloudflare Worker (the proxy/ folder of Wiggum's "
            "source) that forwards your requests; it keeps nothing and only serves the "
            "pages you allow.",
        ),
        e(
            "p",
            None,
            "Deploy it (free Cloudflare account) with this one command, which also "
            "sets ALLOWED_ORIGINS to this page's origin:",
        ),
        e("pre", "proxy-cmd", e("code", None, testid="proxy-deploy-command", ref="deploy_cmd")),
        field(
            "Your worker's URL",
            e("div", "model-row", worker_url, use_it),
            hint(
                "Paste the URL wrangler printed; Wiggum fills in the proxy URL "
                "template above and turns the proxy on."
            ),
            error_line("worker-url-error", "worker_error"),
            for_id="set-worker-url",
        ),
        testid="proxy-howto",
    )
    return e(
        "section",
        "dialog-section",
        e("h3", None, "CORS proxy", id="proxy-title"),
        field(
            "Proxy URL template",
            text_input(
                "set-proxy-template",
                "proxy-template",
                type_="url",
                placeholder="https://your-proxy.example/?url={href}",
                ref="proxy_template",
            ),
            hint(
                "Some providers refuse calls from web pages. A proxy you run forwards "
                "them; {href} is replaced by the provider's URL."
            ),
            error_line("proxy-template-error", "proxy_template_error"),
            for_id="set-proxy-template",
        ),
        field(
            "Give up on a silent reply after (seconds)",
            idle,
            hint(
                "When a reply stops arriving for this long, Chief ends it, keeps what "
                "arrived and offers Retry."
            ),
            for_id="set-idle-seconds",
        ),
        field(
            "Give up on a provider that does not answer after (seconds)",
            answer_wait,
            hint(
                "How long Chief and Ralph wait for an answer to begin. A slow local model "
                "may need more; a shorter wait tells you sooner that a server is stuck."
            ),
            for_id="set-request-seconds",
        ),
        field(
            "Ask me before Ralph deletes or overwrites more than (files)",
            e(
                "input",
                None,
                testid="ask-before-changing",
                ref="ask_before_changing",
                id="set-ask-before-changing",
                type="number",
                min="0",
                max="10000",
                step="1",
                placeholder="never ask",
            ),
            hint(
                "His run pauses for Approve or Refuse before he deletes or overwrites one "
                "more of your files than this; files he made himself do not count. Empty: "
                "he never asks (History keeps every checkpoint)."
            ),
            for_id="set-ask-before-changing",
        ),
        howto,
        aria_labelledby="proxy-title",
    )


def _facts_section() -> El:
    """Model facts: where the prices and context windows in use come from, and a
    refresh from models.dev and OpenRouter (fetched by this page, kept in this browser)."""
    return e(
        "section",
        "dialog-section",
        e("h3", None, "Model facts", id="facts-title"),
        hint(
            "Context windows and prices shown beside each model, and used for the cost of "
            "a run, come with the page. Refresh fetches the latest from models.dev and "
            "OpenRouter (no key needed) and keeps them in this browser."
        ),
        e("p", "facts-status usage", testid="facts-status", role="status", ref="facts_status"),
        btn(
            "Refresh model facts",
            action="refresh-facts",
            testid="refresh-facts",
            cls="btn btn-small",
            ref="facts_button",
        ),
        e(
            "p",
            "facts-result",
            testid="facts-result",
            role="status",
            hidden=True,
            ref="facts_result",
        ),
        aria_labelledby="facts-title",
    )


def _number(testid: str, ref: str, id_: str, low: str, step: str) -> El:
    return e("input", None, testid=testid, ref=ref, id=id_, type="number", min=low, step=step)


def _ralph_section() -> El:
    """Ralph's runs: the iteration limit and the default cap in money and tokens."""
    limit = _number("ralph-max-iterations", "ralph_iterations", "set-ralph-iterations", "1", "1")
    usd = _number("ralph-cap-usd", "cap_usd", "set-cap-usd", "0", "any")
    tokens = _number("ralph-cap-tokens", "cap_tokens", "set-cap-tokens", "0", "any")
    usd_hint = (
        "Ralph stops before a call would pass it, and can continue with a raised cap. Empty: "
        "no cap. Models without known prices (local ones) are held by the token cap only."
    )
    fields = [
        field("Iterations per run", limit, hint(RALPH_LIMIT_HINT), for_id="set-ralph-iterations"),
        field("Spending cap per run (US$)", usd, hint(usd_hint), for_id="set-cap-usd"),
        field("Token cap per run", tokens, hint(RALPH_TOKENS_HINT), for_id="set-cap-tokens"),
        checkbox("set-ralph-reflect", "ralph-reflect", RALPH_REFLECT_LABEL, "reflect"),
    ]
    title = e("h3", None, "Ralph's runs", id="ralph-runs-title")
    return e("section", "dialog-section", title, *fields, aria_labelledby="ralph-runs-title")


RALPH_LIMIT_HINT = "When a run reaches it, Continue offers more."
RALPH_TOKENS_HINT = "Prompt and reply tokens as the provider counts them. Empty: no cap."
RALPH_REFLECT_LABEL = "After each run, Ralph notes what worked and what to try next (one more call)"


def dialog() -> El:
    """The whole dialog; its form is ``form``, each control and error line named
    by what it holds (see :data:`BLAMED`)."""
    #: Said when another tab saves the settings while this dialog has edits.
    elsewhere = e(
        "div",
        "settings-elsewhere",
        e("p", None, ELSEWHERE_TEXT),
        btn(
            "Use the other tab's settings",
            action="use-theirs",
            testid="settings-use-theirs",
            cls="btn btn-small",
        ),
        testid="settings-elsewhere",
        ref="elsewhere",
        role="status",
        hidden=True,
    )
    provider = e(
        "section",
        "dialog-section",
        e("h3", None, "Model provider", id="providers-title"),
        _provider_head(),
        _model_field(),
        conn_row(
            action="test-connection", testid="test-connection", result_testid="connection-result"
        ),
        _provider_tail(),
        aria_labelledby="providers-title",
    )
    form = e(
        "form",
        "settings-form",
        heading(
            "dialog-head", "Settings", "settings-title", close="cancel", label="Close settings"
        ),
        elsewhere,
        provider,
        _proxy_section(),
        _facts_section(),
        _ralph_section(),
        e("footer", "dialog-foot", btn("Cancel", action="cancel"), submit("Save", "settings-save")),
        ref="form",
        method="dialog",
    )
    return modal("settings-dialog", "settings-dialog", "settings-title", form)
