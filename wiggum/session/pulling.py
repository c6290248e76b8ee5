"""What Pull from GitHub decides: what comes in, what the person settles, what History keeps.

Beside Publish, with the same token and the same record
(``wiggum.session.publish``).  What changed is found by
``wiggum.deploy.pull``; decided here:

- nothing new on GitHub: said, nothing written;
- GitHub's changes touch no file the project changed since the last publish
  or pull: they come in at once as one checkpoint, "Pull from GitHub: …"
  (a fast-forward when the project changed nothing);
- both changed a file: nothing at all is written until the person has
  chosen for every such file: keep theirs, take GitHub's, or both (GitHub's
  beside theirs as ``name.github.ext``, opened in the editor); then GitHub's
  other changes and the choices come in as one checkpoint;
- after a pull the record's commit is GitHub's head, so the next publish
  builds on it and the next pull starts from it;
- every failure in the person's words; nothing half-written is reported
  as pulled; a choice made after another project was opened writes nothing.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from wiggum.deploy.github import DEFAULT_API, GitHub, GitHubError
from wiggum.deploy.pull import Incoming, incoming
from wiggum.ui.markup.publish import CHOICES

from .publish import PublishSession

__all__ = ["CHOICES", "PullSession", "PullView", "both_name"]

log = logging.getLogger("wiggum.session.publish")

Choice = Literal["mine", "theirs", "both"]
NOTHING_NEW = "Nothing new on GitHub since the last publish or pull."
ANOTHER_PROJECT = "Another project is open now, so nothing was pulled. Pull again for this one."


def both_name(path: str) -> str:
    """Where GitHub's version of a file in conflict goes: ``a/index.github.html``."""
    folder, _, name = path.rpartition("/")
    stem, dot, ext = name.rpartition(".")
    named = f"{stem}.github.{ext}" if dot and stem else f"{name}.github"
    return f"{folder}/{named}" if folder else named


@dataclass(frozen=True, slots=True)
class PullView:
    text: str
    #: Files both sides changed, each with the choice made so far ("" none).
    conflicts: list[tuple[str, str]] = field(default_factory=list)
    failed: bool = False


def _stopped(exc: Exception, text: str) -> PullView:
    log.warning("pull failed: %s", type(exc).__name__)
    return PullView(text.format(type(exc).__name__), failed=True)


def _files(n: int) -> str:
    return f"{n} file{'s' if n != 1 else ''}"


class PullSession:
    """Pulls for the project the publish session has open; ``history()`` is its
    HistoryService (the checkpoint), ``show(path)`` opens a file in the editor."""

    def __init__(
        self,
        publish: PublishSession,
        history: Callable[[], Any],
        show: Callable[[str], Any] = lambda path: None,
    ) -> None:
        self.publish = publish
        self.history = history
        self.show = show
        self.running = False
        self.view: PullView | None = None
        self._pending: Incoming | None = None
        self._chosen: dict[str, Choice] = {}
        #: The project the pull under way is for.
        self._project: str | None = None

    async def act(self, attr: Callable[[str], Any], token: str, api: str) -> PullView:
        """A click in the dialog, read through ``attr`` (the clicked element's
        ``getAttribute``): Pull (``data-action="pull"``), or a choice
        (``data-choice``) for a file in conflict (``data-path``)."""
        action, path, choice = (str(attr(f"data-{k}") or "") for k in ("action", "path", "choice"))
        return await (self.run(token, api) if action == "pull" else self.choose(path, choice))

    async def run(self, token: str, api: str) -> PullView:
        """Find what changed on GitHub; bring it in unless the person must choose."""
        if self.running:
            assert self.view is not None
            return self.view
        self.running = True
        self._pending, self._chosen = None, {}
        self._project = self.publish.source.project_id
        self.view = PullView("Reading what changed on GitHub…")
        p = self.publish
        try:
            files = await p.read_files()
            gh = GitHub(p.transport(), token.strip(), api.strip() or DEFAULT_API, p.new_pacer())
            found = await incoming(gh, p.state, files)
            if found.nothing_new:
                await self._done(found)
                self.view = PullView(NOTHING_NEW)
            elif found.conflicts:
                self._pending = found
                self.view = self._asking()
            else:
                self.view = await self._bring_in(found)
        except GitHubError as err:
            self.view = PullView(f"Nothing was pulled. {err.message}", failed=True)
        except Exception as exc:  # never a blank panel
            self.view = _stopped(exc, "Nothing was pulled: an unexpected error ({}). The project "
                                 "is as it was; pull again.")  # fmt: skip
        finally:
            self.running = False
        return self.view

    def _asking(self) -> PullView:
        assert self._pending is not None
        rows = [(c.path, self._chosen.get(c.path, "")) for c in self._pending.conflicts]
        n = len(rows)
        return PullView(
            f"GitHub and this project both changed {_files(n)} since the last publish or "
            "pull. Choose for each: keep yours, take GitHub's, or open both in the editor. "
            "Nothing is written until every file has a choice.",
            rows,
        )

    async def choose(self, path: str, choice: str) -> PullView:
        """The person's choice for ``path``; the pull completes with the last one."""
        found = self._pending
        if found is None or choice not in CHOICES or self.running:
            return self.view or PullView(NOTHING_NEW)
        if self.publish.source.project_id != self._project:  # another project opened since
            self._pending = None
            self.view = PullView(ANOTHER_PROJECT, failed=True)
            return self.view
        self._chosen[path] = choice  # type: ignore[assignment]
        if any(c.path not in self._chosen for c in found.conflicts):
            self.view = self._asking()
            return self.view
        self.running = True
        try:
            self.view = await self._bring_in(found)
        except Exception as exc:
            self.view = _stopped(exc, "The pull stopped while writing the files ({}); History "
                                 "holds the project as it was before it. Pull again.")  # fmt: skip
        finally:
            self.running = False
            self._pending = None
        return self.view

    async def _bring_in(self, found: Incoming) -> PullView:
        fs = self.publish.source.project_files()
        assert fs is not None
        writes = dict(found.changes)
        opened: list[str] = []
        for c in found.conflicts:
            choice = self._chosen.get(c.path)
            if choice == "theirs":
                writes[c.path] = c.theirs
            elif choice == "both" and c.theirs is not None:
                writes[both_name(c.path)] = c.theirs
                opened.append(both_name(c.path))
        for path, data in writes.items():
            if data is None:
                if await fs.exists(path):
                    await fs.remove(path)
            else:
                await fs.write_bytes(path, data)
        subject = f": {found.subject}" if found.subject else ""
        message = f"Pull from GitHub{subject} ({found.head[:7]})"
        history = self.history()
        if history is not None:
            await history.checkpoint("GitHub", message)
        await self._done(found)
        for path in opened:
            self.show(path)
        how = "fast-forward" if found.fast_forward else "merged with this project's changes"
        text = (
            f"Pulled from GitHub ({how}): {_files(len(writes))} changed"
            f"{subject}. History holds it as a checkpoint."
        )
        kept = [c.path for c in found.conflicts if self._chosen.get(c.path) == "mine"]
        if kept:
            text += f" Kept yours: {', '.join(kept)}."
        if opened:
            text += f" GitHub's versions are beside yours, open in the editor: {', '.join(opened)}."
        return PullView(text)

    async def _done(self, found: Incoming) -> None:
        p = self.publish
        p.state.commit = found.head
        p.state.owner, p.state.repo, p.state.repo_id = (
            found.repo.owner,
            found.repo.name,
            found.repo.id,
        )
        await p.keep_state(p.source.project_id)
