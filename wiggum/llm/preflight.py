"""Context-window awareness before any network I/O.

:func:`estimate_tokens` is a fast heuristic, not a tokenizer: it runs on every
request over the whole history, in the browser, where tiktoken is too heavy.
It aims to err on the high side, because an underestimate costs a provider 400
and an overestimate only trims a little early.

The heuristic, in "chars" where 4 chars make a token:

* **Text.**  ASCII counts one char per character (English and code run at
  about 4 chars/token, ±15%).  Plain ``len/4`` badly undercounts everything
  else: a CJK character is about one token (cl100k ~1.0-1.3, o200k ~0.7-0.9),
  ``len/4`` says 0.25.  So every UTF-8 byte beyond the first of a character
  adds 1.5 chars: Cyrillic/Greek/accented Latin (2 bytes) ~0.6 tokens/char,
  CJK/Hangul/Thai (3 bytes) ~1.0, emoji and other astral characters (4 bytes)
  ~1.4.  One ``str.isascii()`` plus, for non-ASCII strings only, one
  ``str.encode()``: both C loops, so the cost stays linear and tiny.
* **Per message** 16 chars of role/framing overhead (~4 tokens).
* **Images** a fixed :data:`IMAGE_TOKENS` each, whatever their data size (the
  base64 payload is never counted as text).
* **Tool calls** name + arguments (``raw_args``, else ``args`` as JSON) + id,
  plus :data:`TOOL_CALL_OVERHEAD_CHARS`; tool results count their id and name.
* **Reasoning that is sent back**: the larger of ``reasoning`` and the
  ``thinking`` blocks' text (a dialect sends one or the other, never both).
  This over-counts for Anthropic, which does not count earlier turns'
  thinking against the window; better early than a 400.
* **Tool definitions** their JSON.

Every message is rounded up to whole tokens on its own, so the estimate of a
list is exactly the sum of :func:`estimate_message_tokens` over it (plus the
tools): :mod:`.budget` relies on that to trim in one linear pass.
"""

from __future__ import annotations

import json
import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from .errors import ContextOverflowError
from .types import ImagePart, Message, ProviderConfig, TextPart, ToolDefinition

if TYPE_CHECKING:
    from .registry import ModelCapability

__all__ = [
    "CHARS_PER_TOKEN",
    "DEFAULT_CONTEXT_WINDOW",
    "DEFAULT_MAX_OUTPUT_TOKENS",
    "DEFAULT_RESERVE_MAX_SHARE",
    "IMAGE_TOKENS",
    "MESSAGE_OVERHEAD_CHARS",
    "WARN_HEADROOM",
    "PreflightResult",
    "check_or_raise",
    "estimate_message_tokens",
    "estimate_text_tokens",
    "estimate_tokens",
    "estimate_tools_tokens",
    "preflight_check",
    "raise_for_preflight",
    "resolve_limits",
]

logger = logging.getLogger("wiggum.llm")

CHARS_PER_TOKEN = 4
#: Role and framing overhead of one message (~4 tokens).
MESSAGE_OVERHEAD_CHARS = 16
#: Framing of one tool call (``type: function``, the wrapper object).
TOOL_CALL_OVERHEAD_CHARS = 16
#: One image, in tokens.  Providers differ a lot: Gemini 258 per image,
#: OpenAI high detail 765 for 1024x1024 and ~1100 at most, Anthropic
#: ``w*h/750`` i.e. ~1600 at its 1.15 MP cap.  Screenshots are large, so take
#: the top of that range rather than the seed's 250.
IMAGE_TOKENS = 1600
#: Warn (``llm:context-pressure``) below this fraction of the window left.
WARN_HEADROOM = 0.1
#: The registry's conservative default, used when the registry is unavailable.
DEFAULT_CONTEXT_WINDOW = 128_000
DEFAULT_MAX_OUTPUT_TOKENS = 4_096
#: Without an explicit ``max_tokens``, reserve at most this share of the
#: window for the reply (see :func:`preflight_check`).
DEFAULT_RESERVE_MAX_SHARE = 0.25

# Work in half-chars so the 1.5-chars-per-extra-byte weight stays an integer:
# one token is 2 * CHARS_PER_TOKEN units.
_UNITS_PER_TOKEN = 2 * CHARS_PER_TOKEN
_MESSAGE_OVERHEAD_UNITS = 2 * MESSAGE_OVERHEAD_CHARS
_TOOL_CALL_OVERHEAD_UNITS = 2 * TOOL_CALL_OVERHEAD_CHARS


