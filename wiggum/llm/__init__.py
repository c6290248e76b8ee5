"""Wiggum's provider-normalizing LLM client.

Pure Python: it runs unchanged under CPython (with the httpx transport) and
in the browser under Pyodide (with the fetch transport ``wiggum.web``
installs).  Start with :func:`chat` and :func:`stream`.

Log records go to the ``wiggum.llm`` logger, which carries a
``NullHandler`` (the stdlib convention for libraries): with no logging
configured by the application, nothing reaches stderr through
``logging.lastResort``; configure a handler to see them.

Names load on first use (PEP 562): the page's first screen imports
``wiggum.llm.errors`` (to explain a stored error) without pulling in pydantic
and the client stack, which arrive after the first screen is shown.
"""

from __future__ import annotations

import logging as _logging
from typing import TYPE_CHECKING

from wiggum._lazy import lazy_names

if TYPE_CHECKING:
    from .abort import AbortController, AbortSignal
    from .accumulator import PartialReply, ResponseAccumulator
    from .budget import BudgetResult, TrimReport, budget_messages, with_trim_note
    from .client import StreamResult, chat, stream
    from .cost import accumulate_usage, calculate_cost, resolve_cost
    from .errors import (
        AbortError,
        AuthenticationError,
        ContentFilterError,
        ContextOverflowError,
        EmptyResponseError,
        LLMError,
        MalformedResponseError,
        MalformedToolCallError,
        NetworkError,
        NotFoundError,
        ProviderError,
        RateLimitError,
        RedirectError,
        RequestTimeoutError,
        StreamIdleError,
        StreamIncompleteError,
        StreamingUnsupportedError,
        TokenLimitError,
    )
    from .finish import compute_tool_call_signature, is_empty_response, normalize_finish_reason
    from .observability import FingersCrossedHandler, ListHandler, log_event
    from .partial_json import parse_partial_json
    from .preflight import PreflightResult, estimate_tokens, preflight_check
    from .prepare import capability_for
    from .proxy import apply_proxy
    from .registry import ModelCapability, ModelCost, get_model_capability, lookup_model
    from .repair import attempt_json_repair, parse_tool_arguments
    from .structured import parse_output
    from .types import (
        Citation,
        ContentDelta,
        ContentPart,
        ErrorDelta,
        FinishDelta,
        FinishReason,
        ImagePart,
        LLMResponse,
        Message,
        ParsedToolCall,
        ProviderConfig,
        ReasoningDelta,
        RequestOptions,
        StreamDelta,
        TextPart,
        ThinkingBlock,
        ToolCallArgsDelta,
        ToolCallEndDelta,
        ToolCallStartDelta,
        ToolDefinition,
        UsageData,
        UsageDelta,
    )
    from .validation import MalformedToolCall, ToolCallValidation, validate_tool_calls
    from .vendors import Vendor, vendor_for, web_search_supported

