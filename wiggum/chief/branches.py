"""The conversation as a tree: regenerated answers and edited messages are branches.

Records stay in one list in ``seq`` order (that is how they are stored), and
each names its ``parent`` (``None`` in records written before branches: the
record before it).  The conversation shown and sent is one path from the
first record to a leaf; every record off that path is ``superseded``, so the
first screen and the history only need that one flag.  Regenerate adds a new
answer beside the old one (same parent); Edit adds a new message beside the
old one, and what followed the old one stays on its branch.  Switching to
another alternative moves the path to the newest leaf under it.

Pure functions over records read by attribute (``seq``, ``parent``,
``superseded``, ``role``, ``status``, ``content``, ``tool_calls``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

__all__ = [
    "alternatives",
    "editable",
    "last_turn_start",
    "leaf",
    "leaf_under",
    "parent_of",
    "path_to",
    "set_path",
]


def parent_of(record: Any) -> int:
    """The record this one follows (``-1``: the start of the conversation)."""
    parent = getattr(record, "parent", None)
    if parent is None or not -1 <= parent < record.seq:
        return record.seq - 1
    return parent


def leaf(records: Sequence[Any]) -> int:
    """The last record on the current path (``-1``: none yet): a new record's parent."""
    return next((r.seq for r in reversed(records) if not r.superseded), -1)


def last_turn_start(records: Sequence[Any]) -> int | None:
    """The person's message (or note) the current path's last answer follows:
    what Regenerate answers again."""
    return next((r.seq for r in reversed(records) if not r.superseded and r.role == "user"), None)


def editable(record: Any, text: str) -> bool:
    """Whether ``text`` may replace ``record``: only the person's own messages
    (not a note the page wrote), and not with nothing."""
    return record.role == "user" and not getattr(record, "note", False) and bool(text.strip())


def path_to(records: Sequence[Any], leaf: int) -> set[int]:
    """The seqs on the path from the start to ``leaf``."""
    by_seq = {r.seq: r for r in records}
    out: set[int] = set()
    seq = leaf
    while seq >= 0 and seq in by_seq and seq not in out:
        out.add(seq)
        seq = parent_of(by_seq[seq])
    return out


def _empty_failure(record: Any) -> bool:
    return (
        record.role == "assistant"
        and record.status in ("error", "stopped", "interrupted")
        and not (record.content or "").strip()
        and not record.tool_calls
    )


def alternatives(records: Sequence[Any], seq: int) -> list[int]:
    """The seqs of ``seq``'s alternatives (itself included, oldest first):
    records with the same parent and the same role.  A failed attempt with
    nothing in it is no alternative (Retry replaced it)."""
    by_seq = {r.seq: r for r in records}
    me = by_seq.get(seq)
    if me is None:
        return []
    parent = parent_of(me)
    return [
        r.seq
        for r in records
        if r.role == me.role
        and parent_of(r) == parent
        and (r.seq == seq or not _empty_failure(r))
        and not getattr(r, "note", False)
    ]


def leaf_under(records: Sequence[Any], seq: int) -> int:
    """The newest record in the subtree under ``seq`` (``seq`` itself if none)."""
    under = {seq}
    leaf = seq
    for r in records:  # seq order: a parent comes before its children
        if r.seq > seq and parent_of(r) in under:
            under.add(r.seq)
            leaf = max(leaf, r.seq)
    return leaf


def set_path(records: Sequence[Any], leaf: int) -> list[Any]:
    """Mark every record off the path to ``leaf`` superseded (and those on it
    not); returns the records whose flag changed (to be saved)."""
    on = path_to(records, leaf)
    changed = []
    for r in records:
        off = r.seq not in on
        if bool(r.superseded) != off:
            r.superseded = off
            changed.append(r)
    return changed
