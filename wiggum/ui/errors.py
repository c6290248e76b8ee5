"""Every ``LLMError`` in words a person can act on.

:func:`explain` takes a live error or its stored record (any object or dict
with the same field names: ``name``, ``status``, ``retry_after``,
``maybe_cors``, ``detail``, ``provider_name``, ``model``, ``proxy``,
``proxied``, ``estimated_tokens``, ``context_window``, ``error_type``,
``idle_seconds``, ``timeout_seconds``) and
returns an :class:`Explanation`, or ``None`` for an ``AbortError`` (a
stopped reply is not an error).

Explanations never include keys; a provider's own detail is shown only for
errors where it helps (a 400's reason), cut to one short line.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from wiggum.llm.errors import LLMError

__all__ = ["Explanation", "explain", "format_wait"]

# Class names in order of specificity (subclasses first), so records map
# the same way the live errors do.
_NETWORK = {"NetworkError", "RequestTimeoutError"}
#: Error types a provider reports, in an error event or an error body with no
#: HTTP status of its own, for trouble on its side (OpenAI's ``server_error``,
#: Anthropic's ``api_error`` and ``overloaded_error``, a gateway's ``timeout``).
_UNAVAILABLE_TYPES = {
    "server_error",
    "api_error",
    "overloaded_error",
    "timeout",
    "timeout_error",
    "service_unavailable",
    "internal_error",
    "internal_server_error",
}


@dataclass(slots=True, frozen=True)
class Explanation:
    #: Short heading ("API key rejected").
    title: str
    #: One or two sentences saying what happened and what to do.
    message: str
    #: The error's class name.
    kind: str
    #: Suggest opening Settings (key, base URL, model, proxy).
    settings: bool = False
    #: Seconds the provider asked us to wait, when it said.
    retry_after: float | None = None


def _get(err: Any, name: str, default: Any = None) -> Any:
    if isinstance(err, Mapping):
        return err.get(name, default)
    return getattr(err, name, default)


def format_wait(seconds: float) -> str:
    """``20 s``, ``2 min``, ``1 h``."""
    s = max(1, math.ceil(seconds))
    if s < 90:
        return f"{s} s"
    if s < 90 * 60:
        return f"{round(s / 60)} min"
    return f"{round(s / 3600)} h"


def _try_again(retry_after: float | None, otherwise: str) -> str:
    """When to retry, as the provider (or the proxy) said, else ``otherwise``."""
    return f"try again in {format_wait(retry_after)}." if retry_after else otherwise


def _rate_limited(who: str, kind: str, retry_after: Any) -> Explanation:
    wait = _try_again(retry_after, "wait a moment and try again.")
    return Explanation(
        "Rate limited",
        f"{who} is limiting how fast requests can be made: {wait}",
        kind,
        retry_after=retry_after,
    )


def _short(detail: str | None, limit: int = 200) -> str:
    if not detail:
        return ""
    line = " ".join(str(detail).split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


#: The CORS proxy (proxy/src/index.ts) answers its own refusals as one line of
#: text starting with this, so they can be told apart from the provider's.
_PROXY_PREFIX = "proxy:"


def _proxy_refusal(detail: str) -> str | None:
    if not detail.lower().startswith(_PROXY_PREFIX):
        return None
    return detail[len(_PROXY_PREFIX) :].strip() or "refused"


def _explain_proxy_refusal(
    reason: str, who: str, status: Any, kind: str, retry_after: Any
) -> Explanation:
    code = f"HTTP {status}, " if status else ""
    if reason.startswith("host not allowed"):
        return Explanation(
            "Proxy refused the provider",
            f"The proxy does not forward to {who} ({code}{reason}). Add the provider's host to "
            "the proxy's ALLOWED_HOSTS and deploy it again, or turn the proxy off for this "
            "provider in Settings if it accepts calls from web pages.",
            kind,
            settings=True,
        )
    if reason.startswith("origin not allowed"):
        return Explanation(
            "Proxy refused this page",
            f"The proxy does not serve this page's origin ({code}{reason}). Set the proxy's "
            "ALLOWED_ORIGINS to include this page's origin and deploy it again.",
            kind,
            settings=True,
        )
    if reason.startswith("upstream unreachable"):
        return Explanation(
            "Provider unreachable",
            f"The proxy could not reach {who} ({code}{reason}). Check the base URL in Settings; "
            "if it is right, the provider may be down.",
            kind,
            settings=True,
        )
    if reason.startswith("rate limit"):
        wait = _try_again(retry_after, "wait a moment.")
        return Explanation(
            "Proxy busy",
            f"The proxy is limiting how fast requests can be made: {wait}",
            kind,
            retry_after=retry_after,
        )
    return Explanation(
        "Proxy refused the request",
        f"The proxy refused the request to {who} ({code}{reason}). Check the proxy URL "
        "template and the base URL in Settings.",
        kind,
        settings=True,
    )


def model_missing(detail: str | None, provider: str | None) -> bool:
    """Ollama's 404 for a model it has not downloaded: ``model "x" not found, try
    pulling it first``."""
    low = (detail or "").lower()
    return "not found" in low and ("pull" in low or (provider == "ollama" and "model" in low))


def explain(
    err: Any,
    *,
    provider_name: str | None = None,
    proxy: bool | None = None,
    proxy_template: str | None = None,
    local_fix: str | None = None,
) -> Explanation | None:
    """What to tell the person about ``err`` (an ``LLMError`` or its record).

    ``local_fix``: for a provider on this machine (Ollama, LM Studio …), how to
    make it accept this page; a network error then means the server is off
    or refuses the origin, never that a proxy is needed.
    """
    if isinstance(err, LLMError):
        kind = err.name
    elif isinstance(err, BaseException):
        return Explanation(
            "Something went wrong",
            f"Wiggum hit an internal problem ({type(err).__name__}). "
            "Try again; if it keeps happening, reload the page.",
            type(err).__name__,
        )
    else:
        kind = _get(err, "name") or _get(err, "type") or "LLMError"
    if kind == "AbortError":
        return None

    who = provider_name or _get(err, "provider_name") or _get(err, "provider") or "the provider"
    model = _get(err, "model") or "the model"
    status = _get(err, "status")
    detail = _short(_get(err, "detail"))
    retry_after = _get(err, "retry_after")
    if proxy is None:
        proxy = bool(_get(err, "proxy", False))
    if proxy_template is None:
        proxied = bool(_get(err, "proxied", False))
    else:
        proxied = bool(proxy and proxy_template.strip())

    refusal = _proxy_refusal(detail) if proxied else None
    if refusal is not None:
        return _explain_proxy_refusal(refusal, who, status, kind, retry_after)
    if kind == "AuthenticationError":
        if status == 403:
            return Explanation(
                "Access refused",
                f"{who} refused access (HTTP 403): the API key may not be allowed to use "
                f"{model}. Check the key and the model in Settings.",
                kind,
                settings=True,
            )
        return Explanation(
            "API key rejected",
            f"The provider rejected the API key ({who}, HTTP {status or 401}). "
            "Check the key in Settings: it may be mistyped, revoked, "
            "or meant for another provider.",
            kind,
            settings=True,
        )
    if kind == "RateLimitError":
        quota = "quota" in (str(_get(err, "error_type") or "") + detail).lower()
        if quota:
            return Explanation(
                "Out of quota",
                f"{who} says the account is out of credit or over its quota. "
                "Check your plan or billing with the provider, or switch providers in Settings.",
                kind,
                retry_after=retry_after,
            )
        return _rate_limited(who, kind, retry_after)
    if kind == "ContextOverflowError":
        est, window = _get(err, "estimated_tokens"), _get(err, "context_window")
        size = f" (about {est:,} tokens; {model} takes {window:,})" if est and window else ""
        return Explanation(
            "Conversation too long",
            f"The conversation no longer fits the model's context window{size}. "
            "Start a new project, or choose a model with a larger context window in Settings.",
            kind,
            settings=True,
        )
    if kind == "NotFoundError" and model_missing(detail, _get(err, "provider")):
        return Explanation(
            "Model not downloaded",
            f"{who} does not have the model {model}. Run `ollama pull {model}` on the machine "
            "that runs Ollama, then try again, or choose a model it has in Settings.",
            kind,
            settings=True,
        )
    if kind == "NotFoundError":
        return Explanation(
            "Not found",
            f"{who} answered “not found” (HTTP 404): the base URL or the model name is "
            f"probably wrong (model: {model}). Check both in Settings.",
            kind,
            settings=True,
        )
    if kind in _NETWORK:
        if kind == "RequestTimeoutError":
            seconds = _get(err, "timeout_seconds")
            within = f" within {seconds:g} seconds" if isinstance(seconds, int | float) else ""
            return Explanation(
                "No answer",
                f"{who} did not answer{within}, so the request was given up. Try again in a "
                "moment; the wait is set in Settings.",
                kind,
                settings=True,
            )
        if local_fix and not proxy:
            return Explanation(
                "Local server not answering",
                f"Nothing answered at {who}, or it refused this page. Start the server if it "
                f"is not running. {local_fix}",
                kind,
                settings=True,
            )
        if _get(err, "maybe_cors", False):
            if not proxy:
                return Explanation(
                    "Provider unreachable",
                    f"The browser could not reach {who}. It may not allow calls from web pages "
                    "(CORS): turn on the proxy for this provider in Settings.",
                    kind,
                    settings=True,
                )
            if not proxied:
                return Explanation(
                    "Proxy not set",
                    f"The browser could not reach {who}. The proxy is on for this provider but "
                    "no proxy URL is set: enter the proxy URL template in Settings.",
                    kind,
                    settings=True,
                )
            return Explanation(
                "Proxy unreachable",
                f"The browser could not reach {who} through the proxy. Check the proxy URL in "
                "Settings and your internet connection.",
                kind,
                settings=True,
            )
        return Explanation(
            "Connection failed",
            f"Could not reach {who}. Check your internet connection and the base URL in Settings.",
            kind,
            settings=True,
        )
    if kind == "RedirectError":
        target = f" ({detail})" if detail else ""
        return Explanation(
            "Redirected elsewhere",
            f"{who}'s address sent the request on to another site{target}. Wiggum does not "
            "follow it: your key and the conversation would go there. Check the base URL in "
            "Settings; if you trust that site, use its address instead.",
            kind,
            settings=True,
        )
    if kind == "StreamIdleError":
        seconds = _get(err, "idle_seconds")
        quiet = f"for {seconds:g} seconds" if isinstance(seconds, int | float) else "for too long"
        return Explanation(
            "Reply stalled",
            f"{who} sent no more of the reply {quiet}, so it was ended. What arrived is kept; "
            "press Retry to ask again. The wait is set in Settings.",
            kind,
            settings=True,
        )
    if kind == "StreamIncompleteError":
        return Explanation(
            "Reply cut off",
            "The connection dropped before the reply was complete. What arrived is kept; "
            "press Retry to ask again.",
            kind,
        )
    if kind == "EmptyResponseError":
        return Explanation(
            "Empty reply",
            f"{model} sent back an empty reply. Try again, or rephrase your message.",
            kind,
        )
    if kind in ("MalformedResponseError", "MalformedToolCallError"):
        said = (
            f"{who} sent {detail} instead of a reply"
            if detail and kind == "MalformedResponseError"
            else f"{who}'s answer could not be understood"
        )
        return Explanation(
            "Unreadable reply",
            f"{said}. Check that the provider kind "
            "(OpenAI-compatible, Anthropic, Ollama) matches its base URL in Settings.",
            kind,
            settings=True,
        )
    if kind == "ContentFilterError":
        return Explanation(
            "Reply filtered",
            f"{who}'s content filter stopped the reply. Try rephrasing your message.",
            kind,
        )
    if kind == "TokenLimitError":
        return Explanation(
            "Reply too long",
            f"The reply reached {model}'s output limit and may be cut short.",
            kind,
        )
    if kind == "StreamingUnsupportedError":
        return Explanation(
            "Streaming unsupported",
            f"{who} does not stream replies for {model}.",
            kind,
        )
    if kind == "ProviderError" or status:
        return _explain_provider_error(who, int(status or 0), detail, err, kind, retry_after)
    message = _short(_get(err, "message")) or "an unexpected error"
    return Explanation(
        "Something went wrong",
        f"Something went wrong talking to {who}: {message.rstrip('.')}.",
        kind,
    )


def _explain_provider_error(
    who: str, code: int, detail: str, err: Any, kind: str, retry_after: Any
) -> Explanation:
    """An error the provider answered with.  ``code`` 0: it came with no HTTP
    status of its own (an error event inside a 200 stream, an error object in a
    200 body); its error type says what kind it is, and no "HTTP 0" is shown."""
    etype = str(_get(err, "error_type") or "")
    if code >= 500 or (code == 0 and etype.lower() in _UNAVAILABLE_TYPES):
        said = f"HTTP {code}" if code else (f"it reported {etype}" if etype else "")
        why = f" ({said})" if said else ""
        return Explanation(
            "Provider unavailable",
            f"{who} is having trouble right now{why}. This is on the provider's side: try "
            "again in a little while.",
            kind,
            retry_after=retry_after,
        )
    if code == 429 or etype == "rate_limit_error":
        return _rate_limited(who, kind, retry_after)
    extra = f": {detail}" if detail else "."
    if code == 0:
        said = f" ({etype})" if etype and etype != "error" else ""
        return Explanation(
            "Provider error",
            f"{who} reported an error while answering{said}{extra}",
            kind,
        )
    return Explanation(
        "Request refused",
        f"{who} refused the request (HTTP {code}){extra}",
        kind,
        settings=code in (400, 422),
    )
