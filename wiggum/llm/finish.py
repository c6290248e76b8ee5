"""Finish reasons, tool-call signatures and response classification helpers."""

from __future__ import annotations

import hashlib
import json

from .types import FinishReason, LLMResponse, ParsedToolCall

_FINISH = {
    "stop": FinishReason.STOP,
    "end_turn": FinishReason.STOP,
    "stop_sequence": FinishReason.STOP,
    "eos": FinishReason.STOP,
    "eos_token": FinishReason.STOP,
    "end": FinishReason.STOP,
    "finished": FinishReason.STOP,
    "pause_turn": FinishReason.STOP,
    "tool_calls": FinishReason.TOOL_CALLS,
    "tool_call": FinishReason.TOOL_CALLS,
    "tool_use": FinishReason.TOOL_CALLS,
    "function_call": FinishReason.TOOL_CALLS,
    "length": FinishReason.LENGTH,
    "max_tokens": FinishReason.LENGTH,
    "max_output_tokens": FinishReason.LENGTH,
    "model_length": FinishReason.LENGTH,
    "model_context_window_exceeded": FinishReason.LENGTH,
    "content_filter": FinishReason.CONTENT_FILTER,
    "refusal": FinishReason.CONTENT_FILTER,
    "safety": FinishReason.CONTENT_FILTER,
    "recitation": FinishReason.CONTENT_FILTER,
    "prohibited_content": FinishReason.CONTENT_FILTER,
    "blocklist": FinishReason.CONTENT_FILTER,
    "spii": FinishReason.CONTENT_FILTER,
    "error": FinishReason.ERROR,
}


def normalize_finish_reason(raw: str | None) -> FinishReason:
    """Map any provider's stop reason onto the six canonical values."""
    if not raw or not isinstance(raw, str):
        return FinishReason.UNKNOWN
    return _FINISH.get(raw.strip().lower(), FinishReason.UNKNOWN)


def compute_tool_call_signature(tool_calls: list[ParsedToolCall]) -> str | None:
    """A deterministic fingerprint of the calls' names and arguments (stall detection).

    Order of calls and of keys inside the arguments does not matter; ids do
    not count, since they differ on every turn.
    """
    if not tool_calls:
        return None
    parts = sorted(
        f"{tc.name}:{json.dumps(tc.args, sort_keys=True, ensure_ascii=False, default=str)}"
        for tc in tool_calls
    )
    return hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]


def is_empty_response(response: LLMResponse) -> bool:
    has_reasoning = bool(response.reasoning and response.reasoning.strip())
    return not response.content.strip() and not has_reasoning and not response.tool_calls
