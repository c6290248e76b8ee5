"""Test connection: one cheap call through the chat's own route, and its cause in words.

:func:`check_connection` lists the provider's models through the same
transport and proxy template the chat uses (for a provider whose list comes
from the registry, it makes a one-token chat instead) and checks the chosen
model is there.  :func:`diagnose` turns what went wrong into a
:class:`Diagnosis` naming the cause and its fix for this provider: a wrong
key, an organisation forbidding browser calls, a provider without CORS, a
local server that is off or refuses this page's origin, a wrong URL, an
unknown model, a proxy missing, silent or refusing.
"""

from __future__ import annotations

from dataclasses import dataclass
from dataclasses import field as dc_field

from wiggum.llm import LLMError, Message, RequestOptions, chat
from wiggum.llm.transport import Transport

from .errors import explain, model_missing
from .models import ModelOption, list_models
from .presets import preset
from .settings import ProviderSettings, validate_proxy_template

__all__ = ["Diagnosis", "check_connection", "diagnose", "proxy_template_from_worker"]

PROXY_DEPLOY = "cd proxy && npx wrangler deploy --var 'ALLOWED_ORIGINS:{origin}'"


@dataclass(slots=True)
class Diagnosis:
    ok: bool
    #: A stable name for the cause (``auth``, ``org_forbids``, ``cors`` …) for tests and styling.
    cause: str
    title: str
    message: str
    #: Which field the person should fix, when one is to blame.
    field: str | None = None
    models: list[ModelOption] = dc_field(default_factory=list)


def proxy_template_from_worker(url: str) -> str | None:
    """``https://x.workers.dev`` → ``https://x.workers.dev/?url={href}``; ``None`` if not a URL."""
    u = url.strip()
    if not u:
        return None
    if "{href}" in u:
        return u if validate_proxy_template(u) is None else None
    if "{url}" in u:
        u = u.replace("{url}", "{href}")
        return u if validate_proxy_template(u) is None else None
    u = u.split("?", 1)[0].split("#", 1)[0].rstrip("/")
    template = u + "/?url={href}"
    return template if validate_proxy_template(template) is None else None


def _proxied(p: ProviderSettings, template: str) -> bool:
    return p.proxy and bool(template.strip())


