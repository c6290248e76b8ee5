"""``.ralph/summary.md``: what an iteration did, in a few lines, for the next one.

Written by the loop, not the model, so it is true even when the model's own
progress notes are not: every call with its outcome, and how the iteration
ended.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from .types import RalphCompletion

__all__ = ["IterationLog", "render_completion"]

#: Actions listed before "... and N more": the summary is context, keep it short.
MAX_ACTIONS = 40


def _one_line(text: str, limit: int) -> str:
    line = " ".join(text.split())
    return line if len(line) <= limit else line[: limit - 1] + "…"


def _describe_call(name: str, args: dict[str, Any]) -> str:
    if name == "shell" and isinstance(args.get("command"), str):
        first = args["command"].strip().splitlines()[0] if args["command"].strip() else ""
        return f"shell `{_one_line(first, 80)}`"
    if isinstance(args.get("path"), str):
        return f"{name} {args['path']}"
    return f"{name} {_one_line(json.dumps(args, ensure_ascii=False, default=str), 80)}"


@dataclass(slots=True)
class IterationLog:
    iteration: int
    intents: list[str] = field(default_factory=list)
    actions: list[str] = field(default_factory=list)
    outcomes: list[str] = field(default_factory=list)

    def intent(self, text: str) -> None:
        if len(self.intents) < 3:
            self.intents.append(_one_line(text, 200))

    def action(self, name: str, args: dict[str, Any], output: str, is_error: bool) -> None:
        result = _one_line(output, 100) if is_error else "ok"
        self.actions.append(f"- {_describe_call(name, args)} -> {result}")

    def outcome(self, text: str) -> None:
        self.outcomes.append(text)

    def render(self) -> str:
        lines = [f"# Iteration {self.iteration}"]
        if self.intents:
            lines.append("Intent: " + " / ".join(self.intents))
        lines.append(f"Tool calls ({len(self.actions)}):")
        lines += self.actions[:MAX_ACTIONS] or ["- (none)"]
        if len(self.actions) > MAX_ACTIONS:
            lines.append(f"- ... and {len(self.actions) - MAX_ACTIONS} more")
        lines.append("Outcome: " + ("; ".join(self.outcomes) or "ended"))
        return "\n".join(lines) + "\n"


def render_completion(iteration: int, completion: RalphCompletion) -> str:
    def listed(title: str, items: list[str]) -> list[str]:
        return [f"## {title}", *(f"- {i}" for i in items)] if items else []

    lines = [
        f"# Run {completion.status} (iteration {iteration})",
        completion.summary.strip(),
        *listed("Files created", completion.files_created),
        *listed("Files modified", completion.files_modified),
        *listed("Key decisions", completion.key_decisions),
        *listed(
            "Not probed (no probe can check these)",
            [f"{u.criterion}: {u.reason}" for u in completion.unprobed],
        ),
    ]
    return "\n\n".join(line for line in lines if line) + "\n"
