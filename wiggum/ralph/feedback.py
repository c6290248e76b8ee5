"""The words the loop leaves in ``.ralph/feedback.md`` for the next iteration.

Feedback is what a fresh context learns about the last one's failures, so
every message says what failed, where, and what to do about it.  A gate that
fails a second time gets the auto-patch treatment: the exact files and lines
again, a concrete instruction per problem, and gate-specific hints.
"""

from __future__ import annotations

from collections.abc import Sequence

from .gates import MAX_LISTED
from .types import GateIssue, GateResult

__all__ = [
    "autopatch_feedback",
    "budget_feedback",
    "completion_feedback",
    "empty_feedback",
    "gate_feedback",
    "malformed_feedback",
    "site_feedback",
    "stall_feedback",
]

#: Cheap, deterministic advice per gate for the auto-patch step.
_GATE_HINTS = {
    "entry_page": (
        "Create index.html at the project root (write_file path='index.html'): the preview "
        "opens it. If the main page has another name, rename it with `mv page.html index.html` "
        "and fix links to it."
    ),
    "html_parses": (
        "Open each file around the line shown (read_file with offset and line_numbers=true), "
        "find the element that is left open or closed twice, and fix it with edit_file. Count "
        "opening and closing tags of that element in the whole file (grep -n '<div' file)."
    ),
    "local_refs": (
        "Paths are relative to the file that contains them ('../' goes up one folder). For "
        "each missing target either create the file or change the reference to an existing "
        "one; `ls -R` (or list_files) shows what exists."
    ),
    "js_syntax": (
        "Read the file around the line shown (read_file with offset and line_numbers=true). "
        "Usual causes: an unbalanced bracket or brace, a missing comma in an object literal, "
        "a stray character, HTML pasted into a .js file. Rewrite the broken function whole "
        "if a small edit does not fix it."
    ),
    "preview_loads": (
        "The page throws when it loads. Guard DOM lookups (the element may not exist yet: "
        "load scripts at the end of <body> or with defer) and check every name is defined "
        "before use."
    ),
    "stall": (
        "You repeated the very same tool calls. Do something different: read a different "
        "file, write the change you were about to check, or take the next item of the plan."
    ),
}


def _issue_line(issue: GateIssue, *, with_hint: bool) -> str:
    where = f"{issue.path} line {issue.line}" if issue.line else issue.path
    text = f"- {where}: {issue.message}"
    if with_hint and issue.hint:
        text += f" -> {issue.hint}"
    return text


def gate_feedback(failed: Sequence[GateResult], counts: dict[str, int]) -> str:
    """Feedback for the failed gates: plain the first time, auto-patch after that."""
    parts = [
        "# Checks failed after you reported completion",
        "Fix these before anything else, then reply with the completion JSON again.",
    ]
    for result in failed:
        if counts.get(result.gate, 0) >= 2:
            parts.append(autopatch_feedback(result, counts[result.gate]))
        else:
            parts.append(f"## {result.gate}\n{result.message}")
    return "\n\n".join(parts) + "\n"


def autopatch_feedback(result: GateResult, count: int) -> str:
    lines = [
        f"## AUTO-PATCH: the {result.gate} check has failed {count} times",
        "Your previous fix did not work. Do exactly this, one item at a time, and re-read "
        "each file after changing it:",
    ]
    if result.issues:
        lines += [_issue_line(i, with_hint=True) for i in result.issues[:MAX_LISTED]]
        if len(result.issues) > MAX_LISTED:
            lines.append(f"- ... and {len(result.issues) - MAX_LISTED} more of the same kind")
    elif result.message:
        lines.append(result.message)
    hint = _GATE_HINTS.get(result.gate)
    if hint:
        lines.append(f"How: {hint}")
    return "\n".join(lines)


def stall_feedback(count: int, failures: int) -> str:
    text = (
        f"# Stall detected\nYou made identical tool calls {count} times in a row, so the loop "
        f"ended that iteration. {_GATE_HINTS['stall']}\n"
    )
    if failures >= 2:
        text += (
            f"\nAUTO-PATCH: this is stall number {failures}. Before any tool call, write in "
            ".ralph/progress.md what you were trying to achieve and why it did not work, then "
            "take a different approach.\n"
        )
    return text


def empty_feedback() -> str:
    return (
        "# Empty reply\nYour previous reply was empty (no text, no tool call). Read the task "
        "and progress, then either call a tool or reply with the completion JSON.\n"
    )


def malformed_feedback(messages: Sequence[str]) -> str:
    listed = "\n".join(f"- {m}" for m in messages[:5])
    return (
        "# Broken tool calls\nAll the tool calls of one of your replies were malformed, so none "
        f"of them ran:\n{listed}\nSend complete JSON arguments; write large files in parts.\n"
    )


def budget_feedback(limit: int) -> str:
    return (
        f"# Tool-call budget spent\nThe last iteration used all of its {limit} tool calls. "
        "Take smaller steps, and update .ralph/progress.md early so the next iteration knows "
        "where you are.\n"
    )


def completion_feedback(error: str | None) -> str:
    why = f" ({error})" if error else ""
    return (
        "# Completion report unreadable\nYou ended the iteration without a tool call, but "
        f"the completion report could not be read{why}. When everything is built, reply "
        'with only the JSON object {"status": "complete", "summary": "...", '
        '"files_created": [...], "files_modified": [...], "key_decisions": [...]}.\n'
    )


def site_feedback(failed: Sequence[GateResult]) -> str:
    """What the site checks found after the iteration ("" when nothing)."""
    if not failed:
        return ""
    parts = [
        "# Site checks after your last iteration",
        "The preview loaded the site and checked it. Fix what concerns the pages you built "
        "(file and line are given), then go on with the plan.",
    ]
    parts += [f"## {result.gate}\n{result.message}" for result in failed]
    return "\n\n".join(parts) + "\n"
