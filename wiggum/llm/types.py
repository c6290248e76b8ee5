"""The canonical data of the LLM client: messages in, responses and deltas out.

Messages, tool calls and responses are pydantic models because they cross
boundaries (IndexedDB, exports, every dialect).  Stream deltas are slotted
dataclasses (not frozen: frozen ones cost twice as much to build), since
thousands of them are made per reply, on the hot path.

Nothing here may leak prompt text, tool arguments or keys through ``repr``:
those fields are excluded and replaced by their size.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from typing import TYPE_CHECKING, Annotated, Any, ClassVar, Literal

from pydantic import BaseModel, ConfigDict, Field, SecretStr

from .errors import LLMError

if TYPE_CHECKING:
    import logging

    from .abort import AbortSignal


class _QuietRepr(BaseModel):
    """Shows the size of private fields in ``repr`` instead of their text."""

    _private_repr: ClassVar[tuple[str, ...]] = ()

    def __repr_args__(self):
        for name, value in super().__repr_args__():
            if name in self._private_repr and value:
                yield name, f"<{len(value) if hasattr(value, '__len__') else '?'} hidden>"
            else:
                yield name, value


class FinishReason(StrEnum):
    STOP = "stop"
    TOOL_CALLS = "tool_calls"
    LENGTH = "length"
    CONTENT_FILTER = "content_filter"
    ERROR = "error"
    UNKNOWN = "unknown"


class UsageData(BaseModel):
    prompt_tokens: int = 0
    completion_tokens: int = 0
    total_tokens: int = 0
    #: USD; provider-reported, else computed from the registry, else ``None``.
    cost: float | None = None
    cache_read_tokens: int | None = None
    cache_write_tokens: int | None = None
    reasoning_tokens: int | None = None
    #: Web searches the provider ran for this reply (Anthropic's ``web_search``),
    #: billed apart from tokens.
    web_search_requests: int | None = None
    #: ``"provider"`` or ``"registry"``: where ``cost`` came from.
    cost_source: Literal["provider", "registry"] | None = None


class ParsedToolCall(_QuietRepr):
    _private_repr = ("args", "raw_args")

    id: str
    name: str
    args: dict[str, Any] = Field(default_factory=dict)
    raw_args: str = ""
    #: The arguments did not parse as JSON and were repaired.
    repaired: bool = False
    #: The arguments were cut off (``finish_reason: length`` or a broken stream).
    #: Repaired truncated arguments must never be executed as if complete.
    truncated: bool = False
    #: Why the arguments could not be recovered at all (``args`` is then ``{}``).
    parse_error: str | None = None
    #: Provider data that must be sent back with the call (Gemini thought signatures).
    provider_data: dict[str, Any] | None = None


class TextPart(_QuietRepr):
    _private_repr = ("text",)
    type: Literal["text"] = "text"
    text: str


class ImagePart(_QuietRepr):
    """An image, as a URL (``https:`` or ``data:``) or as base64 data + media type."""

    _private_repr = ("data", "url")
    type: Literal["image"] = "image"
    url: str | None = None
    data: str | None = None
    media_type: str | None = None


ContentPart = Annotated[TextPart | ImagePart, Field(discriminator="type")]


class Citation(BaseModel):
    """A web source the provider cited in its reply (server-side search)."""

    url: str
    title: str = ""


class ThinkingBlock(_QuietRepr):
    """A reasoning block as the provider sent it, kept so it can be sent back.

    Anthropic requires thinking blocks (with their ``signature``) to accompany
    a tool-use turn in the history; redacted blocks carry opaque ``data``.
    """

    _private_repr = ("text", "data")
    text: str = ""
    signature: str | None = None
    redacted: bool = False
    data: str | None = None


Role = Literal["system", "user", "assistant", "tool"]


class Message(_QuietRepr):
    """One message of the canonical history, the same for every dialect."""

    _private_repr = ("content", "reasoning")

    role: Role
    content: str | list[ContentPart] = ""
    tool_calls: list[ParsedToolCall] = Field(default_factory=list)
    #: For ``role="tool"``: the call this message answers.
    tool_call_id: str | None = None
    #: For ``role="tool"``: the tool's name (Ollama and Gemini want it).
    name: str | None = None
    #: For ``role="tool"``: the result is an error.
    is_error: bool = False
    #: Assistant reasoning text; sent back where a provider needs it (DeepSeek).
    reasoning: str | None = None
    #: Assistant thinking blocks with signatures (Anthropic).
    thinking: list[ThinkingBlock] = Field(default_factory=list)
    #: Assistant: the reply's blocks exactly as the provider wrote them, when it
    #: holds blocks of tools the provider ran itself (Anthropic's web search ...);
    #: sent back unchanged to that provider, ignored by the others.
    provider_blocks: list[dict[str, Any]] = Field(default_factory=list, repr=False)

    @property
    def text(self) -> str:
        """The message's text, with images left out."""
        if isinstance(self.content, str):
            return self.content
        return "".join(p.text for p in self.content if isinstance(p, TextPart))

    @classmethod
    def system(cls, text: str) -> Message:
        return cls(role="system", content=text)

    @classmethod
    def user(cls, content: str | list[ContentPart]) -> Message:
        return cls(role="user", content=content)

    @classmethod
    def assistant(cls, text: str = "", tool_calls: list[ParsedToolCall] | None = None) -> Message:
        return cls(role="assistant", content=text, tool_calls=tool_calls or [])

    @classmethod
    def tool(cls, call_id: str, content: str, name: str | None = None, *, is_error: bool = False):
        return cls(role="tool", tool_call_id=call_id, content=content, name=name, is_error=is_error)


