"""Google Gemini, through its OpenAI-compatible endpoint.

Usage leaves the model's thoughts out of ``completion_tokens`` (sometimes
with no ``reasoning_tokens`` at all): the OpenAI dialect bills the gap
between ``total_tokens`` and prompt plus completion as output.  It ends a
reply with tool calls with ``finish_reason: "stop"`` (the accumulator reads
that as a tool-call finish).
"""

from __future__ import annotations

from .base import Answers, Vendor

VENDOR = Vendor(
    id="gemini",
    base_url="https://generativelanguage.googleapis.com/v1beta/openai",
    key_url="https://aistudio.google.com/apikey",
    registry_id="google",
    answers=Answers(
        # Thought signatures: a tool call's ``extra_content`` must go back with it.
        call_extra="extra_content",
    ),
)
