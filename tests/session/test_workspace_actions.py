"""What the workspace does when the person acts on files: open, refresh, save,
and the file operations, against a memory FileStore."""

from __future__ import annotations

from wiggum.fs import FileNotFound, MemoryFileStore, StorageFull
from wiggum.session.workspace import (
    SAVE_BEFORE_IMAGE,
    Done,
    OpenFiles,
    Picked,
    create,
    delete,
    rename,
    save_file,
    submit,
    upload,
)
from wiggum.ui.editor_buffer import Buffer
from wiggum.ui.tab_lock import PAUSED_TEXT, ProjectPaused
from wiggum.ui.workspace import UPLOAD_LIMIT

# ------------------------------------------------------------------ the open file


def test_a_refresh_reopens_the_open_file_while_it_is_listed():
    state = OpenFiles(current="a.html")
    assert state.after_refresh(["a.html", "b.css"], editor_dirty=False) == "reopen"
    assert state.current == "a.html"
    assert OpenFiles().after_refresh(["a.html"], editor_dirty=False) == "none"


def test_a_refresh_keeps_unsaved_edits_of_a_file_that_went_away():
    state = OpenFiles(current="a.html")
    assert state.after_refresh(["b.css"], editor_dirty=True) == "keep"
    assert state.current == "a.html"  # a save writes it again
    assert state.after_refresh(["b.css"], editor_dirty=False) == "close"
    assert state.current is None


def test_buffers_with_something_unsaved_are_kept_while_another_file_is_open():
    state = OpenFiles(current="a.html")
    state.keep(Buffer("clean.html", "x", "x"))
    state.keep(Buffer("dirty.html", "x", "y"))
    state.keep(Buffer("conflict.html", "x", "x", theirs="z"))
    assert sorted(state.kept) == ["conflict.html", "dirty.html"]
    assert state.unsaved("dirty.html", None)
    assert not state.unsaved("clean.html", None)
    # The open editor's own flag wins for its file.
    assert state.unsaved("a.html", ("a.html", True))
    assert not state.unsaved("dirty.html", ("dirty.html", False))
    assert state.any_unsaved(editor_dirty=False)
    assert state.take("dirty.html").text == "y"
    assert state.take("dirty.html") is None
    state.forget()
    assert (state.current, state.kept) == (None, {})
    assert not state.any_unsaved(editor_dirty=False)
    assert state.any_unsaved(editor_dirty=True)


def test_an_svg_opens_as_its_image_and_keeps_its_way_while_reopened():
    state = OpenFiles()
    state.opening("logo.svg")
    assert state.svg_switch(True, editor_dirty=False) == "switch"
    assert state.svg_source
    state.opening("logo.svg")  # the same file again: still its source
    assert state.svg_source
    assert state.svg_switch(True, editor_dirty=False) is None  # already so
    # Its image while its source has unsaved edits: refused, with the way out.
    assert state.svg_switch(False, editor_dirty=True) == SAVE_BEFORE_IMAGE
    assert state.svg_source
    state.opening("other.svg")
    assert not state.svg_source


# ------------------------------------------------------------------ saving


class Refusing(MemoryFileStore):
    def __init__(self, error: Exception) -> None:
        super().__init__()
        self.error = error

    async def write_bytes(self, path: str, data: bytes) -> None:
        raise self.error


async def test_a_save_writes_the_text():
    fs = MemoryFileStore()
    assert await save_file(fs, "a.html", "<h1>Hi</h1>") is None
    assert await fs.read_text("a.html") == "<h1>Hi</h1>"


async def test_a_refused_save_says_why_and_that_the_text_is_kept():
    paused = await save_file(Refusing(ProjectPaused("p")), "a.html", "x")
    assert paused == f"Not saved. {PAUSED_TEXT} Your text is still here."
    full = await save_file(Refusing(StorageFull("a.html", 10, 10)), "a.html", "x")
    assert full.startswith("Not saved. The browser's storage for this page is full")
    assert full.endswith("Your text is still here: save again then.")
    other = await save_file(Refusing(FileNotFound("a.html")), "a.html", "x")
    assert other.startswith("Not saved: a.html: No such file or directory.")
    assert "free some space or download the project" in other


# ------------------------------------------------------------------ file operations


