"""The error taxonomy: one class for each way a call can fail.

Every error names the provider and model and says whether retrying the same
request can help (``retryable``).  Messages never carry prompt text, tool
arguments, response bodies or keys: bodies are kept on ``response_body`` for
code that needs them, out of ``str`` and ``repr``.
"""

from __future__ import annotations

from typing import Any


class LLMError(Exception):
    retryable: bool = False

    def __init__(self, message: str, provider: str = "", model: str = "") -> None:
        super().__init__(message)
        self.message = message
        self.provider = provider
        self.model = model
        #: What had arrived before the failure, when anything had: an
        #: ``LLMResponse``.  Typed loosely because this module sits below
        #: ``wiggum.llm.types`` (which builds stream deltas on these errors) and
        #: must stay free of pydantic for the page's first screen.
        self.partial: Any = None

    @property
    def name(self) -> str:
        return type(self).__name__

    def __repr__(self) -> str:
        return f"{self.name}({self.message!r}, provider={self.provider!r}, model={self.model!r})"


class EmptyResponseError(LLMError):
    """No content, no reasoning and no tool calls."""

    retryable = True

    def __init__(self, finish_reason: str, provider: str = "", model: str = ""):
        super().__init__(
            f"Empty response from {model or 'the model'} (finish_reason: {finish_reason})",
            provider,
            model,
        )
        self.finish_reason = finish_reason


class MalformedResponseError(LLMError):
    """The provider's answer could not be understood: bad JSON, an unknown
    shape, a web page, a body with no event in it.

    Not retried: the same request to the same address gets the same answer
    (the usual cause is a base URL that points at something else, or a provider
    kind that does not match it).
    """

    retryable = False

    def __init__(
        self, message: str, provider: str = "", model: str = "", *, detail: str | None = None
    ) -> None:
        super().__init__(message, provider, model)
        #: What came instead of a reply, in words that fit "… sent DETAIL instead
        #: of a reply" ("a web page", "text that is not JSON"); never the body.
        self.detail = detail


class MalformedToolCallError(MalformedResponseError):
    """Every tool call of the response lacks a usable name.

    Retried once (by the retry policy): the model's next reply may well differ.
    """

    retryable = True

    def __init__(self, tool_call_ids: list[str], provider: str = "", model: str = ""):
        super().__init__(
            f"Malformed tool call(s) from {model or 'the model'}: missing function name on "
            + ", ".join(tool_call_ids),
            provider,
            model,
        )
        self.tool_call_ids = tool_call_ids


class ProviderError(LLMError):
    """The provider answered with an error (HTTP status, or an error inside a stream)."""

    def __init__(
        self,
        status: int,
        response_body: str | None = None,
        provider: str = "",
        model: str = "",
        *,
        error_type: str | None = None,
        retry_after: float | None = None,
        detail: str | None = None,
        in_stream: bool = False,
    ) -> None:
        where = " in stream" if in_stream else ""
        kind = f" ({error_type})" if error_type else ""
        code = f" {status}" if status else ""  # 0: the error came with no status of its own
        super().__init__(
            f"Provider error{code}{kind}{where} from {provider}/{model}", provider, model
        )
        self.status = status
        self.response_body = response_body
        self.error_type = error_type
        #: Seconds the provider asked us to wait (``Retry-After``).
        self.retry_after = retry_after
        #: The provider's own one-line explanation (its ``error.message``).  It
        #: is the provider's text about our request, never our prompt.
        self.detail = detail
        self.in_stream = in_stream
        self.retryable = (
            status in (408, 409, 425, 429)
            or status >= 500
            # no status of its own (an error event, an error object in a 200
            # body): its type says whether it is trouble on the provider's side
            or ((in_stream or status == 0) and error_type in _RETRYABLE_STREAM_TYPES)
        )


_RETRYABLE_STREAM_TYPES = {
    "overloaded_error",
    "api_error",
    "rate_limit_error",
    "server_error",
    "timeout",
}


class AuthenticationError(ProviderError):
    """401 / 403: the key is missing, wrong, or lacks access."""


class RateLimitError(ProviderError):
    """429: slow down; ``retry_after`` says for how long when the provider said."""


class NotFoundError(ProviderError):
    """404: usually a wrong base URL or an unknown model."""


class TokenLimitError(LLMError):
    """The reply hit the output token limit (``finish_reason: length``)."""

    def __init__(self, provider: str = "", model: str = ""):
        super().__init__(f"{model} hit max tokens — response may be truncated", provider, model)