class ToolDefinition(BaseModel):
    name: str
    description: str = ""
    #: JSON schema of the arguments object.
    parameters: dict[str, Any] = Field(default_factory=lambda: {"type": "object", "properties": {}})


ProviderKind = Literal["openai", "anthropic", "ollama"]


class ProviderConfig(_QuietRepr):
    """Where and how to reach a model.  ``kind`` selects the wire dialect."""

    model_config = ConfigDict(frozen=True)

    id: str
    kind: ProviderKind = "openai"
    base_url: str
    model: str
    api_key: SecretStr = SecretStr("")
    #: Route requests through the CORS proxy template.
    proxy: bool = False
    #: Display name.
    name: str | None = None
    #: Extra request headers (never logged).
    headers: dict[str, str] = Field(default_factory=dict, repr=False)
    #: Overrides of registry facts, for models the registry does not know.
    context_window: int | None = None
    max_output_tokens: int | None = None
    supports_streaming: bool | None = None
    supports_images: bool | None = None

    def __repr_args__(self):
        for name, value in super().__repr_args__():
            yield name, ("**********" if name == "api_key" and value else value)

    def secret(self) -> str:
        """The API key's value, for the one request header that needs it."""
        key = self.api_key
        return key.get_secret_value() if isinstance(key, SecretStr) else str(key or "")


#: The default ``RequestOptions.timeout``, in seconds (the official SDKs' own).
DEFAULT_TIMEOUT = 600.0


@dataclass(slots=True, kw_only=True)
class RequestOptions:
    """Per-request options of :func:`chat` and :func:`stream`."""

    tools: list[ToolDefinition] | None = None
    #: A pydantic model class; ``LLMResponse.output`` becomes an instance of it.
    output_schema: type[BaseModel] | None = None
    #: Defaults to the ``wiggum.llm`` logger.
    logger: logging.Logger | None = None
    signal: AbortSignal | None = None
    max_tokens: int | None = None
    temperature: float | None = None
    #: CORS proxy URL template with ``{href}``; applied when ``provider.proxy``.
    proxy_template: str | None = None
    #: Tool choice: ``"auto"``, ``"none"``, ``"required"`` or a tool name.
    tool_choice: str | None = None
    #: Anthropic / reasoning models: a thinking budget in tokens (0 = off).
    reasoning_budget: int | None = None
    #: Retries for 429 / 5xx / network errors / retryable stream errors (the
    #: official SDKs' default: three requests at most).
    max_retries: int = 2
    #: Injectable sleep so retry tests spend no wall time.
    sleep: Callable[[float], Any] | None = None
    #: Seconds to wait for the answer's head (connecting included) and for each
    #: read of its body (``RequestTimeoutError``).  Finite by default, as in the
    #: official SDKs (600 s): a server that accepts the request and never
    #: answers must not hold a call for ever.  ``None`` = no bound (a caller's
    #: explicit choice).
    timeout: float | None = DEFAULT_TIMEOUT
    #: Seconds a started stream may go without an *event* before it is given up
    #: (``StreamIdleError``, partial kept); keep-alive comments and other bytes
    #: that carry no event do not count.  ``None`` = ``timeout`` bounds it.
    idle_timeout: float | None = None
    #: Told before each retry wait: ``on_retry(seconds, error)`` (a page shows a
    #: countdown; abort the signal to cancel the wait).
    on_retry: Callable[[float, Any], Any] | None = None
    #: Skip the context-window preflight (the caller already budgeted).
    skip_preflight: bool = False
    #: Extra body fields merged into the provider payload.
    extra_body: dict[str, Any] = field(default_factory=dict)
    #: Let the provider search the web itself while answering (it bills for it),
    #: the way its vendor does (``Vendor.web_search``: Anthropic's server tool,
    #: OpenRouter's plugin).  At most this many searches; ``0`` = off.  Providers
    #: without server-side search ignore it (``web_search_supported`` says which do).
    web_search: int = 0


