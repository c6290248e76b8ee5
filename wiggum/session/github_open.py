"""Open a repository from GitHub as a new project, remembered for publishing and pulling.

The reading is ``wiggum.deploy.opening`` (files and commits through the Git
Data API, each object with GitHub's id) and the ``.git/`` it becomes
``wiggum.project.gitfolder``; the project is made the way an import makes one
(``StoredProjects.create_from``: its history adopted, so checkpoints continue
it).  Decided here:

- what was typed is ``owner/repo`` or the repository's address; anything else
  is refused with what to type, before anything is asked of GitHub;
- no token is sent unless one was given (a public repository needs none);
- the depth is the number of commits read, 50 unless the person chose;
- the new project is named after the repository, and its publish record
  names the repository, its branch and the commit read, so Publish goes back
  there (files where they are in the repository) and Pull knows what GitHub
  had when the project was opened.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from wiggum.deploy.errors import GitHubError, when
from wiggum.deploy.github import DEFAULT_API, GitHub
from wiggum.deploy.limits import Pacer
from wiggum.deploy.opening import DEFAULT_DEPTH, Opened, open_repository, parse_address
from wiggum.deploy.publish import PublishState
from wiggum.llm.transport import Transport
from wiggum.persist import AppStorage
from wiggum.project.gitfolder import git_folder
from wiggum.project.importing import ImportResult
from wiggum.ui.projects import files_text

from .projects import Imported
from .publish import state_key

__all__ = ["NOT_AN_ADDRESS", "open_from_github", "opened_text"]

NOT_AN_ADDRESS = (
    "Type the repository as owner/name (for example octo/site), or paste its address "
    "from GitHub (https://github.com/owner/name)."
)

Create = Callable[[str, ImportResult], Awaitable[dict[str, Any]]]


def opened_text(name: str, opened: Opened) -> str:
    last = "the last commit" if opened.commits == 1 else f"the last {opened.commits} commits"
    parts = [
        f"Opened {opened.repo.full_name} from GitHub: {files_text(len(opened.files))} and "
        f"{last} of its {opened.branch} branch"
        + (" (the older ones stay on GitHub)" if opened.shallow else "")
        + f", as the new project “{name}”."
    ]
    if opened.site_root:
        parts.append(f"The site is in {opened.site_root}, where its index.html is.")
    if opened.rebuilt:
        parts.append(
            f"{len(opened.rebuilt)} commit(s) could not be rebuilt exactly and are kept "
            "under new ids; the files are GitHub's either way."
        )
    return " ".join(parts)


def _said(err: GitHubError, gh: GitHub, pacer: Pacer | None) -> str:
    """GitHub's refusal in the words of opening (its limit words speak of publishing)."""
    if err.kind != "rate_limit":
        return err.message
    now = (pacer or gh.pacer).clock()
    after = f" after {when(err.retry_at, now)}" if err.retry_at else " later"
    if not gh.has_token:
        return (
            "GitHub answers only 60 requests an hour without a token, and reading this "
            "history takes more. Paste a token (any fine-grained token reads a public "
            f"repository), choose fewer commits, or open it again{after}."
        )
    return f"GitHub's limit for this token is used up. Open it again{after}; nothing was made."


async def open_from_github(
    address: str,
    *,
    token: str,
    api: str,
    transport: Transport,
    storage: AppStorage,
    create: Create,
    depth: int = DEFAULT_DEPTH,
    pacer: Pacer | None = None,
    progress: Callable[[str], Any] | None = None,
) -> Imported:
    """Read ``address`` from GitHub into a new project made by ``create``."""
    found = parse_address(address)
    if found is None:
        return Imported(error=NOT_AN_ADDRESS)
    gh = GitHub(transport, token.strip(), api.strip() or DEFAULT_API, pacer)
    try:
        opened = await open_repository(gh, "/".join(found), depth=depth, progress=progress)
    except GitHubError as err:
        return Imported(error=f"Nothing was opened. {_said(err, gh, pacer)}")
    remote = f"https://github.com/{opened.repo.full_name}.git"
    history = git_folder(
        opened.objects.values(), opened.branch, opened.local_head, opened.shallow, remote
    )
    result = ImportResult(files={**opened.files, **history})
    name = opened.repo.name
    try:
        project = await create(name, result)
    except Exception as exc:
        return Imported(error=f"Nothing was opened. {exc or type(exc).__name__}")
    state = PublishState(
        owner=opened.repo.owner,
        repo=opened.repo.name,
        repo_id=opened.repo.id,
        branch=opened.branch,
        commit=opened.head,
        whole=True,
        root=opened.site_root,
    )
    await storage.put_meta(state_key(project["id"]), state.model_dump())
    return Imported(project, result, text=opened_text(name, opened))
