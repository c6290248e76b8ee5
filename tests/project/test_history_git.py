"""Repositories git made, zipped as people zip them: imported with their history,
continued by a checkpoint, downloaded again, and checked by the real ``git``.

Each shape (``tests/gitrepos.py``): loose objects, after ``gc``, cloned, on
``master``, tags, a submodule entry, CRLF, a file over 5 MB, unicode names,
a shallow clone; zipped from inside the folder, from outside it (one top
folder with ``.git`` in it) and as GitHub's "Download ZIP".  Every download
passes ``git fsck --full --strict``, ``git status --porcelain`` and
``git diff HEAD`` are empty, and ``git log`` has every checkpoint.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests import gitrepos
from wiggum.persist import MemoryAppStorage
from wiggum.project.importing import ImportResult, read_zip
from wiggum.project.service import HistoryService
from wiggum.session.stored_projects import StoredProjects
from wiggum.ui.projects import imported_text


class App:
    """What a download asks of the app: the project's history, writable."""

    def __init__(self, stored: StoredProjects) -> None:
        self.stored = stored
        self.services: dict[str, HistoryService] = {}

    async def history_of(self, project_id: str) -> tuple[HistoryService, bool]:
        if project_id not in self.services:
            self.services[project_id] = HistoryService(self.stored.storage.files(project_id))
        return self.services[project_id], True


async def no_browser() -> bool:
    return False


@dataclass
class Imported:
    stored: StoredProjects
    app: App
    pid: str
    service: HistoryService
    result: ImportResult

    @property
    def files(self):
        return self.stored.storage.files(self.pid)

    async def downloaded(self, where: Path) -> Path:
        data = await self.stored.zip_of(self.pid, include_internal=True, app=self.app)
        return gitrepos.unzip(data, where)


async def imported(data: bytes, name: str = "site") -> Imported:
    stored = StoredProjects(MemoryAppStorage(), no_browser)
    result = read_zip(data)
    project = await stored.create_from(name, result)
    app = App(stored)
    service, _ = await app.history_of(project["id"])
    return Imported(stored, app, project["id"], service, result)


def first_parent_log(git, repo: Path) -> list[str]:
    return git(repo, "log", "--first-parent", "--format=%H").split()


SHAPES = ["loose", "gc", "cloned", "master", "submodule", "shallow"]


@pytest.mark.parametrize("shape", SHAPES)
async def test_a_repository_comes_in_with_its_history_and_goes_out_clean(
    shape, git_repos, git_cli, tmp_path
):
    repo = git_repos[shape]
    data = gitrepos.zip_inside(repo, tmp_path / "in.zip")
    got = await imported(data)
    assert got.result.has_history and "with its history" in imported_text("site", got.result)
    history = await got.service.history()
    listed = await history.list()
    assert [cp.id for cp in listed] == first_parent_log(git_cli, repo)[:50]
    assert listed[0].author == "Ada Lovelace"

    files = got.files
    await files.write_text("index.html", "<h1>Changed in Wiggum</h1>\n")
    mine = await got.service.saved(["index.html"])
    assert mine.parent == listed[0].id
    assert [(f.path, f.kind) for f in mine.files] == [("index.html", "modified")]

    out = await got.downloaded(tmp_path / "out")
    checks = gitrepos.clean_checks(git_cli, out)
    assert checks == {"fsck": "0", "status": "", "diff": ""}, checks
    log = first_parent_log(git_cli, out)
    assert log == [mine.id, *[cp.id for cp in listed]]
    branch = git_cli(out, "symbolic-ref", "--short", "HEAD").strip()
    assert branch == git_cli(repo, "symbolic-ref", "--short", "HEAD").strip()


