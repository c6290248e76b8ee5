"""Turning a provider's error answer into the right :class:`LLMError`.

Dialects extract ``(message, type, code)`` from their error body shape; the
mapping from status and wording to an error class is shared, including the
many ways providers say "the prompt is too long".
"""

from __future__ import annotations

import re
import time
from collections.abc import Mapping
from email.utils import parsedate_to_datetime

from .errors import (
    AuthenticationError,
    ContextOverflowError,
    LLMError,
    NotFoundError,
    ProviderError,
    RateLimitError,
    StreamingUnsupportedError,
)

_OVERFLOW = re.compile(
    r"context[_ ]length[_ ]exceeded|context length|context window|context size"
    r"|prompt is too long|input is too long|too many (input )?tokens|exceeds? the (maximum|max)"
    r"|exceed context limit|reduce the length of the (messages|prompt|input)"
    r"|input token count .* exceeds|request too large for model|string_above_max_length",
    re.IGNORECASE,
)
_TOKENS_GT_MAX = re.compile(r"(\d[\d,]*)\s*(?:\+\s*(\d[\d,]*)\s*)?(?:tokens?\s*)?>\s*(\d[\d,]*)")
_MAX_CONTEXT = re.compile(
    r"(?:maximum context length is|context (?:length|window|size)(?: of| is)?|maximum of)"
    r"\s*(\d[\d,]*)",
    re.IGNORECASE,
)
_REQUESTED = re.compile(
    r"(?:resulted in|requested(?: about)?|contains|count \(|prompt has)\s*(\d[\d,]*)", re.IGNORECASE
)
_STREAM_UNSUPPORTED = re.compile(
    r"stream(ing)? (is )?(not supported|unsupported)|does not support stream", re.IGNORECASE
)


def _int(text: str | None) -> int:
    return int(text.replace(",", "")) if text else 0


def parse_retry_after(headers: Mapping[str, str], now: float | None = None) -> float | None:
    """Seconds to wait, from ``retry-after-ms`` or ``retry-after`` (seconds or HTTP date)."""
    ms = headers.get("retry-after-ms")
    if ms:
        try:
            return max(0.0, float(ms) / 1000)
        except ValueError:
            pass
    value = headers.get("retry-after")
    if not value:
        return None
    try:
        return max(0.0, float(value))
    except ValueError:
        pass
    try:
        when = parsedate_to_datetime(value).timestamp()
    except (TypeError, ValueError, IndexError):
        return None
    return max(0.0, when - (time.time() if now is None else now))


def is_context_overflow(message: str | None, code: str | None = None) -> bool:
    return bool((code and "context_length" in code) or (message and _OVERFLOW.search(message)))


def overflow_numbers(message: str) -> tuple[int, int]:
    """``(requested, window)`` tokens when the wording says them, else zeros."""
    m = _TOKENS_GT_MAX.search(message)
    if m:
        return _int(m.group(1)) + _int(m.group(2)), _int(m.group(3))
    window = _MAX_CONTEXT.search(message)
    requested = _REQUESTED.search(message)
    return (_int(requested.group(1)) if requested else 0, _int(window.group(1)) if window else 0)


def context_overflow_error(
    status: int, message: str | None, code: str | None, provider: str, model: str
) -> ContextOverflowError | None:
    """A provider's "the prompt is too long" as :class:`ContextOverflowError`, else ``None``.

    One rule for HTTP error answers and for errors reported inside a 200
    stream (OpenRouter's ``error`` chunk, Anthropic's ``event: error``), where
    ``status`` is the status the error object names, or 0 when it names none.
    """
    if status not in (0, 400, 413, 422) or not is_context_overflow(message, code):
        return None
    requested, window = overflow_numbers(message or "")
    err = ContextOverflowError(requested, window, provider, model, source="provider")
    err.detail = (message or "").strip()[:500] or None  # type: ignore[attr-defined]
    return err


def error_from_response(
    status: int,
    body: str,
    headers: Mapping[str, str],
    provider: str,
    model: str,
    *,
    message: str | None,
    error_type: str | None = None,
    code: str | None = None,
) -> LLMError:
    retry_after = parse_retry_after(headers)
    detail = (message or "").strip()[:500] or None
    overflow = context_overflow_error(status, message, code, provider, model)
    if overflow is not None:
        return overflow
    if status == 400 and message and _STREAM_UNSUPPORTED.search(message):
        return StreamingUnsupportedError(detail or "Streaming is not supported", provider, model)
    cls = ProviderError
    if status in (401, 403):
        cls = AuthenticationError
    elif status == 404:
        cls = NotFoundError
    elif status == 429:
        cls = RateLimitError
    return cls(
        status,
        body,
        provider,
        model,
        error_type=error_type or code,
        retry_after=retry_after,
        detail=detail,
    )
