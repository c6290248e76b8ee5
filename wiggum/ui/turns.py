"""One person turn = one Chief block: what the block sums up and says.

A turn is the person's message (with any note the page added) and every
reply and tool result that followed it, up to the next message: with tools,
one answer is several calls (rounds).  The chat view shows them as one block
with one usage line; these pure helpers give that line, the rounds' one-line
summary and the status the block shows.  They read records by attribute
(``ChatRecord`` or the first screen's ``StoredRecord``) and usage as a
``UsageData`` or its stored dict, so they run before pydantic has loaded.
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .format import USAGE_NOT_REPORTED, usage_line

__all__ = [
    "TOOL_VERBS",
    "AltNav",
    "alt_nav",
    "brief_args",
    "countdown",
    "plan_text",
    "redraw_from",
    "result_brief",
    "round_summary",
    "status_label",
    "trimmed_text",
    "turn_line",
    "turn_status",
    "turn_usage",
    "wait_text",
]


def _get(usage: Any, name: str) -> Any:
    if isinstance(usage, Mapping):
        return usage.get(name)
    return getattr(usage, name, None)


def turn_usage(usages: Iterable[Any]) -> dict[str, Any] | None:
    """The rounds' usage added up; ``None`` when no round reported any.

    The cost is known only when every round that reported usage priced it:
    a partial sum would look like the whole cost.
    """
    total: dict[str, Any] | None = None
    for usage in usages:
        if usage is None:
            continue
        if total is None:
            total = {"prompt_tokens": 0, "completion_tokens": 0, "total_tokens": 0, "cost": 0.0}
        prompt = int(_get(usage, "prompt_tokens") or 0)
        completion = int(_get(usage, "completion_tokens") or 0)
        total["prompt_tokens"] += prompt
        total["completion_tokens"] += completion
        total["total_tokens"] += int(_get(usage, "total_tokens") or (prompt + completion))
        cost = _get(usage, "cost")
        if cost is None or total["cost"] is None:
            total["cost"] = None
        else:
            total["cost"] += float(cost)
    return total


#: How a round's tool calls read in its one-line summary.
TOOL_VERBS = {
    "list_files": "listed files",
    "read_file": "read {path}",
    "search_skills": "looked up design notes",
    "write_plan": "saved the plan",
    "send_to_ralph": "handed the plan to Ralph",
    "check_ralph_status": "checked on Ralph",
}


def round_summary(calls: Sequence[Any]) -> str:
    """``Read index.html · saved the plan`` for a round's tool calls."""
    parts: list[str] = []
    for call in calls:
        name = str(getattr(call, "name", "") or "")
        args = getattr(call, "args", None)
        args = args if isinstance(args, Mapping) else {}
        verb = TOOL_VERBS.get(name, f"used {name}")
        if "{path}" in verb:
            path = str(args.get("path") or "").strip()
            verb = verb.replace("{path}", path) if path else "read a file"
        if verb not in parts:
            parts.append(verb)
    text = " · ".join(parts)
    return text[:1].upper() + text[1:]


def turn_status(statuses: Sequence[str]) -> str:
    """The block's status: the last round's (a turn is as done as its last call)."""
    return statuses[-1] if statuses else "complete"


#: What the block says of a turn that did not end well (a finished one says nothing).
STATUS_LABELS = {"stopped": "stopped", "interrupted": "interrupted", "error": "failed"}
#: Turns that ended with words to account for (a failed one shows its error instead).
ENDED = ("complete", "stopped", "interrupted")


def status_label(status: str, *, elsewhere: bool = False) -> str:
    """The block's status line; a turn streaming in another tab says so."""
    if status == "streaming" and elsewhere:
        return "writing in another tab"
    return STATUS_LABELS.get(status, "")


def turn_line(usages: Iterable[Any], status: str) -> str:
    """The block's usage line: the rounds added up; an ended turn without any says so."""
    return usage_line(turn_usage(usages), missing=USAGE_NOT_REPORTED if status in ENDED else "")