@pytest.mark.parametrize("shape", ["loose", "gc", "cloned"])
async def test_tags_files_and_modes_are_kept_byte_for_byte(shape, git_repos, git_cli, tmp_path):
    repo = git_repos[shape]
    got = await imported(gitrepos.zip_inside(repo, tmp_path / "in.zip"))
    files = got.files
    for name in ("win.txt", "media/big.bin", gitrepos.UNICODE, "build.sh"):
        assert await files.read_bytes(name) == (repo / name).read_bytes(), name
    assert len(await files.read_bytes("media/big.bin")) == gitrepos.BIG
    out = await got.downloaded(tmp_path / "out")
    assert git_cli(out, "tag").split() == ["v1", "v2"]
    assert git_cli(out, "cat-file", "-t", "v2").strip() == "tag"
    assert (out / "build.sh").stat().st_mode & 0o111
    assert (out / "win.txt").read_bytes() == b"one\r\ntwo\r\n"
    assert gitrepos.clean_checks(git_cli, out) == {"fsck": "0", "status": "", "diff": ""}


async def test_files_git_ignores_stay_out_of_the_history(git_repos, git_cli, tmp_path):
    repo = git_repos["loose"]
    got = await imported(gitrepos.zip_inside(repo, tmp_path / "in.zip"))
    files = got.files
    # Imported as files, as they were in the folder ...
    assert await files.read_text("secret.env") == "KEY=sk-not-for-git\n"
    # ... but no checkpoint takes them: the import made none (nothing else differed).
    history = await got.service.history()
    assert (await history.list())[0].message == "Opening hours"
    await files.write_text("notes.txt", "new\n")
    cp = await got.service.saved(["notes.txt"])
    assert [f.path for f in cp.files] == ["notes.txt"]
    out = await got.downloaded(tmp_path / "out")
    assert git_cli(out, "ls-files", "secret.env") == ""
    assert git_cli(out, "status", "--porcelain", "--ignored").split() == [
        "!!",
        "build/",
        "!!",
        "secret.env",
    ]


async def test_a_submodule_entry_is_kept_and_shown_as_such(git_repos, git_cli, tmp_path):
    repo = git_repos["submodule"]
    got = await imported(gitrepos.zip_inside(repo, tmp_path / "in.zip"))
    # The checked-out submodule's pointer to its history elsewhere is refused, with why.
    assert [(r.name, r.reason) for r in got.result.refused] == [
        ("lib/.git", "a git folder inside the project (another repository's history)")
    ]
    history = await got.service.history()
    (first,) = await history.list()
    changes = {f.path: f for f in first.files}
    assert changes["lib"].submodule and changes["lib"].kind == "added"
    assert "Submodule lib: commit none → " in await history.diff(first.id, "lib")
    # The library's files are in the project, but a checkpoint leaves them to the submodule.
    files = got.files
    await files.write_text("lib/lib.js", "changed\n")
    await files.write_text("index.html", "<p>changed</p>\n")
    cp = await got.service.saved(["index.html", "lib/lib.js"])
    assert [f.path for f in cp.files] == ["index.html"]
    layout = await history.layout()
    assert layout.submodules == ("lib",)
    # Without the library's folder (removed here, or a clone without --recursive),
    # the download still has it, empty, as git expects a submodule not checked out.
    await got.files.remove("lib", recursive=True)
    out = await got.downloaded(tmp_path / "out")
    assert (out / "lib").is_dir() and not any((out / "lib").iterdir())
    assert gitrepos.clean_checks(git_cli, out) == {"fsck": "0", "status": "", "diff": ""}


async def test_a_symbolic_link_stays_in_the_history_and_comes_back_in_the_download(
    git_repos, git_cli, tmp_path
):
    """A project here holds files only, so a link of an imported history is not one of
    its files; checkpoints keep it as it was (not "deleted"), a revert to a checkpoint
    that has it works, and the download gives git its link back."""
    git = gitrepos.Git(git_cli.home)
    repo = tmp_path / "linked"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "index.html").write_text("<h1>Home</h1>\n")
    (repo / "docs").mkdir()
    (repo / "latest.html").symlink_to("index.html")
    (repo / "docs" / "home.html").symlink_to("../index.html")
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", "Home with links")
    got = await imported(gitrepos.zip_inside(repo, tmp_path / "in.zip"))
    assert {r.name for r in got.result.refused} == {"latest.html", "docs/home.html"}
    history = await got.service.history()
    (first,) = await history.list()

    await got.files.write_text("index.html", "<h1>Changed</h1>\n")
    mine = await got.service.saved(["index.html"])
    assert [(f.path, f.kind) for f in mine.files] == [("index.html", "modified")]
    back = await got.service.revert(first.id)
    assert [(f.path, f.kind) for f in back.files] == [("index.html", "modified")]
    assert await got.files.read_text("index.html") == "<h1>Home</h1>\n"

    out = await got.downloaded(tmp_path / "out")
    assert os.readlink(out / "latest.html") == "index.html"
    assert os.readlink(out / "docs" / "home.html") == "../index.html"
    assert gitrepos.clean_checks(git_cli, out) == {"fsck": "0", "status": "", "diff": ""}
    assert first_parent_log(git_cli, out) == [back.id, mine.id, first.id]


