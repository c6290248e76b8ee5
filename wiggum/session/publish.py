"""What the Publish panel decides: what it opens with, the steps it shows, what each outcome says.

The panel (``wiggum.web.views.publish``) draws a :class:`PublishSession`: it
hands over what the person typed and redraws :meth:`PublishSession.view`
whenever the session says something changed.  The publish itself is
``wiggum.deploy.publish``; decided here:

- the token is kept in the settings record like provider keys (saved only
  when it or the API address changed) and nowhere else: the per-project
  record (``publish:<project id>`` in the meta store) holds the repository,
  branch, URL, last commit and blobs already uploaded, never the token;
- the repository is the one published before, else the project's name made
  into a repository name;
- which files go: the project's, without Wiggum's own folders (``.ralph/``,
  ``.chief/``, ``.git/``), plus ``.nojekyll`` (see ``deploy.publish``);
- one publish at a time: Publish is refused from the click on until the run
  ends, and without files there is nothing to publish;
- every failure is said in the person's words, at the step it stopped on;
  a surprise says publishing stopped (nothing is reported as published), and
  what was uploaded is remembered either way, so publishing again continues.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal, Protocol

from pydantic import SecretStr

from wiggum.deploy.errors import sentence
from wiggum.deploy.github import DEFAULT_API, GitHub, GitHubError
from wiggum.deploy.limits import Pacer
from wiggum.deploy.links import safe_url
from wiggum.deploy.publish import (
    STEPS,
    PublishResult,
    PublishState,
    added_by_wiggum,
    is_private,
    publish,
    repo_name,
    summary,
)
from wiggum.fs.sizes import format_size
from wiggum.fs.store import FileStore
from wiggum.llm.transport import Transport
from wiggum.persist import AppStorage
from wiggum.ui.settings import Settings

__all__ = [
    "PublishSession",
    "PublishSource",
    "PublishView",
    "ResultView",
    "StepView",
    "SummaryRow",
    "state_key",
    "with_token",
]

log = logging.getLogger("wiggum.session.publish")

STEP_LABELS = {
    "account": "Check the token",
    "repository": "Find or create the repository",
    "files": "Upload the files",
    "commit": "Write one commit",
    "pages": "Turn on GitHub Pages",
    "verify": "Check what GitHub holds",
    "build": "Wait for the Pages build",
}
NO_TOKEN = "Paste a GitHub token first (the link above makes one)."
PUBLISHED_BEFORE = "Published before. Publish again to update it."
#: What a row added by Wiggum says instead of its size.
NOJEKYLL_NOTE = "added: GitHub Pages serves your files as they are (no Jekyll)"


def state_key(project_id: str) -> str:
    """The meta key of a project's publish record."""
    return f"publish:{project_id}"


class PublishSource(Protocol):
    """What publishing needs of the app."""

    @property
    def project_id(self) -> str | None: ...

    @property
    def settings(self) -> Settings: ...

    @property
    def storage(self) -> AppStorage: ...

    async def save_settings(self, settings: Settings) -> None: ...

    def project_files(self) -> FileStore | None:
        """The open project's files (``None`` while none is open)."""
        ...

    @property
    def history(self) -> Any:
        """The open project's HistoryService (where a pull's checkpoint goes)."""
        ...

    def open_file(self, path: str) -> None:
        """Open a file of the open project in the editor."""
        ...


@dataclass(frozen=True, slots=True)
class StepView:
    step: str
    state: Literal["done", "active", "failed", "pending"]
    text: str


@dataclass(frozen=True, slots=True)
class SummaryRow:
    path: str
    #: Its size, or why Wiggum adds it.
    text: str
    added: bool = False


@dataclass(frozen=True, slots=True)
class ResultView:
    text: str
    #: The site's address, https only ("": no link).
    url: str
    failed: bool = False
    #: Where to read about the build (a workflow run), https only.
    run_url: str = ""


@dataclass(frozen=True, slots=True)
class PublishView:
    """Everything the panel shows below the form."""

    summary_head: str
    rows: list[SummaryRow]
    #: The steps (``None``: not shown, nothing was published in this panel yet).
    steps: list[StepView] | None = None
    error: str | None = None
    result: ResultView | None = None
    go_label: str = "Publish"
    go_enabled: bool = True
    #: Seconds left of a wait for GitHub's rate limit (``None``: not waiting).
    wait_left: int | None = None


def with_token(settings: Settings, token: str, api: str) -> Settings | None:
    """The settings keeping ``token`` and ``api``; ``None`` when they already do."""
    if settings.github_token.get_secret_value() == token and settings.github_api == api:
        return None
    updated = settings.model_copy(deep=True)
    updated.github_token = SecretStr(token)
    updated.github_api = api
    return updated


