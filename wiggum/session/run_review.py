"""Reading a run back: an iteration's diff, and which iteration broke a check.

Ralph's run list pairs each iteration with its History checkpoint
(:mod:`wiggum.ui.runs`); here is what its buttons and the Checks panel's
"Find the iteration that broke this" do, in pure Python:

* :func:`checkpoint_diffs`: every file a checkpoint added, changed or removed,
  with its unified diff and line counts (read from History when asked);
* :func:`issue_check`: an issue of the site checks as a check over any file
  store (its check run on those files, the same issue looked for: same file,
  same words; its line may move);
* :func:`find_breaking`: :func:`wiggum.project.bisect.bisect` over the
  project's checkpoints, the answer in the person's words with the
  iteration's intent and its diff.  No model is called and nothing is written.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from wiggum.fs.store import FileStore
from wiggum.project.bisect import Bisected, Check, bisect
from wiggum.project.service import is_agent_memory
from wiggum.ralph.site_checks import BrowserAudit, run_site_checks, site_check_gates
from wiggum.ralph.types import GateIssue
from wiggum.ui.history import diff_line_class
from wiggum.ui.runs import IterationStep

from .history import said

__all__ = [
    "BisectAnswer",
    "FileDiff",
    "HistoryReader",
    "answer_text",
    "checkpoint_diffs",
    "find_breaking",
    "issue_check",
]

log = logging.getLogger("wiggum.session")

#: The most files whose diffs one answer reads.
MOST_FILES = 20
#: The checks that need the browser (one load of the site), not only the files.
BROWSER_CHECKS = frozenset({"overflow", "console", "accessibility"})


class HistoryReader(Protocol):
    """The project's history service (``wiggum.project.service.HistoryService``)."""

    async def history(self) -> Any: ...


@dataclass(frozen=True, slots=True)
class FileDiff:
    path: str
    #: ``added`` / ``modified`` / ``deleted``.
    kind: str
    text: str
    added: int = 0
    removed: int = 0


def _counts(text: str) -> tuple[int, int]:
    """Lines added and removed, read as History's diff colours them."""
    kinds = [diff_line_class(line) for line in text.splitlines()]
    return kinds.count("diff-add"), kinds.count("diff-del")


async def checkpoint_diffs(
    source: HistoryReader, checkpoint: str, files: Iterable[tuple[str, str]]
) -> list[FileDiff]:
    """Each file of ``files`` (``(path, kind)``) as ``checkpoint`` changed it."""
    out = []
    history = await source.history()
    for path, kind in list(files)[:MOST_FILES]:
        try:
            text = await history.diff(checkpoint, path)
        except Exception as exc:
            text = f"The changes could not be read: {said(exc, 'reading a diff')}"
        out.append(FileDiff(path, kind, text, *_counts(text)))
    return out


def step_files(step: IterationStep) -> list[tuple[str, str]]:
    """An iteration's files as ``(path, kind)``, in the order the list shows them."""
    return (
        [(p, "added") for p in step.added]
        + [(p, "modified") for p in step.changed]
        + [(p, "deleted") for p in step.removed]
    )


def _same(found: GateIssue, wanted: GateIssue) -> bool:
    return found.path == wanted.path and found.message == wanted.message


def issue_check(name: str, issue: GateIssue, audit: BrowserAudit | None = None) -> Check:
    """A check that fails on the files where the site check ``name`` finds ``issue``
    again (its findings: the matching issues).  The browser's checks need
    ``audit``; without it they cannot be searched (``ValueError``)."""
    if name in BROWSER_CHECKS:
        if audit is None:
            raise ValueError(f"the {name} check needs the browser")
        gates: list[Any] = []
    else:
        gates = [g for g in site_check_gates() if g.name == name]
        if not gates:
            raise ValueError(f"no site check is called {name}")
        audit = None

    async def check(fs: FileStore) -> list[GateIssue]:
        report = await run_site_checks(fs, gates, audit)
        return [i for r in report.results if r.gate == name for i in r.issues if _same(i, issue)]

    return check


@dataclass(frozen=True, slots=True)
class BisectAnswer:
    """What the person reads: ``text`` (the verdict), and for a found break the
    checkpoint, who made it (``who``: "Ralph's iteration 3" or "your edit"),
    his intent for it, and its diff."""

    verdict: str
    text: str
    checkpoint: str = ""
    who: str = ""
    intent: str = ""
    files: Sequence[FileDiff] = field(default_factory=tuple)


def _who(cp: Any) -> str:
    author = str(cp.author)
    if author.startswith("Ralph iteration "):
        return "Ralph's iteration " + author.removeprefix("Ralph iteration ")
    return "your edit" if author == "you" else f"a checkpoint by {author}"


def answer_text(found: Bisected, who: str = "") -> str:
    """The verdict in the person's words."""
    n = found.searched
    if found.verdict == "no-checkpoints":
        return (
            "There are no checkpoints to search yet: one is made after each of Ralph's "
            "iterations and each of your saves."
        )
    if found.verdict == "passes-now":
        return (
            f"It passes at the last checkpoint ({found.good.id[:7]}): what broke it came after "
            "and is not in History yet. Save, or let Ralph finish an iteration, then search again."
        )
    if found.verdict == "fails-everywhere":
        back = "the only checkpoint" if n == 1 else f"the oldest of {n} checkpoints searched"
        return (
            f"It fails everywhere: already at {back} ({found.broke.id[:7]}), so no checkpoint "
            "here broke it."
        )
    return (
        f"Broken by {who} (checkpoint {found.broke.id[:7]}): it passed at "
        f"{found.good.id[:7]} just before. {found.tried} of {n} checkpoints checked."
    )


async def find_breaking(
    source: HistoryReader, check: Check, steps: Mapping[str, IterationStep] | None = None
) -> BisectAnswer:
    """Bisect the project's checkpoints for ``check``; ``steps`` (checkpoint id ->
    iteration, from the run list) give the iteration's whole intent."""
    try:
        found = await bisect(await source.history(), check)
    except Exception as exc:
        reason = said(exc, "searching the checkpoints").rstrip(".")
        return BisectAnswer("error", f"The search stopped: {reason}. Nothing was changed.")
    if found.verdict != "found":
        return BisectAnswer(found.verdict, answer_text(found))
    cp = found.broke
    who = _who(cp)
    step = (steps or {}).get(cp.id)
    intent = step.intent if step is not None and step.intent else str(cp.message)
    # The site's files; the agents' notes only when nothing else changed.
    files = [(f.path, f.kind) for f in cp.files if not is_agent_memory(f.path)]
    files = files or [(f.path, f.kind) for f in cp.files]
    diffs = await checkpoint_diffs(source, cp.id, files)
    return BisectAnswer(found.verdict, answer_text(found, who), cp.id, who, intent, diffs)
