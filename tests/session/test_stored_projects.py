"""Stored projects as wholes (wiggum.session.stored_projects): the dialog's list
with sizes, a copy or an import that fails leaves nothing half-made, what a
delete opens first and when it is refused, and persistence asked for once."""

from __future__ import annotations

import pytest

from wiggum.fs.errors import FileNotFound, StorageFull
from wiggum.fs.memory import MemoryFileStore
from wiggum.persist import MemoryAppStorage
from wiggum.project.importing import ImportResult
from wiggum.session.projects import EMPTY_PROJECT
from wiggum.session.stored_projects import PERSIST_META, StoredProjects
from wiggum.ui.tab_lock import DELETE_REFUSED_TEXT


class App:
    """The app's side (``ProjectsActions``) over the storage, recording what it was asked."""

    def __init__(self, storage: MemoryAppStorage, open_id: str, *, elsewhere: str = "") -> None:
        self.storage, self.project_id, self.elsewhere = storage, open_id, elsewhere
        self.asked: list[str] = []

    async def switch_project(self, project_id: str) -> None:
        # Another opens while the deleted one is still there: a project is always open.
        self.asked.append(f"switch {project_id} of {len(await self.storage.list_projects())}")
        self.project_id = project_id

    async def create_project(self, name: str) -> None:
        self.asked.append(f"create {name} of {len(await self.storage.list_projects())}")
        self.project_id = (await self.storage.create_project(name))["id"]

    async def refresh_projects(self) -> None:
        self.asked.append("refresh")

    async def open_elsewhere(self, project_id: str) -> bool:
        return project_id == self.elsewhere


async def no_browser() -> bool:
    raise AssertionError("the browser was asked")


async def projects(*names: str) -> tuple[StoredProjects, list[str]]:
    storage = MemoryAppStorage()
    ids = [(await storage.create_project(name))["id"] for name in names]
    return StoredProjects(storage, no_browser), ids


async def ids_of(stored: StoredProjects) -> list[str]:
    return [p.id for p in await stored.list()]


def quota_full(monkeypatch: pytest.MonkeyPatch) -> None:
    async def refuse(self: MemoryFileStore, path: str, data: bytes) -> None:
        raise StorageFull(path)

    async def refuse_many(self: MemoryFileStore, items: dict, **_: object) -> None:
        raise StorageFull(next(iter(items), ""))

    monkeypatch.setattr(MemoryFileStore, "write_bytes", refuse)
    monkeypatch.setattr(MemoryFileStore, "write_many", refuse_many)


async def test_the_list_gives_each_projects_size_files_and_last_change():
    stored, (bakery, quiz) = await projects("Bakery", "Quiz")
    files = stored.storage.files(bakery)
    await files.write_text("index.html", "<h1>Bakery</h1>")
    await files.write_text("style.css", "h1 {}")
    listed = {p.id: p for p in await stored.list()}
    assert (listed[bakery].name, listed[bakery].size, listed[bakery].files) == ("Bakery", 20, 2)
    assert listed[bakery].changed > 0
    assert (listed[quiz].size, listed[quiz].files) == (0, 0)


async def test_the_list_counts_the_site_and_says_what_the_history_takes_besides():
    stored, (bakery,) = await projects("Bakery")
    files = stored.storage.files(bakery)
    await files.write_text("index.html", "<h1>Bakery</h1>")
    await files.write_text(".git/HEAD", "ref: refs/heads/main\n")
    await files.write_text(".ralph/progress.md", "done")
    (listed,) = await stored.list()
    assert (listed.size, listed.files, listed.stored) == (15, 1, 15 + 21 + 4)


async def test_a_project_deleted_while_it_is_listed_is_left_out(monkeypatch):
    stored, (bakery, quiz) = await projects("Bakery", "Quiz")
    await stored.storage.files(quiz).write_text("index.html", "<h1>Quiz</h1>")
    stats = MemoryFileStore.stats

    async def deleted_meanwhile(self: MemoryFileStore, *args: object, **kw: object) -> object:
        if await self.exists("index.html"):  # the quiz: another tab deletes it now
            await stored.storage.delete_project(quiz)
            raise FileNotFound("index.html")
        return await stats(self, *args, **kw)

    monkeypatch.setattr(MemoryFileStore, "stats", deleted_meanwhile)
    assert await ids_of(stored) == [bakery]