def diagnose(
    err: BaseException, p: ProviderSettings, *, proxy_template: str, origin: str
) -> Diagnosis:
    """The cause of ``err`` for ``p`` as tested from ``origin``, with its fix."""
    pr = preset(p.preset)
    who = p.label
    proxied = _proxied(p, proxy_template)
    name = getattr(err, "name", type(err).__name__)
    status = getattr(err, "status", None)
    detail = str(getattr(err, "detail", "") or "")
    if proxied and detail.lower().startswith("proxy:"):
        reason = detail[len("proxy:") :].strip()
        if "origin" in reason:
            return Diagnosis(
                False,
                "proxy_origin",
                "Proxy refused this page",
                f"The proxy answered: “{reason}”. Add this page's origin ({origin}) to the "
                "proxy's ALLOWED_ORIGINS and deploy it again: "
                + PROXY_DEPLOY.format(origin=origin),
                "proxy_template",
            )
        e = explain(err, provider_name=who, proxy=True, proxy_template=proxy_template)
        return Diagnosis(
            False,
            "proxy_refused",
            e.title if e else "Proxy refused",
            (e.message if e else reason) + f" (the proxy answered: “{reason}”)",
            "proxy_template",
        )
    if name == "AuthenticationError":
        low = detail.lower()
        if "cors" in low and ("organization" in low or "organisation" in low):
            return Diagnosis(
                False,
                "org_forbids",
                "Browser calls forbidden for this organisation",
                f"{who} says this organisation's settings forbid calls from web pages. Ask "
                "an admin to allow them, use a key from another organisation, or turn on the "
                "proxy for this provider.",
                "proxy",
            )
        return Diagnosis(
            False,
            "auth",
            "API key rejected",
            f"{who} rejected the API key (HTTP {status or 401}). Paste the key again: it may "
            "be mistyped, revoked or meant for another provider"
            + (f"; make a new one at {pr.key_url}." if pr.key_url else "."),
            "api_key",
        )
    if name == "NotFoundError" and model_missing(detail, "ollama" if pr.id == "ollama" else None):
        return Diagnosis(
            False,
            "model_missing",
            "Model not downloaded",
            f"{who} does not have the model {p.model}. Run `ollama pull {p.model}` on the "
            "machine that runs Ollama, then test again, or choose a model it has.",
            "model",
        )
    if name == "NotFoundError":
        return Diagnosis(
            False,
            "not_found",
            "Wrong URL",
            f"{who} answered “not found” (HTTP 404) at {p.base_url}: the base URL is "
            "probably wrong" + (f"; for {pr.name} it is {pr.base_url}." if pr.base_url else "."),
            "base_url",
        )
    if name == "NetworkError":
        if proxied:
            return Diagnosis(
                False,
                "proxy_unreachable",
                "Proxy not answering",
                f"No readable answer from the proxy ({proxy_template.split('?')[0]}). Either "
                "nothing is running there (check the proxy URL and that the worker is "
                f"deployed), or it refuses this page: set its ALLOWED_ORIGINS to {origin} "
                "and deploy again: " + PROXY_DEPLOY.format(origin=origin),
                "proxy_template",
            )
        # A local server's preset (or a custom one on this machine): off, or refusing us.
        if pr.browser == "local" or (pr.id == "custom" and p.is_local):
            fix = pr.origin_fix or preset("local").origin_fix
            return Diagnosis(
                False,
                "local_down",
                "Local server not answering",
                f"Nothing answered at {p.base_url}, or the server refused this page. Start "
                f"the server if it is not running. {fix.format(origin=origin)}",
                "base_url",
            )
        return Diagnosis(
            False,
            "cors",
            "Calls from web pages blocked",
            f"The browser got no answer it may read from {who} (a network error without a "
            "status). Either the address is wrong or this provider does not allow calls from "
            "web pages; use the proxy: turn it on below and enter your proxy's URL (see "
            "“Run your own proxy”).",
            "proxy",
        )
    if name == "RequestTimeoutError":
        return Diagnosis(
            False,
            "timeout",
            "No answer",
            f"{who} did not answer in time. Check the base URL, or try again in a moment.",
            "base_url",
        )
    e = explain(err, provider_name=who, proxy=p.proxy, proxy_template=proxy_template)
    return Diagnosis(
        False,
        "other",
        e.title if e else "Connection failed",
        e.message if e else str(err),
        None,
    )


async def check_connection(
    p: ProviderSettings,
    *,
    proxy_template: str,
    origin: str,
    transport: Transport | None = None,
) -> Diagnosis:
    """One cheap call through the route the chat will use; never a direct call when proxied."""
    problems = p.field_problems(proxy_template)
    problems.pop("model", None)  # the test helps choose one
    if problems:
        fld, reason = next(iter(problems.items()))
        cause = "proxy_missing" if fld == "proxy_template" else "settings"
        return Diagnosis(False, cause, "Not ready to test", reason, fld)
    template = proxy_template if p.proxy else ""
    pr = preset(p.preset)
    try:
        if pr.models_from == "provider":
            models = await list_models(p, transport, proxy_template=template)
        else:
            await chat(
                p.to_config(),
                [Message.user("Say OK.")],
                RequestOptions(max_tokens=1, proxy_template=template or None),
                transport=transport,
            )
            models = []
    except LLMError as err:
        return diagnose(err, p, proxy_template=template, origin=origin)
    model = p.model.strip()
    if models and model and not any(m.id == model for m in models):
        return Diagnosis(
            False,
            "model_missing",
            "Model not found",
            f"{p.label} answered, but does not offer “{model}”. Choose one of its "
            f"{len(models)} models.",
            "model",
            models,
        )
    msg = f"Connected to {p.label}"
    msg += f": {len(models)} models available." if models else "."
    if not model:
        msg += " Now choose a model."
    return Diagnosis(True, "ok", "Connected", msg, None, models)
