"""Ralph's run list, read from his saved transcript events.

The transcript (``wiggum.web.views.ralph``) is a list of event records:
``run`` (a run began, or resumed), ``iteration``, ``tool``, ``usage``,
``result``…  :func:`run_rows` turns it into one row per run — when it
started, how many iterations, which files it changed, what it cost, how it
ended — newest first, so every run stays listed after the next one starts.
A resumed run continues its row.  Pure, and it reads plain dicts.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

__all__ = ["WRITE_TOOLS", "RunRow", "run_rows"]

#: Tools whose ``path`` argument is a file the call changed.
WRITE_TOOLS = frozenset({"write_file", "edit_file", "append_file", "delete_file", "move_file"})
#: Shell redirections (``cat > index.html``) change files too.
_REDIRECT = (">", ">>")


class RunRow:
    """One run of the list."""

    __slots__ = ("cost", "ended", "files", "iterations", "outcome", "resumes", "started", "tokens")

    def __init__(self, started: float | None) -> None:
        self.started = started
        self.iterations = 0
        self.files: list[str] = []
        self.tokens = 0
        self.cost: float | None = None
        #: ``complete``, ``cancelled``, ``error``… or ``running`` / ``interrupted``.
        self.outcome = "running"
        self.ended = False
        self.resumes = 0

    def _file(self, path: Any) -> None:
        path = str(path or "").strip()
        if path and path not in self.files and not path.startswith(".ralph/"):
            self.files.append(path)


def _command_lines(command: str) -> list[str]:
    """The command's lines without heredoc bodies (their ``>`` is content)."""
    out: list[str] = []
    end: str | None = None
    for line in command.splitlines():
        if end is not None:
            if line.strip() == end:
                end = None
            continue
        out.append(line)
        if "<<" in line:
            word = line.split("<<", 1)[1].strip().lstrip("-").split()
            end = word[0].strip("'\"") if word else None
    return out


def _shell_targets(command: str) -> list[str]:
    out = []
    for line in _command_lines(command):
        words = line.replace(">>", " >> ").replace(">", " > ").split()
        for i, word in enumerate(words[:-1]):
            if word in _REDIRECT:
                target = words[i + 1]
                if target != "/dev/null" and not target.startswith("&"):
                    out.append(target)
    return out


def run_rows(events: Iterable[Mapping[str, Any]], *, running: bool = False) -> list[RunRow]:
    """The runs in ``events``, newest first.  A run with no end is ``running``
    when ``running`` says one is going now, else ``interrupted``."""
    rows: list[RunRow] = []
    row: RunRow | None = None
    for e in events:
        kind = e.get("kind")
        if kind == "run":
            if e.get("resumed") and row is not None:
                row.resumes += 1
                row.ended = False
                row.outcome = "running"
                continue
            row = RunRow(e.get("t"))
            rows.append(row)
            continue
        if row is None:  # events from before run records existed
            row = RunRow(None)
            rows.append(row)
        if kind == "iteration":
            row.iterations = max(row.iterations, int(e.get("i") or 0))
        elif kind == "tool" and not e.get("error"):
            name = str(e.get("name") or "")
            args = e.get("args") if isinstance(e.get("args"), Mapping) else {}
            if name in WRITE_TOOLS:
                row._file(args.get("path"))
            elif "command" in args:
                for target in _shell_targets(str(args["command"])):
                    row._file(target)
        elif kind == "usage":
            call = e.get("call") if isinstance(e.get("call"), Mapping) else {}
            row.tokens += int(call.get("total_tokens") or 0) or (
                int(call.get("prompt_tokens") or 0) + int(call.get("completion_tokens") or 0)
            )
            if call.get("cost") is not None:
                row.cost = (row.cost or 0.0) + float(call["cost"])
        elif kind == "result":
            row.outcome = str(e.get("status") or "ended")
            row.ended = True
            row.iterations = max(row.iterations, int(e.get("iterations") or 0))
            for path in e.get("files") or ():
                row._file(path)
    for r in rows:
        if not r.ended:
            r.outcome = "running" if running and r is rows[-1] else "interrupted"
    return list(reversed(rows))