#: Public name -> the submodule that defines it.
_SOURCES = {
    "AbortController": "abort",
    "AbortError": "errors",
    "AbortSignal": "abort",
    "AuthenticationError": "errors",
    "BudgetResult": "budget",
    "Citation": "types",
    "ContentDelta": "types",
    "ContentFilterError": "errors",
    "ContentPart": "types",
    "ContextOverflowError": "errors",
    "EmptyResponseError": "errors",
    "ErrorDelta": "types",
    "FingersCrossedHandler": "observability",
    "FinishDelta": "types",
    "FinishReason": "types",
    "ImagePart": "types",
    "LLMError": "errors",
    "LLMResponse": "types",
    "LOGGER_NAME": "observability",
    "ListHandler": "observability",
    "MalformedResponseError": "errors",
    "MalformedToolCall": "validation",
    "MalformedToolCallError": "errors",
    "Message": "types",
    "ModelCapability": "registry",
    "ModelCost": "registry",
    "NetworkError": "errors",
    "NotFoundError": "errors",
    "ParsedToolCall": "types",
    "PartialReply": "accumulator",
    "PreflightResult": "preflight",
    "ProviderConfig": "types",
    "ProviderError": "errors",
    "RateLimitError": "errors",
    "RedirectError": "errors",
    "ReasoningDelta": "types",
    "RequestOptions": "types",
    "RequestTimeoutError": "errors",
    "ResponseAccumulator": "accumulator",
    "StreamDelta": "types",
    "StreamIdleError": "errors",
    "StreamIncompleteError": "errors",
    "StreamResult": "client",
    "StreamingUnsupportedError": "errors",
    "TextPart": "types",
    "ThinkingBlock": "types",
    "TokenLimitError": "errors",
    "ToolCallArgsDelta": "types",
    "ToolCallEndDelta": "types",
    "ToolCallStartDelta": "types",
    "ToolCallValidation": "validation",
    "ToolDefinition": "types",
    "TrimReport": "budget",
    "UsageData": "types",
    "UsageDelta": "types",
    "Vendor": "vendors",
    "accumulate_usage": "cost",
    "apply_proxy": "proxy",
    "attempt_json_repair": "repair",
    "budget_messages": "budget",
    "calculate_cost": "cost",
    "capability_for": "prepare",
    "chat": "client",
    "compute_tool_call_signature": "finish",
    "estimate_tokens": "preflight",
    "get_model_capability": "registry",
    "is_empty_response": "finish",
    "log_event": "observability",
    "lookup_model": "registry",
    "normalize_finish_reason": "finish",
    "parse_output": "structured",
    "parse_partial_json": "partial_json",
    "parse_tool_arguments": "repair",
    "preflight_check": "preflight",
    "resolve_cost": "cost",
    "stream": "client",
    "validate_tool_calls": "validation",
    "vendor_for": "vendors",
    "web_search_supported": "vendors",
    "with_trim_note": "budget",
}

_logging.getLogger("wiggum.llm").addHandler(_logging.NullHandler())


__getattr__, __dir__ = lazy_names(__name__, _SOURCES)


__all__ = [
    "AbortController",
    "AbortError",
    "AbortSignal",
    "AuthenticationError",
    "BudgetResult",
    "Citation",
    "ContentDelta",
    "ContentFilterError",
    "ContentPart",
    "ContextOverflowError",
    "EmptyResponseError",
    "ErrorDelta",
    "FingersCrossedHandler",
    "FinishDelta",
    "FinishReason",
    "ImagePart",
    "LLMError",
    "LLMResponse",
    "ListHandler",
    "MalformedResponseError",
    "MalformedToolCall",
    "MalformedToolCallError",
    "Message",
    "ModelCapability",
    "ModelCost",
    "NetworkError",
    "NotFoundError",
    "ParsedToolCall",
    "PartialReply",
    "PreflightResult",
    "ProviderConfig",
    "ProviderError",
    "RateLimitError",
    "ReasoningDelta",
    "RedirectError",
    "RequestOptions",
    "RequestTimeoutError",
    "ResponseAccumulator",
    "StreamDelta",
    "StreamIdleError",
    "StreamIncompleteError",
    "StreamResult",
    "StreamingUnsupportedError",
    "TextPart",
    "ThinkingBlock",
    "TokenLimitError",
    "ToolCallArgsDelta",
    "ToolCallEndDelta",
    "ToolCallStartDelta",
    "ToolCallValidation",
    "ToolDefinition",
    "TrimReport",
    "UsageData",
    "UsageDelta",
    "Vendor",
    "accumulate_usage",
    "apply_proxy",
    "attempt_json_repair",
    "budget_messages",
    "calculate_cost",
    "capability_for",
    "chat",
    "compute_tool_call_signature",
    "estimate_tokens",
    "get_model_capability",
    "is_empty_response",
    "log_event",
    "lookup_model",
    "normalize_finish_reason",
    "parse_output",
    "parse_partial_json",
    "parse_tool_arguments",
    "preflight_check",
    "resolve_cost",
    "stream",
    "validate_tool_calls",
    "vendor_for",
    "web_search_supported",
    "with_trim_note",
]