def repo_hint(name: str, state: PublishState) -> str:
    name = name.strip()
    if state.repo and name == state.repo:
        return f"Updates github.com/{state.owner}/{name}, published before."
    if name:
        return f"A new public repository called {repo_name(name)} is created in your account."
    return "Give the repository a name."


def summary_view(files: dict[str, bytes], *, whole: bool = False) -> tuple[str, list[SummaryRow]]:
    """The last-chance list: its heading and one row per file that goes (a repository
    opened from GitHub: its files as they are, nothing added)."""
    rows = summary(files, whole=whole)
    if rows:
        total = sum(n for _, n in rows)
        head = (
            f"{len(rows)} file{'s' if len(rows) != 1 else ''}, {format_size(total)}. "
            "Wiggum's own notes (.ralph/, .chief/) and the history stay here."
        )
    else:
        head = "The project has no files yet: nothing to publish."
    return head, [
        SummaryRow(path, NOJEKYLL_NOTE, True)
        if added_by_wiggum(path, files)
        else SummaryRow(path, format_size(n))
        for path, n in rows
    ]


def steps_view(
    current: str | None, said: dict[str, str], *, failed: bool = False, done: bool = False
) -> list[StepView]:
    """Each step: done before ``current``, then ``current`` (with what it said), then pending."""
    out = []
    reached = current is None
    for step in STEPS:
        label = STEP_LABELS[step]
        if step == current:
            reached = True
            state = "done" if done else "failed" if failed else "active"
            out.append(StepView(step, state, label if done else said.get(step, label)))
        else:
            out.append(StepView(step, "pending" if reached else "done", label))
    return out


def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def _notes(result: PublishResult) -> str:
    """What else the person should know: a rename, a difference, a branch that moved on."""
    notes = []
    if result.renamed:
        notes.append(
            f"The repository was renamed on GitHub to {result.renamed}; it was updated there."
        )
    if result.moved_on:
        notes.append("Someone pushed to the branch since; GitHub holds their version now.")
    if result.differences:
        shown = ", ".join(result.differences[:5])
        more = f" and {len(result.differences) - 5} more" if len(result.differences) > 5 else ""
        notes.append(
            f"GitHub's copy differs from the project in {_plural(len(result.differences), 'file')}"
            f" ({shown}{more}). Publish again to put the project's files there."
        )
    where = ""
    if result.branch and (result.branch not in ("main", "master") or result.folder != "/"):
        folder = "" if result.folder in ("", "/") else f", folder {result.folder}"
        where = f"Published to the {result.branch} branch{folder}, where GitHub Pages builds from."
    return " ".join([where, *notes]).strip()


def result_view(result: PublishResult) -> ResultView:
    url, run = safe_url(result.url), safe_url(result.link)
    notes = _notes(result)
    tail = f" {notes}" if notes else ""
    if result.status == "built":
        count = _plural(len(result.files), "file")
        done = (
            f"Live: {count} published"
            if result.changed
            else f"Live: no file changed since the last publish ({count})"
        )
        by = (
            "the repository's Pages workflow" if result.build_type == "workflow" else "GitHub Pages"
        )
        text = f"{done} and built by {by}. GitHub may take a minute to show it.{tail}"
        return ResultView(text, url, failed=bool(result.differences), run_url=run)
    if result.status == "errored":
        return ResultView(
            "The files are on GitHub, but GitHub Pages could not build the site: "
            f"{sentence(result.message or 'no reason given')} Fix that, then publish again.{tail}",
            url,
            failed=True,
            run_url=run,
        )
    said = f" {sentence(result.message)}" if result.message else ""
    return ResultView(
        "The files are on GitHub; GitHub Pages is still building. The address works once it "
        f"is done (usually within a few minutes).{said}{tail}",
        url,
        run_url=run,
    )


def surprise_text(exc: BaseException) -> str:
    return (
        f"Publishing stopped on an unexpected error ({type(exc).__name__}). Nothing was "
        "reported as published; publish again to continue."
    )


@dataclass(frozen=True, slots=True)
class PublishForm:
    """What the form shows when the panel opens."""

    token: str
    api: str
    repo: str


Changed = Callable[[Literal["error", "result"] | None], None]


@dataclass
class _Progress:
    current: str | None = None
    said: dict[str, str] = field(default_factory=dict)
    failed: bool = False
    done: bool = False
    wait_left: int | None = None


