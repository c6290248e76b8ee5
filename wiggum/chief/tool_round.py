"""One round of Chief's tool calls: what each returns, and what the page says meanwhile.

A reply that calls tools has each call run in order
(:meth:`wiggum.chief.chat.ChiefChat` does the loop), and each call's outcome
becomes one ``tool`` record for the model's next request.  The toolbox
(:class:`~wiggum.chief.tools.ChiefToolbox`, or a test's) answers every call
with a :class:`ToolOutcome`; :func:`run_call` makes sure a toolbox that
raises still answers (the model reads an error, the turn goes on).

:data:`ACTIVITY` is what the page says while a tool runs.  Pure.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from typing import Any, NamedTuple, Protocol

from wiggum.llm import ParsedToolCall, ToolDefinition

from .records import ChatRecord

__all__ = [
    "ACTIVITY",
    "HANDOFF_TOOL",
    "ToolOutcome",
    "Toolbox",
    "UiEvent",
    "activity_for",
    "hands_off",
    "run_call",
    "tool_record",
]

logger = logging.getLogger("wiggum.chief")

#: What a tool asks the page to do, e.g. ``{"type": "handoff"}`` shows Ralph's tab.
UiEvent = dict[str, Any]

#: The tool that hands the plan to Ralph, who starts calling the provider at once.
HANDOFF_TOOL = "send_to_ralph"

#: What the page says while Chief's tools run.
ACTIVITY = {
    "list_files": "Chief is reading files…",
    "read_file": "Chief is reading files…",
    "search_skills": "Chief is looking up design notes…",
    "write_plan": "Chief is saving the plan…",
    HANDOFF_TOOL: "Chief is handing the plan to Ralph…",
    "check_ralph_status": "Chief is checking on Ralph…",
}


def activity_for(name: str) -> str:
    return ACTIVITY.get(name, f"Chief is using {name}…")


class ToolOutcome(NamedTuple):
    """What one tool call gave back.

    A named tuple, so ``text, is_error, event = await toolbox.dispatch(call)``
    reads as it always did."""

    #: The result as the model reads it (long outputs already cut to fit).
    text: str
    #: The call failed (bad arguments, a refused write): the model is told so.
    is_error: bool = False
    #: What the page should do about it (``None``: nothing).
    ui_event: UiEvent | None = None


class Toolbox(Protocol):
    """Chief's tools as the chat uses them."""

    def definitions(self) -> list[ToolDefinition]: ...

    async def dispatch(self, call: ParsedToolCall) -> ToolOutcome: ...


def hands_off(calls: Sequence[ParsedToolCall]) -> bool:
    """One of ``calls`` hands the plan to Ralph (Chief reserves the provider first)."""
    return any(call.name == HANDOFF_TOOL for call in calls)


async def run_call(toolbox: Toolbox, call: ParsedToolCall) -> ToolOutcome:
    """``toolbox.dispatch(call)``, which never raises: a toolbox bug must not lose the turn."""
    try:
        return await toolbox.dispatch(call)
    except Exception as err:
        logger.exception("chief: tool %s failed", call.name)
        return ToolOutcome(f"Error: {type(err).__name__}", is_error=True)


def tool_record(seq: int, call: ParsedToolCall, outcome: ToolOutcome) -> ChatRecord:
    """The ``tool`` record that answers ``call`` in the conversation."""
    return ChatRecord(
        seq=seq,
        role="tool",
        content=outcome.text,
        tool_call_id=call.id,
        name=call.name,
        is_error=outcome.is_error,
    )
