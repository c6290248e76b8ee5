"""What one of Chief's calls sends: the history, trimmed to fit, and its options.

The history is the system prompt and the conversation's current path
(:func:`~wiggum.chief.records.records_to_messages`).  A long conversation is
trimmed to the model's context budget, oldest first, never the system prompt
or the last two turns, with a note to the model saying what was left out; the
budget counts the tool definitions the call sends and reserves the same room
for the reply as ``stream()``'s preflight, so a trimmed history passes it.

Pure: tested under CPython.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Sequence
from typing import Any

from wiggum.llm import (
    AbortSignal,
    Message,
    ProviderConfig,
    RequestOptions,
    ToolDefinition,
    budget_messages,
    capability_for,
    with_trim_note,
)
from wiggum.llm.budget import BudgetResult
from wiggum.llm.client import DEFAULT_REPLY_BUDGET

from .records import ChatRecord, records_to_messages

__all__ = ["MIN_RECENT_MESSAGES", "call_options", "history", "prepare"]

#: Messages at the end of the history never trimmed: the last two turns.
MIN_RECENT_MESSAGES = 4


def history(system_prompt: str, records: Sequence[ChatRecord]) -> list[Message]:
    """System prompt + the conversation as messages (before budgeting)."""
    messages = [Message.system(system_prompt)] if system_prompt else []
    return messages + records_to_messages(records)


def prepare(
    system_prompt: str,
    records: Sequence[ChatRecord],
    provider: ProviderConfig,
    tools: Sequence[ToolDefinition] | None = None,
    max_tokens: int | None = None,
) -> tuple[list[Message], BudgetResult]:
    """The messages to send and how they were budgeted (see the module's docstring).

    The reply reserve is ``max_tokens``, else the model's output limit capped
    at ``DEFAULT_REPLY_BUDGET``."""
    cap = capability_for(provider)
    reserve = max_tokens or min(cap.max_output_tokens, DEFAULT_REPLY_BUDGET)
    budget = max(1, cap.context_window - reserve)
    result = budget_messages(
        history(system_prompt, records),
        budget,
        protected_indices=(0,) if system_prompt else (),
        min_recent_messages=MIN_RECENT_MESSAGES,
        tools=tools,
    )
    return with_trim_note(result), result


def call_options(
    options: RequestOptions | None,
    *,
    signal: AbortSignal,
    proxy_template: str | None,
    tools: list[ToolDefinition] | None,
    use_tools: bool,
    sleep: Callable[[float], Any] | None,
    on_retry: Callable[[float, Any], Any],
) -> RequestOptions:
    """The options of one call: the caller's ``options`` (copied, never changed)
    with this turn's abort signal, proxy and tools.

    ``use_tools=False`` still declares the tools (the history has calls, and
    providers reject calls to undeclared tools) but forbids new calls: the
    answer is in words.  The caller's own ``sleep`` and ``on_retry`` win."""
    opts = dataclasses.replace(options) if options is not None else RequestOptions()
    opts.signal = signal
    opts.proxy_template = proxy_template
    if tools is not None:
        opts.tools = tools
        if not use_tools:
            opts.tool_choice = "none"
    if sleep is not None and opts.sleep is None:
        opts.sleep = sleep
    if opts.on_retry is None:
        opts.on_retry = on_retry
    return opts