async def test_a_file_that_cannot_be_read_in_a_project_still_stored_is_not_hidden(monkeypatch):
    stored, _ = await projects("Bakery")

    async def broken(self: MemoryFileStore, *args: object, **kw: object) -> object:
        raise FileNotFound("index.html")

    monkeypatch.setattr(MemoryFileStore, "stats", broken)
    with pytest.raises(FileNotFound):
        await stored.list()


async def test_a_duplicate_copies_every_file_under_its_new_name():
    stored, (bakery,) = await projects("Bakery")
    await stored.storage.files(bakery).write_text(".git/HEAD", "ref: refs/heads/main\n")
    copy = await stored.duplicate(bakery, "Bakery copy")
    assert copy["name"] == "Bakery copy"
    assert await stored.storage.files(copy["id"]).read_text(".git/HEAD") == "ref: refs/heads/main\n"


async def test_a_copy_that_fails_half_way_is_removed_and_the_source_kept(monkeypatch):
    stored, (bakery,) = await projects("Bakery")
    await stored.storage.files(bakery).write_text("index.html", "<h1>Bakery</h1>")
    quota_full(monkeypatch)
    with pytest.raises(StorageFull):
        await stored.duplicate(bakery, "Bakery copy")
    assert await ids_of(stored) == [bakery]
    assert await stored.storage.files(bakery).read_text("index.html") == "<h1>Bakery</h1>"


async def test_an_import_that_fails_half_way_is_removed(monkeypatch):
    stored, (bakery,) = await projects("Bakery")
    made = await stored.create_from("Site", ImportResult(files={"a.html": b"<p>a</p>"}))
    assert await stored.storage.files(made["id"]).read_text("a.html") == "<p>a</p>"
    quota_full(monkeypatch)
    with pytest.raises(StorageFull):
        await stored.create_from("Site 2", ImportResult(files={"a.html": b"<p>a</p>"}))
    assert await ids_of(stored) == [bakery, made["id"]]


async def test_deleting_another_project_deletes_it_and_shows_the_list_again():
    stored, (bakery, quiz) = await projects("Bakery", "Quiz")
    app = App(stored.storage, bakery)
    assert await stored.delete(quiz, app) is None
    assert await ids_of(stored) == [bakery] and app.asked == ["refresh"]


async def test_deleting_the_open_project_opens_another_first():
    stored, (bakery, quiz, tea) = await projects("Bakery", "Quiz", "Tea")
    app = App(stored.storage, quiz)
    await stored.delete(quiz, app)
    assert app.asked == [f"switch {tea} of 3", "refresh"] and await ids_of(stored) == [bakery, tea]


async def test_deleting_the_last_project_makes_an_empty_one_first():
    stored, (bakery,) = await projects("Bakery")
    app = App(stored.storage, bakery)
    await stored.delete(bakery, app)
    assert app.asked == [f"create {EMPTY_PROJECT} of 1", "refresh"]
    assert [p.name for p in await stored.list()] == [EMPTY_PROJECT]


async def test_a_project_open_in_another_tab_is_not_deleted():
    stored, (bakery, quiz) = await projects("Bakery", "Quiz")
    app = App(stored.storage, bakery, elsewhere=quiz)
    assert await stored.delete(quiz, app) == DELETE_REFUSED_TEXT
    assert await ids_of(stored) == [bakery, quiz] and app.asked == []


async def test_persistence_is_asked_for_once_and_its_answer_kept():
    asked: list[bool] = []

    async def browser() -> bool:
        asked.append(True)
        return True

    storage = MemoryAppStorage()
    stored = StoredProjects(storage, browser)
    assert await stored.ask_persistence() is True
    assert await StoredProjects(storage, no_browser).ask_persistence() is True
    assert asked == [True] and (await storage.get_meta(PERSIST_META))["granted"] is True
