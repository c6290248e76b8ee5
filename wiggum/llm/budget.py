"""Deterministic conversation trimming to a token budget.

:func:`budget_messages` keeps the protected messages (the system prompt), the
latest user message and the most recent messages, and drops the oldest of the
rest until the estimate fits.  It is the seed's algorithm in linear time:
every message is estimated once (:func:`~.preflight.estimate_message_tokens`),
and the cut is found with a running sum instead of re-estimating the whole
candidate list after each drop (the seed's loop is O(n²)).

**Eviction bundles.**  An assistant message with ``tool_calls`` and the
``tool`` messages answering it are one unit: kept or dropped together
(providers reject a tool result whose call is gone, and a call without its
result).  The recent window is widened backwards so that it does not split a
unit, and a unit holding a protected message is protected whole.  An input
``tool`` message that answers no earlier call (already an orphan) is its own
unit; it is dropped rather than left first in the kept history after a cut.

**Failure mode.**  When everything droppable is gone and the estimate is
still over, the result says ``over_budget`` and is sent anyway:
the preflight in ``chat``/``stream`` decides whether the request can go.
Nothing here raises for budget reasons.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

from .preflight import estimate_message_tokens, estimate_tools_tokens
from .types import Message, ToolDefinition

__all__ = [
    "BudgetResult",
    "EvictionRecord",
    "TrimReport",
    "budget_messages",
    "trim_note",
    "with_trim_note",
]

logger = logging.getLogger("wiggum.llm")

#: Why a message was dropped.
REASON_OLDEST_FIRST = "oldest_first"
#: Dropped with the rest of its tool-call bundle.
REASON_BUNDLE = "bundle"
#: A tool message that answered no call in the input, left first after the cut.
REASON_ORPHAN = "orphan_tool"


@dataclass(slots=True, frozen=True)
class EvictionRecord:
    #: Index in the input list.
    index: int
    role: str
    tokens: int
    reason: str


@dataclass(slots=True, frozen=True)
class TrimReport:
    initial_tokens: int
    final_tokens: int
    #: ``max_input_tokens`` as given.
    budget: int
    evicted: tuple[EvictionRecord, ...] = ()

    @property
    def eviction_count(self) -> int:
        return len(self.evicted)

    @property
    def evicted_tokens(self) -> int:
        return sum(r.tokens for r in self.evicted)


@dataclass(slots=True, frozen=True)
class BudgetResult:
    #: The kept messages in their original order (the input list itself when
    #: nothing was dropped).
    messages: list[Message]
    #: How many messages were dropped.
    trimmed: int
    #: Estimate of ``messages`` plus the tools.
    estimated_tokens: int
    report: TrimReport
    #: Still over the budget after dropping everything droppable.
    over_budget: bool = False
    #: Input indices of ``messages``.
    kept_indices: tuple[int, ...] = field(default=(), repr=False)


def trim_note(trimmed: int) -> Message:
    """The system note telling the model that history was trimmed."""
    noun = "message" if trimmed == 1 else "messages"
    return Message.system(f"[{trimmed} earlier {noun} trimmed for context budget]")


#: Tokens kept free for :func:`with_trim_note` when trimming (seven digits).
_NOTE_TOKENS = estimate_message_tokens(trim_note(1_000_000))


def _normalize(indices: Iterable[int], n: int) -> set[int]:
    out = set()
    for i in indices:
        j = i + n if i < 0 else i
        if 0 <= j < n:
            out.add(j)
    return out


def budget_messages(
    messages: Sequence[Message],
    max_input_tokens: int,
    *,
    protected_indices: Iterable[int] = (0,),
    min_recent_messages: int = 4,
    tools: Sequence[ToolDefinition] | None = None,
    reserve_note: bool = True,
    log: logging.Logger | None = None,
) -> BudgetResult:
    """Drop the oldest unprotected messages until the estimate fits ``max_input_tokens``.

    ``max_input_tokens`` is the prompt budget: context window minus the output
    reserve (:attr:`~.preflight.PreflightResult.max_input_tokens`).  Always
    kept: ``protected_indices`` (negative indices count from the end), the
    latest user message, and the last ``min_recent_messages`` messages, each
    widened to its whole tool-call bundle.  ``tools`` count against the budget.

    With ``reserve_note`` (default), a trim leaves room for the
    :func:`with_trim_note` system note (trims as if the budget were smaller by
    the note), so that the noted list fits too, unless nothing was left to drop.
    ``over_budget`` is about ``messages`` against ``max_input_tokens`` alone.

    Logs ``llm:budget-trim`` (info, counts only) when anything is dropped.
    """
    msgs = messages if isinstance(messages, list) else list(messages)
    n = len(msgs)
    tokens = [estimate_message_tokens(m) for m in msgs]
    tool_tokens = estimate_tools_tokens(tools)
    initial = sum(tokens) + tool_tokens

    if initial <= max_input_tokens:
        return BudgetResult(
            messages=msgs,
            trimmed=0,
            estimated_tokens=initial,
            report=TrimReport(initial, initial, max_input_tokens),
            kept_indices=tuple(range(n)),
        )

    # unit[i]: the index of the first message of i's bundle (itself unless i
    # is a tool result answering an earlier assistant call).
    unit = list(range(n))
    call_owner: dict[str, int] = {}
    last_user = -1
    for i, m in enumerate(msgs):
        role = m.role
        if role == "tool":
            owner = call_owner.get(m.tool_call_id or "")
            if owner is not None:
                unit[i] = owner
        elif role == "user":
            last_user = i
        elif role == "assistant" and m.tool_calls:
            for call in m.tool_calls:
                call_owner[call.id] = i  # ids reused across turns: latest wins

    # Units never to drop: protected, the latest user message, the recent window.
    keep_units = {unit[i] for i in _normalize(protected_indices, n)}
    if last_user >= 0:
        keep_units.add(unit[last_user])
    recent_start = max(0, n - max(0, min_recent_messages))
    j = n - 1
    while j >= recent_start:  # widen the window to whole units
        if unit[j] < recent_start:
            recent_start = unit[j]
        j -= 1

    unit_tokens = [0] * n
    unit_size = [0] * n
    for i in range(n):
        u = unit[i]
        unit_tokens[u] += tokens[i]
        unit_size[u] += 1

    # The cut: drop droppable units, oldest first, until the running sum fits.
    target = max_input_tokens - (_NOTE_TOKENS if reserve_note else 0)
    need = initial - target
    dropped_units: list[int] = []
    dropped_set: set[int] = set()
    freed = 0
    h = 0
    while h < recent_start and freed < need:
        if unit[h] == h and h not in keep_units:
            dropped_units.append(h)
            dropped_set.add(h)
            freed += unit_tokens[h]
        h += 1
    # Don't leave an input orphan tool message first after the cut.
    if dropped_units:
        while h < recent_start:
            if unit[h] != h and unit[h] in dropped_set:
                h += 1  # the rest of a dropped bundle
                continue
            if unit[h] != h or h in keep_units or msgs[h].role != "tool":
                break
            dropped_units.append(h)
            dropped_set.add(h)
            freed += unit_tokens[h]
            h += 1

    if not dropped_units:
        final = initial
        return BudgetResult(
            messages=msgs,
            trimmed=0,
            estimated_tokens=final,
            report=TrimReport(initial, final, max_input_tokens),
            over_budget=final > max_input_tokens,
            kept_indices=tuple(range(n)),
        )

    kept: list[Message] = []
    kept_idx: list[int] = []
    records: list[EvictionRecord] = []
    for i, m in enumerate(msgs):
        u = unit[i]
        if u in dropped_set:
            if unit_size[u] > 1:
                reason = REASON_BUNDLE
            elif m.role == "tool":  # a tool unit of one answers no call
                reason = REASON_ORPHAN
            else:
                reason = REASON_OLDEST_FIRST
            records.append(EvictionRecord(i, m.role, tokens[i], reason))
        else:
            kept.append(m)
            kept_idx.append(i)

    final = initial - freed
    report = TrimReport(initial, final, max_input_tokens, tuple(records))
    result = BudgetResult(
        messages=kept,
        trimmed=len(records),
        estimated_tokens=final,
        report=report,
        over_budget=final > max_input_tokens,
        kept_indices=tuple(kept_idx),
    )
    (log or logger).info(
        "llm:budget-trim",
        extra={
            "llm": {
                "message_count": n,
                "kept_count": len(kept),
                "trimmed": result.trimmed,
                "bundles_evicted": sum(1 for u in dropped_units if unit_size[u] > 1),
                "initial_tokens": initial,
                "final_tokens": final,
                "budget": max_input_tokens,
                "over_budget": result.over_budget,
            }
        },
    )
    return result


def with_trim_note(result: BudgetResult) -> list[Message]:
    """``result.messages`` with :func:`trim_note` after the leading system messages.

    A new list; unchanged content when nothing was trimmed.  The note is a
    system message placed right after the leading system messages because
    Anthropic only takes system text at the start (its dialect merges the
    leading system messages into ``system``).
    """
    out = list(result.messages)
    if result.trimmed <= 0:
        return out
    k = 0
    while k < len(out) and out[k].role == "system":
        k += 1
    out.insert(k, trim_note(result.trimmed))
    return out
