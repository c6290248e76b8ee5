"""What **Fix** and **Ask Chief** send about a problem the preview found.

A problem is an error from the preview's console or an issue from its checks.
**Fix** starts a one-off task for Ralph that carries all he needs with no
conversation behind it: the problem, where it is (file and line), its stack,
the file around that line, and what the console said just before.  **Ask
Chief** puts a question in Chief's message box for the person to send (or
change): the problem and where it is, nothing more.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

from wiggum.preview.console import ConsoleEntry, Finding
from wiggum.ralph.types import GateIssue
from wiggum.ui.markup.checks import LABELS

__all__ = [
    "Problem",
    "ProblemActions",
    "ProblemDesk",
    "ask_chief_text",
    "check_problem",
    "console_problem",
    "excerpt",
    "fix_task",
]

#: Lines shown either side of the problem's line.
AROUND = 8
#: Longest line of an excerpt.
_MAX_LINE = 240


@dataclass(slots=True)
class Problem(Finding):
    """One thing to fix: what it is (``what``), where, and what came with it."""

    #: "An error in the preview's console", "A site check (alt)".
    what: str = "A problem in the preview"
    #: What to do about it, when the check knows ("give the image an alt text").
    hint: str = ""

    @property
    def where(self) -> str:
        return self.place(" line ")


#: What each kind of console entry is, as a problem.
_CONSOLE_WHAT = {
    "error": "An uncaught error in the preview",
    "rejection": "An unhandled promise rejection in the preview",
    "console": "The site's console",
    "resource": "A file the page could not load in the preview",
    "csp": "A Content-Security-Policy violation in the preview",
}


def console_problem(entry: ConsoleEntry) -> Problem:
    """The problem an entry of the preview's console is."""
    what = _CONSOLE_WHAT[entry.kind]
    return Problem(entry.text, entry.file, entry.line, entry.stack, what=what)


def check_problem(check: str, issue: GateIssue) -> Problem:
    """The problem an issue of the site check ``check`` is."""
    what = f"A site check ({LABELS.get(check, check)})"
    return Problem(issue.message, issue.path, issue.line or 0, what=what, hint=issue.hint)


def excerpt(text: str, line: int, around: int = AROUND) -> str:
    """The lines of ``text`` around ``line`` (1-based), numbered, ``>`` marking it."""
    rows = text.splitlines()
    if not rows:
        return ""
    if line <= 0:
        first, last = 0, min(len(rows), 2 * around + 1)
    else:
        first, last = max(0, line - 1 - around), min(len(rows), line + around)
    width = len(str(last))
    out = []
    for n in range(first, last):
        mark = ">" if n + 1 == line else " "
        row = rows[n] if len(rows[n]) <= _MAX_LINE else rows[n][:_MAX_LINE] + "…"
        out.append(f"{mark}{n + 1:>{width}} | {row}")
    return "\n".join(out)


def fix_task(problem: Problem, source: str | None, recent: Iterable[str] = ()) -> str:
    """Ralph's task for **Fix**: the problem, its place, stack, code and console."""
    parts = [
        "Fix one problem the preview found in the site, and nothing else.",
        f"## The problem\n{problem.what}: {problem.text}",
    ]
    if problem.where:
        parts.append(f"Where: {problem.where}")
    if problem.hint:
        parts.append(f"Suggested fix: {problem.hint}")
    if problem.stack.strip():
        parts.append(f"## Stack\n```\n{problem.stack.strip()}\n```")
    if problem.file and source is not None:
        shown = excerpt(source, problem.line)
        if shown:
            parts.append(f"## {problem.file} around line {problem.line or 1}\n```\n{shown}\n```")
    lines = [f"- {line}" for line in recent]
    if lines:
        parts.append("## The console just before\n" + "\n".join(lines[-20:]))
    parts.append(
        "## Done when\nThe cause is fixed in the project's files (not hidden with a try/catch "
        "that swallows it), the page loads without this error, and everything that worked "
        "still works."
    )
    return "\n\n".join(parts) + "\n"


def ask_chief_text(problem: Problem) -> str:
    """The question **Ask Chief** puts in Chief's message box."""
    where = f" ({problem.where})" if problem.where else ""
    return (
        f"The preview shows a problem: {problem.text}{where}. What does it mean, and how "
        "should we fix it?"
    )


class ProblemActions(Protocol):
    """What **Fix** and **Ask Chief** do (:class:`ProblemDesk`)."""

    def fix(self, problem: Problem, recent: list[str]) -> Any: ...

    def ask(self, problem: Problem) -> Any: ...


class ProblemDesk:
    """Carries out **Fix** and **Ask Chief** for the open project.

    ``files()`` is the open project's files (the problem's file is read from
    them); ``start_ralph(task)`` starts Ralph on a task (``RalphSession.start_task``:
    it says why when he cannot start now); ``put_in_chief(text)`` puts a draft in
    Chief's message box; ``spawn(coro, what=...)`` runs a task in the background.
    """

    def __init__(
        self,
        files: Callable[[], Any],
        start_ralph: Callable[[str], Awaitable[None]],
        put_in_chief: Callable[[str], None],
        spawn: Callable[..., Any],
    ) -> None:
        self.files = files
        self.start_ralph = start_ralph
        self.put_in_chief = put_in_chief
        self.spawn = spawn

    def fix(self, problem: Problem, recent: Iterable[str] = ()) -> Any:
        return self.spawn(self.fix_now(problem, list(recent)), what="start Ralph's fix")

    async def fix_now(self, problem: Problem, recent: list[str]) -> str:
        """Start Ralph on the task for ``problem``; the task, as sent."""
        source = await self._source(problem.file)
        task = fix_task(problem, source, recent)
        await self.start_ralph(task)
        return task

    def ask(self, problem: Problem) -> None:
        self.put_in_chief(ask_chief_text(problem))

    async def _source(self, path: str) -> str | None:
        fs = self.files()
        if not path or fs is None:
            return None
        try:
            return str(await fs.read_text(path))
        except Exception:  # a file gone or not text: the task goes without its code
            return None