class PublishSession:
    def __init__(
        self,
        source: PublishSource,
        transport: Callable[[], Transport],
        pacer: Callable[[], Pacer] = Pacer,
    ) -> None:
        self.source = source
        self.transport = transport
        #: Makes each publish's pacer (its clock: a test's, or the real one).
        self.new_pacer = pacer
        self.state = PublishState()
        self.files: dict[str, bytes] = {}
        self.running = False
        #: Called after each change, with what the person should now see (or ``None``).
        self.on_change: Changed = lambda reveal: None
        self._steps: _Progress | None = None
        self._error: str | None = None
        self._result: ResultView | None = None
        self._go_label = "Publish"

    def view(self) -> PublishView:
        head, rows = summary_view(self.files, whole=self.state.whole)
        steps = self._steps
        return PublishView(
            head,
            rows,
            None
            if steps is None
            else steps_view(steps.current, steps.said, failed=steps.failed, done=steps.done),
            self._error,
            self._result,
            self._go_label,
            not self.running and bool(self.files),
            steps.wait_left if steps is not None and self.running else None,
        )

    def repo_hint(self, name: str) -> str:
        return repo_hint(name, self.state)

    async def open(self) -> PublishForm:
        """Read the project's record and files: what the panel opens with."""
        source = self.source
        settings = source.settings
        pid = source.project_id
        record = await source.storage.get_meta(state_key(pid)) if pid else None
        self.state = PublishState.model_validate(record or {})
        self.files = await self.read_files()
        if not self.running:  # a publish under way keeps showing its steps
            self._steps = self._error = None
            self._result = ResultView(PUBLISHED_BEFORE, self.state.url) if self.state.url else None
        self.on_change(None)
        name = self.state.repo or repo_name(await self._project_name())
        token = settings.github_token.get_secret_value()
        return PublishForm(token, settings.github_api or DEFAULT_API, name)

    async def _project_name(self) -> str:
        for p in await self.source.storage.list_projects():
            if p["id"] == self.source.project_id:
                return str(p.get("name") or "")
        return ""

    async def read_files(self) -> dict[str, bytes]:
        fs = self.source.project_files()
        if fs is None:
            return {}
        out: dict[str, bytes] = {}
        for path in await fs.list(""):
            if not is_private(path):
                out[path] = await fs.read_bytes(path)
        return out

    def start(self) -> bool:
        """Publish was pressed: ``False`` while a publish runs (one at a time)."""
        if self.running:
            return False
        self.running = True
        self.on_change(None)
        return True

    async def run(self, token: str, repo: str, api: str) -> bool:
        """Publish to ``repo`` with ``token``; ``False`` when there was no token to use."""
        token, name, api = token.strip(), repo_name(repo), api.strip() or DEFAULT_API
        if not token:
            self._error = NO_TOKEN
            self._finished("error")
            return False
        kept = with_token(self.source.settings, token, api)
        if kept is not None:
            await self.source.save_settings(kept)
        self.running = True
        self._go_label = "Publishing…"
        self._error = self._result = None
        self._steps = _Progress("account")
        self.on_change(None)
        project_id = self.source.project_id
        reveal: Literal["error", "result"] = "error"
        try:
            self.files = await self.read_files()
            self.on_change(None)
            gh = GitHub(self.transport(), token, api, self.new_pacer())
            result = await publish(
                gh, self.files, self.state, name, progress=self._progress, waiting=self._waiting
            )
        except GitHubError as err:
            self._fail(err.message)
        except Exception as exc:  # never let a surprise blank the panel
            log.warning("publish failed: %s", type(exc).__name__)
            self._fail(surprise_text(exc))
        else:
            self._steps = _Progress("build", done=True)
            self._result = result_view(result)
            reveal = "result"
        finally:
            await self.keep_state(project_id)
            self._finished(reveal)
        return True

    def _progress(self, step: str, text: str) -> None:
        assert self._steps is not None
        self._steps.current = step
        self._steps.said[step] = text
        self.on_change(None)

    def _waiting(self, left: int) -> None:
        assert self._steps is not None
        self._steps.wait_left = left or None

    def _fail(self, message: str) -> None:
        assert self._steps is not None
        self._steps.failed = True
        self._error = message

    def _finished(self, reveal: Literal["error", "result"]) -> None:
        self.running = False
        self._go_label = "Publish again" if self.state.commit else "Publish"
        self.on_change(reveal)

    async def keep_state(self, project_id: str | None) -> None:
        if not project_id:
            return
        try:
            await self.source.storage.put_meta(state_key(project_id), self.state.model_dump())
        except Exception as exc:
            log.warning("publish state not stored: %s", type(exc).__name__)
