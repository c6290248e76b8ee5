"""The projects dialog on a fake page over memory storage: its rows, Duplicate,
the question before a delete and the delete itself, the refusal when another
tab has the project open, and what an import makes and refuses.

What it decides is ``wiggum.session.stored_projects`` (tested in
``tests/session``); this holds the view to drawing it where the person acted.
"""

from __future__ import annotations

from types import SimpleNamespace
from typing import Any

from tests.web.fake_dom import FakeBrowser, is_shown
from tests.web.test_views_build import Projects
from wiggum.persist import MemoryAppStorage
from wiggum.ui.tab_lock import DELETE_REFUSED_TEXT


class App(Projects):
    """The app's side, with a project maybe open in another tab."""

    def __init__(self, storage: MemoryAppStorage, open_id: str, elsewhere: str = "") -> None:
        super().__init__(storage, open_id)
        self.elsewhere = elsewhere

    async def open_elsewhere(self, project_id: str) -> bool:
        return project_id == self.elsewhere


async def opened(dom: FakeBrowser, *, elsewhere: bool = False) -> tuple[Any, list[str]]:
    """The dialog open on two projects (Bakery open here, Quiz maybe in another tab)."""
    from wiggum.web.project_ops import ProjectOps
    from wiggum.web.views.projects_dialog import ProjectsDialog

    storage = MemoryAppStorage()
    ids = [(await storage.create_project(name))["id"] for name in ("Bakery", "Quiz")]
    await storage.files(ids[0]).write_text("index.html", "<h1>Bakery</h1>")
    dialog = ProjectsDialog(rename_open=lambda: None)
    dom.document.body.appendChild(dialog.dialog)
    dialog.attach(App(storage, ids[0], ids[1] if elsewhere else ""), ProjectOps(storage))
    dialog.open()
    await dom.flush()
    return dialog, ids


def rows(dialog: Any) -> dict[str, Any]:
    found = dialog.parts.rows.querySelectorAll("[data-testid=project-row]")
    return {r.querySelector(".project-row-name").textContent: r for r in found}


def click(row: Any, testid: str) -> None:
    row.querySelector(f"[data-testid={testid}]").click()


async def test_each_project_has_a_row_and_the_open_one_cannot_be_opened_again(dom):
    dialog, _ = await opened(dom)
    listed = rows(dialog)
    assert list(listed) == ["Bakery", "Quiz"]
    assert "current" in listed["Bakery"].classList
    assert listed["Bakery"].querySelector("[data-testid=project-open]").disabled
    assert "1 file" in listed["Bakery"].querySelector("[data-testid=project-meta]").textContent


async def test_duplicate_adds_a_copy_to_the_list(dom):
    dialog, _ = await opened(dom)
    click(rows(dialog)["Bakery"], "project-duplicate")
    await dom.flush()
    assert list(rows(dialog)) == ["Bakery", "Quiz", "Bakery copy"]


async def test_delete_asks_first_then_deletes(dom):
    dialog, (_, quiz) = await opened(dom)
    click(rows(dialog)["Quiz"], "project-delete")
    await dom.flush()
    assert is_shown(dialog.parts.confirm) and "Quiz" in dialog.parts.confirm.textContent
    confirm = dialog.parts.confirm.querySelector("[data-testid=project-delete-confirm]")
    assert confirm.getAttribute("data-id") == quiz
    confirm.click()
    await dom.flush()
    assert not is_shown(dialog.parts.confirm) and list(rows(dialog)) == ["Bakery"]


async def test_keep_it_deletes_nothing(dom):
    dialog, _ = await opened(dom)
    click(rows(dialog)["Quiz"], "project-delete")
    await dom.flush()
    dialog.parts.confirm.querySelector("[data-action=cancel-delete]").click()
    await dom.flush()
    assert not is_shown(dialog.parts.confirm) and list(rows(dialog)) == ["Bakery", "Quiz"]


async def test_a_project_open_in_another_tab_stays_and_the_dialog_says_why(dom):
    dialog, _ = await opened(dom, elsewhere=True)
    click(rows(dialog)["Quiz"], "project-delete")
    await dom.flush()
    dialog.parts.confirm.querySelector("[data-testid=project-delete-confirm]").click()
    await dom.flush()
    assert is_shown(dialog.parts.error) and dialog.parts.error.textContent == DELETE_REFUSED_TEXT
    assert list(rows(dialog)) == ["Bakery", "Quiz"]


class File:
    """A ``File`` as the page reads it: a name, a folder path, its bytes."""

    def __init__(self, name: str, data: bytes) -> None:
        self.name, self.webkitRelativePath, self._data = name, "", data

    async def arrayBuffer(self) -> Any:
        return SimpleNamespace(to_py=lambda: self._data)


class FileList:
    def __init__(self, *files: File) -> None:
        self._files, self.length = files, len(files)

    def item(self, i: int) -> File:
        return self._files[i]


async def test_an_import_opens_the_new_project_and_lists_what_it_refused(dom):
    dialog, _ = await opened(dom)
    chosen = FileList(File("index.html", b"<h1>Hi</h1>"), File("/etc/passwd", b"x"))
    dialog.parts.file_input.files = chosen
    dialog.parts.file_input.value = "C:\\fakepath\\index.html"  # what the browser says was chosen
    dialog.parts.file_input.dispatch("change")
    await dom.flush()
    assert dialog.parts.file_input.value == ""  # the same files can be chosen again
    assert is_shown(dialog.parts.result) and "as the new project “Imported project”" in (
        dialog.parts.result.textContent
    )
    refused = dialog.parts.result.querySelectorAll("[data-testid=refused-entry]")
    assert [r.textContent for r in refused] == ["/etc/passwd — absolute path"]
    assert list(rows(dialog)) == ["Bakery", "Quiz", "Imported project"]
    assert dialog.actions.project_id == dialog.parts.rows.lastElementChild.getAttribute(
        "data-project-id"
    )


async def test_what_an_import_made_is_no_longer_said_once_that_project_is_deleted(dom):
    dialog, (bakery, _) = await opened(dom)
    dialog.parts.file_input.files = FileList(File("index.html", b"<h1>Hi</h1>"))
    dialog.parts.file_input.dispatch("change")
    await dom.flush()
    assert is_shown(dialog.parts.result)
    await dialog.actions.switch_project(bakery)  # the open project cannot be deleted
    click(rows(dialog)["Quiz"], "project-delete")  # another project: the line stays
    await dom.flush()
    dialog.parts.confirm.querySelector("[data-testid=project-delete-confirm]").click()
    await dom.flush()
    assert is_shown(dialog.parts.result)
    click(rows(dialog)["Imported project"], "project-delete")
    await dom.flush()
    dialog.parts.confirm.querySelector("[data-testid=project-delete-confirm]").click()
    await dom.flush()
    assert list(rows(dialog)) == ["Bakery"] and not is_shown(dialog.parts.result)
