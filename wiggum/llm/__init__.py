"""Wiggum's provider-normalizing LLM client.

Pure Python: it runs unchanged under CPython (with the httpx transport) and
in the browser under Pyodide (with the fetch transport ``wiggum.web``
installs).  Start with :func:`chat` and :func:`stream`.

Log records go to the ``wiggum.llm`` logger, which carries a
``NullHandler`` (the stdlib convention for libraries): with no logging
configured by the application, nothing reaches stderr through
``logging.lastResort``; configure a handler to see them.
"""

import logging as _logging

from .abort import AbortController, AbortSignal
from .accumulator import ResponseAccumulator
from .budget import BudgetResult, TrimReport, budget_messages, with_trim_note
from .client import StreamResult, capability_for, chat, stream
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
    RequestTimeoutError,
    StreamIncompleteError,
    StreamingUnsupportedError,
    TokenLimitError,
)
from .finish import compute_tool_call_signature, is_empty_response, normalize_finish_reason
from .observability import LOGGER_NAME, FingersCrossedHandler, ListHandler, log_event
from .preflight import PreflightResult, estimate_tokens, preflight_check
from .proxy import apply_proxy
from .registry import ModelCapability, ModelCost, get_model_capability, lookup_model
from .repair import attempt_json_repair, parse_partial_json, parse_tool_arguments
from .structured import parse_output
from .types import (
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

_logging.getLogger(LOGGER_NAME).addHandler(_logging.NullHandler())

__all__ = [
    "AbortController",
    "AbortError",
    "AbortSignal",
    "AuthenticationError",
    "BudgetResult",
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
    "PreflightResult",
    "ProviderConfig",
    "ProviderError",
    "RateLimitError",
    "ReasoningDelta",
    "RequestOptions",
    "RequestTimeoutError",
    "ResponseAccumulator",
    "StreamDelta",
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
    "with_trim_note",
]
