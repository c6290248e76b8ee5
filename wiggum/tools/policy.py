"""What Ralph may change in the project.

Reading is allowed everywhere inside the project.  Writing (create, append,
edit, delete, rename, copy onto) is allowed everywhere except the agents'
state folders:

- ``.chief/`` belongs to Chief (prompt, plan, status): read-only for tools.
- ``.ralph/`` belongs to the loop (task, status, feedback, ...): read-only,
  except Ralph's own memory — ``.ralph/plan.md``, ``.ralph/progress.md`` —
  the scratch folder ``.ralph/tmp/`` where truncated outputs are saved, and his
  acceptance probes in ``.ralph/checks/``.
- The project root itself can never be removed or moved.

The loop writes its state files through the FileStore directly, not through
tools, so this policy never gets in its way.
"""

from __future__ import annotations

from dataclasses import dataclass

from wiggum.fs import PathError, is_within

__all__ = ["PolicyError", "WritePolicy"]


class PolicyError(PathError):
    """A path the agent may read but not change."""


@dataclass(frozen=True)
class WritePolicy:
    read_only: tuple[str, ...] = (".chief", ".ralph")
    #: Paths (files or folders) inside ``read_only`` that are writable anyway.
    writable: tuple[str, ...] = (
        ".ralph/plan.md",
        ".ralph/progress.md",
        ".ralph/tmp",
        ".ralph/checks",
    )

    def check_write(self, path: str) -> None:
        """Raise ``PolicyError`` unless the normalized ``path`` may be written."""
        if not path:
            raise PolicyError("refused: the project root itself cannot be changed")
        if any(is_within(path, w) for w in self.writable):
            return
        for folder in self.read_only:
            if is_within(path, folder):
                raise PolicyError(f"refused: {path} is read-only ({self._why(folder)})")

    def check_remove(self, path: str) -> None:
        """Like ``check_write``, and the tree below ``path`` must hold nothing protected."""
        self.check_write(path)
        for folder in self.read_only:
            if is_within(folder, path):
                raise PolicyError(
                    f"refused: removing {path} would remove {folder}/ ({self._why(folder)})"
                )

    def _why(self, folder: str) -> str:
        if folder == ".chief":
            return ".chief/ is Chief's; read it, do not change it"
        if folder == ".ralph":
            allowed = ", ".join(self.writable)
            return f".ralph/ is the loop's state; you may write only {allowed}"
        return f"{folder}/ is protected"
