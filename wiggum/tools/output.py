"""What the model sees of a tool's output.

The tool's full output stays with the app; the model gets at most
``MAX_LINES`` lines and ``MAX_BYTES`` UTF-8 bytes: the first 60% and the last
40% of the budget with a marker between, and a pointer to the full text saved
under ``.ralph/tmp/`` so it can grep or page through it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from wiggum.fs import FileStore, FileStoreError, PathError, join_path
from wiggum.fs.sizes import format_size

__all__ = [
    "MAX_BYTES",
    "MAX_LINES",
    "Truncation",
    "to_model_output",
    "truncate_output",
]

MAX_BYTES = 50 * 1024
MAX_LINES = 2000
HEAD_SHARE = 0.6
# Bytes kept free for the omission marker and the pointer to the saved file.
_RESERVED = 512


@dataclass(frozen=True, slots=True)
class Truncation:
    text: str
    truncated: bool
    total_lines: int
    total_bytes: int


def _count_lines(text: str) -> int:
    # "a\nb\n" is two lines, as wc -l and an editor would say, not three.
    if not text:
        return 0
    return text.count("\n") + (0 if text.endswith("\n") else 1)


def _cut_head(text: str, limit: int) -> str:
    """A prefix within ``limit`` UTF-8 bytes, ending at a line break when one is near."""
    cut = text.encode("utf-8")[:limit].decode("utf-8", errors="ignore")
    if len(cut) < len(text):
        newline = cut.rfind("\n")
        if newline > len(cut) // 2:
            cut = cut[:newline]
    return cut


def _cut_tail(text: str, limit: int) -> str:
    """A suffix within ``limit`` UTF-8 bytes, starting after a line break when one is near."""
    if limit <= 0:
        return ""
    cut = text.encode("utf-8")[-limit:].decode("utf-8", errors="ignore")
    if len(cut) < len(text):
        newline = cut.find("\n")
        if 0 <= newline < len(cut) // 2:
            cut = cut[newline + 1 :]
    return cut


def _line_count(text: str) -> int:
    return text.count("\n") + 1 if text else 0


def truncate_output(
    text: str, *, max_lines: int = MAX_LINES, max_bytes: int = MAX_BYTES
) -> Truncation:
    """Keep head 60% + tail 40% of the line budget, then of the byte budget.  Pure."""
    total_bytes = len(text.encode("utf-8"))
    total_lines = _count_lines(text)
    if total_lines <= max_lines and total_bytes <= max_bytes:
        return Truncation(text, False, total_lines, total_bytes)

    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()
    whole = len(lines) <= max_lines
    if not whole:
        head_n = int(max_lines * HEAD_SHARE)
        tail_n = max_lines - head_n
        head_text = "\n".join(lines[:head_n])
        tail_text = "\n".join(lines[len(lines) - tail_n :]) if tail_n else ""
    else:
        # Few but long lines: the byte budget alone decides, over the whole text.
        head_text = tail_text = "\n".join(lines)

    # Room for the marker and the pointer the caller appends.
    budget = max(max_bytes - _RESERVED, 0)
    byte_cut = whole or len(head_text.encode("utf-8")) + len(tail_text.encode("utf-8")) > budget
    if byte_cut:
        head_budget = int(budget * HEAD_SHARE)
        head_text = _cut_head(head_text, head_budget)
        tail_text = _cut_tail(tail_text, budget - head_budget)
    omitted_lines = max(total_lines - _line_count(head_text) - _line_count(tail_text), 0)
    if byte_cut:
        kept = len(head_text.encode("utf-8")) + len(tail_text.encode("utf-8"))
        omitted_size = format_size(max(total_bytes - kept, 0))
        marker = f"... [{omitted_lines} lines omitted, {omitted_size} cut] ..."
    else:
        marker = f"... [{omitted_lines} lines omitted] ..."
    return Truncation(f"{head_text}\n\n{marker}\n\n{tail_text}", True, total_lines, total_bytes)


_UNSAFE = re.compile(r"[^A-Za-z0-9_.-]+")


async def _next_free_path(fs: FileStore, tmp_dir: str, tool_name: str) -> str:
    """``<tmp>/<tool>-<n>.txt`` with ``n`` one past the highest already there.

    Derived from the store rather than a counter, so nothing is kept between
    calls and a reloaded page continues the numbering.
    """
    stem = _UNSAFE.sub("_", tool_name) or "tool"
    pattern = re.compile(rf"{re.escape(stem)}-(\d+)\.txt")
    highest = 0
    try:
        for path in await fs.list(tmp_dir, recursive=False):
            m = pattern.fullmatch(path.rpartition("/")[2])
            if m:
                highest = max(highest, int(m.group(1)))
    except FileStoreError:
        pass
    return join_path(tmp_dir, f"{stem}-{highest + 1}.txt")


async def to_model_output(result: str, tool_name: str, ctx) -> str:
    """``result`` as the model should see it; saves the full text when truncated.

    ``ctx`` is a ``ToolContext`` (``fs``, ``tmp_dir``, ``logger``).
    """
    cut = truncate_output(result)
    if not cut.truncated:
        return result
    size = format_size(cut.total_bytes)
    try:
        saved = await _next_free_path(ctx.fs, ctx.tmp_dir, tool_name)
        await ctx.fs.write_text(saved, result)
    except (FileStoreError, PathError) as err:
        ctx.logger.warning("could not save full output of %s: %s", tool_name, err)
        return (
            f"{cut.text}\n\n[Output truncated — {cut.total_lines} lines, {size}. "
            "The full output could not be saved; narrow the command instead.]"
        )
    return (
        f"{cut.text}\n\n[Output truncated — {cut.total_lines} lines, {size}. "
        f"Full output saved to: {saved}\n"
        "Use grep to search it or head/tail to view sections.]"
    )
