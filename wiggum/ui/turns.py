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

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

__all__ = [
    "TOOL_VERBS",
    "redraw_from",
    "round_summary",
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


def wait_text(reason: str, seconds_left: int) -> str:
    """The countdown while the client waits to try again: why, and how long.

    ``reason`` is the error's name (``RateLimitError``: the provider asked to
    slow down; anything else: it did not answer)."""
    why = (
        "The provider asked Chief to slow down"
        if reason == "RateLimitError"
        else "The provider did not answer"
    )
    return f"{why}: trying again in {seconds_left} s…"