async def test_create_a_file_or_a_folder_in_the_open_files_folder():
    fs = MemoryFileStore({"pages/menu.html": "m"})
    done = await create(fs, "pages", "team.html")
    assert (done.message, done.error) == ("Created pages/team.html.", False)
    assert (done.changed, done.open_path) == (("pages/team.html",), "pages/team.html")
    assert await fs.read_bytes("pages/team.html") == b""
    folder = await create(fs, "", "img", is_folder=True)
    assert folder.message == "Created img." and await fs.is_dir("img")


async def test_create_refuses_a_bad_or_taken_name_and_changes_nothing():
    fs = MemoryFileStore({"pages/menu.html": "m"})
    bad = await create(fs, "pages", "../../evil.html")
    assert bad.error and "'..'" in bad.message and bad.changed == ()
    taken = await create(fs, "pages", "menu.html")
    assert taken == Done("pages/menu.html already exists. Choose another name.", error=True)
    assert await fs.list() == ["pages/menu.html"]


async def test_rename_in_place_and_its_refusals():
    fs = MemoryFileStore({"pages/menu.html": "m", "pages/team.html": "t"})
    done = await rename(fs, "pages/menu.html", "food.html")
    assert done.message == "Renamed to pages/food.html."
    assert done.changed == ("pages/menu.html", "pages/food.html")
    assert done.open_path == "pages/food.html"
    assert await fs.read_text("pages/food.html") == "m"
    assert (await rename(fs, "pages/food.html", "team.html")).message.startswith(
        "pages/team.html already exists"
    )
    assert "already its name" in (await rename(fs, "pages/food.html", "food.html")).message


async def test_delete_closes_the_file_and_a_store_error_is_said():
    fs = MemoryFileStore({"a.html": "a"})
    done = await delete(fs, "a.html")
    assert (done.message, done.closed, done.changed) == ("Deleted a.html.", True, ("a.html",))
    again = await delete(fs, "a.html")
    assert again.error and again.message == "Could not do that: a.html: No such file or directory"
    assert not again.closed


async def test_the_forms_ok_does_what_its_operation_says_and_nothing_without_a_file():
    fs = MemoryFileStore({"pages/menu.html": "m"})
    made = await submit(fs, "new-folder", "img", current="pages/menu.html", folder="pages")
    assert made.message == "Created pages/img." and await fs.is_dir("pages/img")
    made = await submit(fs, "new-file", "a.html", current=None, folder="")
    assert made.open_path == "a.html" and await fs.exists("a.html")
    renamed = await submit(fs, "rename", "food.html", current="pages/menu.html", folder="pages")
    assert renamed.open_path == "pages/food.html"
    gone = await submit(fs, "delete", "", current="a.html", folder="")
    assert gone.closed and not await fs.exists("a.html")
    # The file the form was for is no longer open, or no form is: nothing happens.
    assert await submit(fs, "rename", "x.html", current=None, folder="") is None
    assert await submit(fs, "delete", "", current=None, folder="") is None
    assert await submit(fs, None, "x.html", current="pages/food.html", folder="pages") is None
    assert sorted(await fs.list("", recursive=True)) == ["pages/food.html"]


def picked(name: str, data: bytes, size: int | None = None) -> Picked:
    async def read() -> bytes:
        return data

    return Picked(name, len(data) if size is None else size, read)


async def test_upload_stores_what_passes_and_says_why_each_other_file_did_not():
    fs = MemoryFileStore({"img/old.png": b"\x89"})
    done = await upload(
        fs,
        "img",
        [
            picked("logo.png", b"\x89PNG\x00"),
            picked("big.png", b"", size=UPLOAD_LIMIT + 1),
            picked("a:b.png", b"x"),
            picked("icon.png", b"\x01"),
        ],
    )
    assert await fs.read_bytes("img/logo.png") == b"\x89PNG\x00"
    assert done.changed == ("img/logo.png", "img/icon.png")
    assert done.open_path == "img/icon.png"
    assert done.error
    assert done.message.startswith("Uploaded img/logo.png, img/icon.png. big.png is ")
    assert ": " in done.message and "a:b.png" in done.message
    assert not await fs.exists("img/big.png")


async def test_upload_of_nothing_that_passes_stores_nothing_and_opens_nothing():
    fs = MemoryFileStore()
    done = await upload(fs, "", [picked("big.png", b"", size=UPLOAD_LIMIT + 1)])
    assert (done.changed, done.open_path, done.error) == ((), None, True)
    full = await upload(Refusing(StorageFull("x.png")), "", [picked("x.png", b"x")])
    assert full.message.startswith("x.png: could not be stored: The browser's storage")