def brief_args(args: Any) -> str:
    """A tool call's first three arguments, each cut at 40 characters (its one line)."""
    if not isinstance(args, dict) or not args:
        return ""
    parts = []
    for key, value in args.items():
        text = " ".join(str(value).split())
        parts.append(f"{key}={text[:40] + '…' if len(text) > 40 else text}")
    return " " + ", ".join(parts[:3])


def result_brief(output: str) -> str:
    """A tool result on its call's line: on one line, cut at 70 characters."""
    brief = " ".join(output.split())
    return " → " + (brief if len(brief) <= 70 else brief[:69] + "…")


def plan_text(call: Any) -> str | None:
    """The plan a ``write_plan`` call wrote (shown under the reply), else ``None``."""
    args = getattr(call, "args", None)
    plan = args.get("content") if isinstance(args, Mapping) else None
    is_plan = getattr(call, "name", None) == "write_plan"
    return plan if is_plan and isinstance(plan, str) and plan.strip() else None


@dataclass(frozen=True, slots=True)
class AltNav:
    """``‹ 2/3 ›`` under a message with versions: the seq each arrow goes to (``""``: none)."""

    prev: str
    next: str
    label: str


def alt_nav(alts: Sequence[int], seq: int) -> AltNav | None:
    """The versions' switch for ``seq`` among ``alts``; ``None`` (hidden) without two."""
    if len(alts) < 2 or seq not in alts:
        return None
    i = alts.index(seq)
    prev = str(alts[i - 1]) if i > 0 else ""
    return AltNav(prev, str(alts[i + 1]) if i + 1 < len(alts) else "", f"{i + 1}/{len(alts)}")


def trimmed_text(count: int) -> str:
    """Said on a reply whose request left ``count`` earlier messages out."""
    noun = "message was" if count == 1 else "messages were"
    return f"{count} earlier {noun} left out to fit the model's context window."


def redraw_from(shown: Sequence[Any], records: Sequence[Any]) -> int | None:
    """Where a conversation read again must be drawn again from, as an index of
    ``records``; ``None`` when nothing changed.

    ``shown`` are the records the list shows.  The list is cut at a turn's
    start, the person's message (not a note, not superseded) before the first
    record that changed, since a turn's rounds join one block; ``0`` redraws
    it all.  The turns before it, and what the person opened or selected in
    them, stay as they are.
    """
    first = next(
        (i for i, (old, new) in enumerate(zip(shown, records, strict=False)) if old != new),
        min(len(shown), len(records)),
    )
    if first == len(shown) == len(records):
        return None
    for i in range(min(first, len(records)) - 1, -1, -1):
        r = records[i]
        if r.role == "user" and not r.note and not r.superseded:
            return i
    return 0


#: Why the client waits to try again, by the error's name: what happened, in
#: the person's words (a provider that answered with an error did answer).
_WAIT_WHY = {
    "RateLimitError": "The provider asked Chief to slow down",
    "ProviderError": "The provider answered with an error on its side",
    "StreamIncompleteError": "The provider's answer broke off",
    "NetworkError": "The provider could not be reached",
}


def wait_text(reason: str, seconds_left: int) -> str:
    """The countdown while the client waits to try again: why, and how long.

    ``reason`` is the error's name (:data:`_WAIT_WHY`; any other, such as a
    timeout: the provider did not answer)."""
    why = _WAIT_WHY.get(reason, "The provider did not answer")
    return f"{why}: trying again in {seconds_left} s…"


def countdown(remaining: float) -> tuple[int, float]:
    """The whole seconds the countdown shows with ``remaining`` seconds to go, and
    how long until it shows one less (at least 50 ms, at most a second)."""
    left = max(0, math.ceil(remaining))
    return left, min(1.0, max(0.05, remaining - (left - 1)))
