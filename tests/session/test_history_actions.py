"""What the History panel does with the project's history service (``wiggum.session.history``)."""

from __future__ import annotations

from dataclasses import dataclass, field

from wiggum.fs import MemoryFileStore
from wiggum.project.history_errors import unreadable
from wiggum.project.service import HistoryService
from wiggum.session.history import list_checkpoints, read_diff, restore, revert
from wiggum.ui.tab_lock import PAUSED_TEXT, ProjectPaused


async def test_no_project_says_so_and_empties_the_list():
    listing = await list_checkpoints(None)
    assert (listing.status, listing.checkpoints) == ("No project is open.", [])


async def test_a_real_history_lists_newest_first_reverts_and_restores():
    fs = MemoryFileStore({"index.html": "<h1>One</h1>"})
    service = HistoryService(fs)
    assert (await list_checkpoints(service)).status.startswith("No checkpoints yet")
    first = await service.saved(["index.html"])
    await fs.write_text("index.html", "<h1>Two</h1>")
    await service.saved(["index.html"])
    listing = await list_checkpoints(service)
    assert listing.status == "2 checkpoints"
    assert [cp.message for cp in listing.checkpoints] == ["Edit index.html"] * 2

    diff = await read_diff(service, listing.checkpoints[0].id, "index.html")
    assert "-<h1>One</h1>" in diff and "+<h1>Two</h1>" in diff

    acted = await revert(service, first.id)
    assert (acted.done, acted.status) == (True, "Reverted: a new checkpoint was made.")
    assert await fs.read_text("index.html") == "<h1>One</h1>"
    # Reverting to what the project already is: the history's own words say so.
    again = await revert(service, first.id)
    assert not again.done
    assert again.status.startswith("Not done: ") and "already" in again.status
    assert again.status.endswith("Your files are as they were.")

    restored = await restore(service, listing.checkpoints[0].id, "index.html")
    assert (restored.done, restored.status) == (True, "Restored index.html.")
    assert await fs.read_text("index.html") == "<h1>Two</h1>"


@dataclass
class Broken:
    """A history service whose reads and actions fail with ``error``."""

    error: Exception
    log: list = field(default_factory=list)

    def subscribe(self, fn):
        return lambda: None

    async def history(self):
        raise self.error

    async def revert(self, checkpoint):
        raise self.error

    async def restore_file(self, checkpoint, path):
        raise self.error


async def test_failures_are_said_in_the_persons_words_never_by_class_name(caplog):
    paused = await list_checkpoints(Broken(ProjectPaused("p")))
    assert paused.status == f"History could not be read. {PAUSED_TEXT}"
    assert paused.checkpoints == []  # another project's checkpoints never stay on screen
    broken = await list_checkpoints(Broken(OSError("disk")))
    assert broken.status == (
        "History could not be read: something went wrong (the details are in the Log). "
        "Your files are untouched; reload the page to try again."
    )
    assert broken.checkpoints == [] and "OSError: disk" in caplog.text
    unread = await list_checkpoints(Broken(unreadable("a part of it is missing")))
    assert unread.status == (
        "History could not be read: a part of it is missing. Your files are untouched; "
        "repair .git/ with git, or import the project again without its history."
    )
    acted = await revert(Broken(ProjectPaused("p")), "abc")
    assert acted.status == f"Not done: {PAUSED_TEXT.rstrip('.')}. Your files are as they were."
    acted = await restore(Broken(KeyError("secret detail")), "abc", "a.txt")
    assert acted.status == (
        "Not done: something went wrong (the details are in the Log). Your files are as they were."
    )
    assert "KeyError" not in acted.status


async def test_a_diff_that_cannot_be_read_says_so():
    class NoDiff:
        async def diff(self, checkpoint, path):
            raise LookupError(checkpoint)

    class Source(Broken):
        async def history(self):
            return NoDiff()

    assert await read_diff(Source(OSError()), "abc", "a.txt") == (
        "The changes could not be read: something went wrong (the details are in the Log)"
    )