class ContentFilterError(LLMError):
    """The provider filtered the reply, or the model refused (``refusal``).

    ``refusal`` holds the model's own words when it refused; ``partial`` the reply.
    """

    def __init__(self, provider: str = "", model: str = "", refusal: str | None = None):
        message = (
            f"{model} refused to answer: {refusal}"
            if refusal
            else f"Content filtered by {provider} for {model}"
        )
        super().__init__(message, provider, model)
        self.refusal = refusal


class AbortError(LLMError):
    """The caller cancelled.  ``partial`` holds what had streamed so far."""

    def __init__(self, provider: str = "", model: str = "", reason: str | None = None):
        super().__init__("Request cancelled" + (f": {reason}" if reason else ""), provider, model)
        self.reason = reason


class ContextOverflowError(LLMError):
    """The request does not fit the model's context window.

    Raised by the preflight before any network I/O (``source="preflight"``),
    or mapped from a provider's own "prompt is too long" 400 (``"provider"``).
    """

    def __init__(
        self,
        estimated_tokens: int,
        context_window: int,
        provider: str = "",
        model: str = "",
        *,
        source: str = "preflight",
    ):
        super().__init__(
            f"Request (~{estimated_tokens} tokens) exceeds {model}'s context window "
            f"({context_window})",
            provider,
            model,
        )
        self.estimated_tokens = estimated_tokens
        self.context_window = context_window
        self.source = source


class NetworkError(LLMError):
    """The request never got an HTTP answer: refused, reset, DNS, CORS, timeout.

    In a browser a CORS refusal looks exactly like a network failure;
    ``maybe_cors`` is set when the transport could not tell them apart.
    """

    retryable = True

    def __init__(self, message: str, provider: str = "", model: str = "", *, maybe_cors=False):
        super().__init__(message, provider, model)
        self.maybe_cors = maybe_cors


class RequestTimeoutError(NetworkError):
    """No answer within the request's timeout: no head, or a body read that
    waited that long.

    Not retried: the person has already waited the whole bound once, and a
    provider that stalled that long rarely answers the same request at once
    (Retry is one press away).
    """

    retryable = False

    def __init__(self, message: str, provider: str = "", model: str = "", *, seconds=None):
        super().__init__(message, provider, model)
        #: The bound that ran out, when the one who raised it knew it.
        self.timeout_seconds: float | None = seconds


class RedirectError(LLMError):
    """The provider's address redirected the request to another origin.

    Never followed: the request carries the API key (``Authorization`` or
    ``x-api-key``) and the conversation, and neither may go to a site the
    person did not choose.  ``detail`` names the origin it pointed at (never
    its path or query, which may hold anything).
    """

    def __init__(self, status: int, target: str, provider: str = "", model: str = "") -> None:
        code = f"HTTP {status} " if status else ""
        super().__init__(
            f"A {code}redirect to another origin ({target}) was refused", provider, model
        )
        #: The redirect's status (0 where the browser hides it).
        self.status = status
        self.detail = target


class StreamIncompleteError(LLMError):
    """The stream ended with no finish reason and no end marker.

    ``partial`` keeps everything that did arrive.  Retryable only while
    nothing had been delivered.
    """

    def __init__(self, provider: str = "", model: str = "", *, delivered: bool = False):
        super().__init__(
            "The stream ended before the reply was complete (no finish reason, no end marker)",
            provider,
            model,
        )
        self.retryable = not delivered


class StreamIdleError(StreamIncompleteError):
    """The stream went quiet: no event for ``idle_timeout`` seconds (keep-alive
    comments do not count), or a read waited out the request's timeout.

    Never retried by the client (the wait already cost the person that long);
    ``partial`` keeps what arrived.
    """

    def __init__(
        self, provider: str = "", model: str = "", *, seconds: float = 0.0, delivered: bool = False
    ):
        super().__init__(provider, model, delivered=delivered)
        self.message = f"No event arrived for {seconds:g} seconds; the stream was given up"
        self.args = (self.message,)
        self.idle_seconds = seconds
        self.retryable = False


class StreamingUnsupportedError(LLMError):
    """The provider refused to stream; :func:`stream` falls back to batch."""


__all__ = [
    "AbortError",
    "AuthenticationError",
    "ContentFilterError",
    "ContextOverflowError",
    "EmptyResponseError",
    "LLMError",
    "MalformedResponseError",
    "MalformedToolCallError",
    "NetworkError",
    "NotFoundError",
    "ProviderError",
    "RateLimitError",
    "RedirectError",
    "RequestTimeoutError",
    "StreamIdleError",
    "StreamIncompleteError",
    "StreamingUnsupportedError",
    "TokenLimitError",
]