async def test_githubs_download_zip_lands_at_the_top_and_says_so(git_repos, git_cli, tmp_path):
    git = gitrepos.Git(git_cli.home)
    data = gitrepos.github_zip(git, git_repos["loose"], tmp_path / "gh.zip", "tea-main")
    got = await imported(data, "tea-main")
    assert got.result.top_folder == "tea-main" and not got.result.has_history
    files = got.files
    assert await files.read_text("index.html") == "<h1>Tea shop</h1>\n<p>Open daily</p>\n"
    text = imported_text("tea-main", got.result)
    assert "with its history" not in text
    assert "Everything was in one folder, “tea-main/”" in text
    # A new history starts and goes out clean.
    cp = await got.service.saved(["index.html"])
    assert cp is not None and cp.parent is None
    out = await got.downloaded(tmp_path / "out")
    assert gitrepos.clean_checks(git_cli, out) == {"fsck": "0", "status": "", "diff": ""}


@pytest.mark.parametrize("shape", ["loose", "cloned"])
async def test_a_folder_zipped_from_outside_with_its_git_inside(
    shape, git_repos, git_cli, tmp_path
):
    repo = git_repos[shape]
    data = gitrepos.zip_outside(repo, tmp_path / "out.zip", "tea-main")
    got = await imported(data, "tea-main")
    assert got.result.top_folder == "tea-main" and got.result.has_history
    files = got.files
    assert not await files.exists("tea-main")
    history = await got.service.history()
    assert [cp.id for cp in await history.list()] == first_parent_log(git_cli, repo)
    await files.write_text("index.html", "<h1>Next</h1>\n")
    await got.service.saved(["index.html"])
    out = await got.downloaded(tmp_path / "dl")
    assert gitrepos.clean_checks(git_cli, out) == {"fsck": "0", "status": "", "diff": ""}
    # No checkpoint ever holds a .git of its own (git fsck's hasDotgit).
    assert ".git" not in git_cli(out, "ls-tree", "-r", "--name-only", "HEAD").split("/")


async def test_a_download_first_takes_what_is_not_yet_in_history(git_repos, git_cli, tmp_path):
    got = await imported(gitrepos.zip_inside(git_repos["master"], tmp_path / "in.zip"))
    # Chief wrote his plan between runs; a save's checkpoint did not happen.
    await got.files.write_text(".chief/plan.md", "Build a menu.\n")
    await got.files.write_text("style.css", "body { color: red; }\n")
    out = await got.downloaded(tmp_path / "out")
    assert gitrepos.clean_checks(git_cli, out) == {"fsck": "0", "status": "", "diff": ""}
    assert git_cli(out, "log", "-3", "--format=%an|%s").splitlines() == [
        "Wiggum|Chief's and Ralph's notes, before download",
        "you|Before download",
        "Ada Lovelace|Styles",
    ]
    assert git_cli(out, "symbolic-ref", "--short", "HEAD").strip() == "master"


async def test_a_history_missing_its_pack_says_why(git_repos, tmp_path):
    from wiggum.project.history_errors import HistoryUnreadable

    got = await imported(gitrepos.zip_inside(git_repos["gc"], tmp_path / "in.zip"))
    for path in await got.files.list(".git/objects/pack"):
        await got.files.remove(path)
    history = await HistoryService(got.files).history()
    with pytest.raises(HistoryUnreadable) as refused:
        await history.list()
    assert str(refused.value).startswith("History could not be read: its object ")
    assert "is missing from .git/. Your files are untouched" in str(refused.value)