class LLMResponse(_QuietRepr):
    _private_repr = ("content", "reasoning")

    role: Literal["assistant"] = "assistant"
    content: str = ""
    reasoning: str | None = None
    tool_calls: list[ParsedToolCall] = Field(default_factory=list)
    finish_reason: FinishReason = FinishReason.UNKNOWN
    usage: UsageData | None = None
    tool_call_signature: str | None = None
    #: The provider's raw response, for debugging and provider-specific fields.
    #: Batch: the whole parsed JSON body as the provider sent it.  Stream: a
    #: bounded summary, ``{"id": …, "model": …, "last_event": {…}}`` -- the
    #: response id and model from the first events, and the last JSON event
    #: (often the usage chunk, ``message_stop`` or Ollama's ``done`` line); the
    #: events in between are not kept.  ``None`` when nothing arrived.  It can
    #: hold reply text, so it stays out of ``repr``; the API key and the
    #: provider's extra header values are replaced by ``**********``.
    raw: Any = Field(default=None, repr=False)
    #: The validated ``output_schema`` instance, or ``None``.
    output: Any = Field(default=None, repr=False)
    #: Why ``output`` is ``None`` when a schema was asked for.
    output_error: str | None = None
    #: Thinking blocks with signatures, for sending the turn back.
    thinking: list[ThinkingBlock] = Field(default_factory=list, repr=False)
    #: The reply's blocks as the provider wrote them when a provider-run tool
    #: (``server_tool_use`` and its result) is among them; see ``Message``.
    provider_blocks: list[dict[str, Any]] = Field(default_factory=list, repr=False)
    #: Web sources the reply cites (server-side search), first citation first, once each.
    citations: list[Citation] = Field(default_factory=list)
    #: The model declined (OpenAI's ``refusal``): its words, also in ``content``,
    #: and ``finish_reason`` is ``content_filter``.
    refusal: str | None = None
    #: The provider and model that answered.
    provider: str | None = None
    model: str | None = None

    def to_message(self) -> Message:
        """This reply as a history message that every dialect can send back."""
        return Message(
            role="assistant",
            content=self.content,
            tool_calls=list(self.tool_calls),
            reasoning=self.reasoning,
            thinking=list(self.thinking),
            provider_blocks=[dict(b) for b in self.provider_blocks],
        )


# ---------------------------------------------------------------- stream deltas


class _Delta:
    """A stream delta; its class names its kind in ``type`` (``class X(_Delta, type=…)``)."""

    __slots__ = ()
    type: ClassVar[str]

    def __init_subclass__(cls, type: str = "", **kwargs: Any) -> None:
        super().__init_subclass__(**kwargs)
        if type:
            cls.type = type


@dataclass(slots=True)
class _TextDelta(_Delta):
    text: str


class ContentDelta(_TextDelta, type="content"):
    __slots__ = ()


class ReasoningDelta(_TextDelta, type="reasoning"):
    __slots__ = ()


@dataclass(slots=True)
class _CallDelta(_Delta):
    #: The call's slot: the same for its start, its arguments and its end.
    index: int


@dataclass(slots=True)
class ToolCallStartDelta(_CallDelta, type="tool_call_start"):
    id: str
    name: str


@dataclass(slots=True)
class ToolCallArgsDelta(_CallDelta, type="tool_call_delta"):
    args: str


class ToolCallEndDelta(_CallDelta, type="tool_call_end"):
    __slots__ = ()


@dataclass(slots=True)
class FinishDelta(_Delta, type="finish"):
    reason: FinishReason


@dataclass(slots=True)
class UsageDelta(_Delta, type="usage"):
    data: UsageData


@dataclass(slots=True)
class ErrorDelta(_Delta, type="error"):
    error: LLMError


StreamDelta = (
    ContentDelta
    | ReasoningDelta
    | ToolCallStartDelta
    | ToolCallArgsDelta
    | ToolCallEndDelta
    | FinishDelta
    | UsageDelta
    | ErrorDelta
)