def _units(text: str) -> int:
    """``text``'s weight in half-chars (2 per character, +3 per extra UTF-8 byte)."""
    if text.isascii():
        return 2 * len(text)
    n = len(text)
    # surrogatepass: strings from JS may hold lone surrogates (3 bytes each).
    return 2 * n + 3 * (len(text.encode("utf-8", "surrogatepass")) - n)


def _ceil_tokens(units: int) -> int:
    return -(-units // _UNITS_PER_TOKEN)


def estimate_text_tokens(text: str) -> int:
    """Estimated tokens of a bare string (no message overhead)."""
    return _ceil_tokens(_units(text))


def _args_text(args: dict[str, Any]) -> str:
    if not args:
        return ""
    try:
        return json.dumps(args, ensure_ascii=False, separators=(",", ":"), default=str)
    except (TypeError, ValueError):  # circular structures: still count something
        return str(args)


def estimate_message_tokens(message: Message) -> int:
    """Estimated tokens of one message, rounded up.

    ``estimate_tokens(ms) == sum(map(estimate_message_tokens, ms))`` without tools.
    """
    units = _MESSAGE_OVERHEAD_UNITS
    content = message.content
    if isinstance(content, str):
        if content:
            units += _units(content)
    else:
        images = 0
        for part in content:
            if isinstance(part, TextPart):
                units += _units(part.text)
            elif isinstance(part, ImagePart):
                images += 1
        units += images * IMAGE_TOKENS * _UNITS_PER_TOKEN
    if message.tool_calls:
        for call in message.tool_calls:
            units += _TOOL_CALL_OVERHEAD_UNITS + _units(call.name) + _units(call.id)
            units += _units(call.raw_args or _args_text(call.args))
    if message.tool_call_id:
        units += _units(message.tool_call_id)
    if message.name:
        units += _units(message.name)
    if message.reasoning or message.thinking:
        thinking = 0
        for block in message.thinking:
            thinking += _units(block.text)
            if block.data:  # redacted: opaque, but it stands for real tokens
                thinking += _units(block.data)
        units += max(thinking, _units(message.reasoning or ""))
    return _ceil_tokens(units)


def estimate_tools_tokens(tools: Iterable[ToolDefinition] | None) -> int:
    """Estimated tokens of the tool definitions (their JSON)."""
    if not tools:
        return 0
    units = 0
    for tool in tools:
        units += _units(tool.model_dump_json())
    return _ceil_tokens(units)


def estimate_tokens(
    messages: Iterable[Message], tools: Sequence[ToolDefinition] | None = None
) -> int:
    """Estimated prompt tokens of ``messages`` plus ``tools``: see the module doc."""
    return sum(map(estimate_message_tokens, messages)) + estimate_tools_tokens(tools)


# ------------------------------------------------------------------ preflight


@dataclass(slots=True, frozen=True)
class PreflightResult:
    #: False when prompt + reserved output exceed the window.
    ok: bool
    estimated_tokens: int
    context_window: int
    #: Tokens left after the prompt *and* the reserved output; negative = over.
    budget_remaining: int
    #: Output tokens reserved for the reply (see :func:`preflight_check`).
    reserved_output: int
    #: ``budget_remaining / context_window``.
    headroom: float
    warning: str | None = None

    @property
    def max_input_tokens(self) -> int:
        """The largest prompt that would fit with the same reserve."""
        return self.context_window - self.reserved_output


def _default_capability(model: str, provider: str | None) -> Any:
    """The registry's capability, or its conservative default until it exists."""
    try:
        from .registry import get_model_capability
    except ImportError:
        return None
    return get_model_capability(model, provider)


def resolve_limits(
    model_or_provider: str | ProviderConfig,
    *,
    capability: ModelCapability | None = None,
) -> tuple[int, int]:
    """``(context_window, max_output_tokens)``: config overrides, then registry."""
    if isinstance(model_or_provider, ProviderConfig):
        config: ProviderConfig | None = model_or_provider
        model, provider = model_or_provider.model, model_or_provider.id
    else:
        config, model, provider = None, model_or_provider, None
    window = config.context_window if config else None
    max_output = config.max_output_tokens if config else None
    if window is None or max_output is None:
        if capability is None:
            capability = _default_capability(model, provider)
        if window is None:
            window = capability.context_window if capability else DEFAULT_CONTEXT_WINDOW
        if max_output is None:
            max_output = capability.max_output_tokens if capability else DEFAULT_MAX_OUTPUT_TOKENS
    return window, max_output


def preflight_check(
    model_or_provider: str | ProviderConfig,
    messages: Sequence[Message],
    tools: Sequence[ToolDefinition] | None = None,
    *,
    capability: ModelCapability | None = None,
    max_tokens: int | None = None,
    estimated_tokens: int | None = None,
) -> PreflightResult:
    """Will this request fit the model's context window?

    The window and output limit come from the :class:`ProviderConfig`'s
    overrides when set, else from ``capability``, else from the registry
    (imported lazily; its conservative 128000/4096 default when it is absent).

    **The reserve** is the output the request will actually ask for:
    ``max_tokens`` when given.  Providers check ``prompt + max_tokens`` against
    the window, not ``prompt + model maximum``: reserving a model's full 64k
    output on a 200k window would refuse 150k-token prompts the provider takes
    when the request asks for 4k.  Without ``max_tokens`` the reserve is the
    model's ``max_output_tokens`` capped at a quarter of the window.  A dialect
    that sends a larger ``max_tokens`` by default should pass it here.

    ``estimated_tokens`` skips the estimate when the caller already has it
    (e.g. from :func:`~wiggum.llm.budget.budget_messages`).
    """
    window, max_output = resolve_limits(model_or_provider, capability=capability)
    if max_tokens is not None:
        reserve = max(0, max_tokens)
    else:
        reserve = max(0, min(max_output, int(window * DEFAULT_RESERVE_MAX_SHARE)))
    estimated = estimate_tokens(messages, tools) if estimated_tokens is None else estimated_tokens
    remaining = window - estimated - reserve
    headroom = remaining / window if window > 0 else -1.0
    model = (
        model_or_provider.model
        if isinstance(model_or_provider, ProviderConfig)
        else model_or_provider
    )
    warning = None
    if remaining < 0:
        warning = (
            f"Request (~{estimated} tokens) + response reserve ({reserve}) exceeds "
            f"{model}'s context window ({window}). {-remaining} tokens over budget."
        )
    elif headroom < WARN_HEADROOM:
        warning = (
            f"Request is at {round((1 - headroom) * 100)}% of {model}'s context window "
            f"({window}) with {reserve} tokens reserved for the response. "
            "Response may be truncated."
        )
    return PreflightResult(
        ok=remaining >= 0,
        estimated_tokens=estimated,
        context_window=window,
        budget_remaining=remaining,
        reserved_output=reserve,
        headroom=headroom,
        warning=warning,
    )


def raise_for_preflight(
    result: PreflightResult,
    provider: str = "",
    model: str = "",
    *,
    log: logging.Logger | None = None,
) -> PreflightResult:
    """Log the result and raise :class:`ContextOverflowError` when it is not ok.

    Logs ``llm:context-overflow`` (error) before raising, or
    ``llm:context-pressure`` (warning) under 10% headroom; counts only.  The
    error's ``estimated_tokens`` is the prompt estimate; the reserve that tipped
    it over is on the error as ``reserved_output``.
    """
    log = log or logger
    data = {
        "provider": provider,
        "model": model,
        "estimated_tokens": result.estimated_tokens,
        "context_window": result.context_window,
        "reserved_output": result.reserved_output,
        "budget_remaining": result.budget_remaining,
        "headroom": f"{round(result.headroom * 100)}%",
    }
    if not result.ok:
        log.error("llm:context-overflow", extra={"llm": data})
        err = ContextOverflowError(result.estimated_tokens, result.context_window, provider, model)
        err.reserved_output = result.reserved_output  # type: ignore[attr-defined]
        raise err
    if result.warning:
        log.warning("llm:context-pressure", extra={"llm": data})
    return result


def check_or_raise(
    provider: ProviderConfig,
    messages: Sequence[Message],
    tools: Sequence[ToolDefinition] | None = None,
    *,
    capability: ModelCapability | None = None,
    max_tokens: int | None = None,
    log: logging.Logger | None = None,
) -> PreflightResult:
    """:func:`preflight_check` then :func:`raise_for_preflight`, for ``chat``/``stream``."""
    result = preflight_check(
        provider, messages, tools, capability=capability, max_tokens=max_tokens
    )
    return raise_for_preflight(result, provider.id, provider.model, log=log)
