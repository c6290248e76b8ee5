"""Repositories git made, imported in Chromium through the projects dialog, on one
booted page: the import says what it did and that the history came; the History
panel shows git's commits and follows the project opened; a revert to a
checkpoint that holds a name outside the project is refused in the person's
words; a history that cannot be read says why, empties the list and a save says
its checkpoint failed; a history over its limit is offered without it; the
download is one the real ``git`` finds clean.  Each test imports what it needs,
so any of them runs alone."""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest
import wiggum_e2e
from wiggum_e2e import booted_page, open_app, open_projects, run_async, set_size, show_pane, tid
from wiggum_e2e import open_history as show_history

from tests import gitrepos

pytestmark = pytest.mark.e2e

SHOTS = Path(os.environ.get("WIGGUM_SHOTS", "/tmp/shots-git-import"))


@pytest.fixture(scope="module")
def repos(tmp_path_factory) -> dict[str, Path]:
    if shutil.which("git") is None or shutil.which("zip") is None:
        pytest.skip("git and zip are needed (scripts/test.sh installs them)")
    return gitrepos.build(tmp_path_factory.mktemp("repos"))


@pytest.fixture(scope="module")
def gpage(browser, base_url):
    with booted_page(browser, base_url, mounted=True, accept_downloads=True) as page:
        set_size(page, 1280, 800)
        yield page


def shots(page, name: str, target: str | None = None, *, pane: str = "files") -> None:
    """Screenshots at a desktop's and a phone's size, ``target`` in view (on a
    phone the workspace's panes are sub-tabs: ``pane`` is shown)."""
    SHOTS.mkdir(parents=True, exist_ok=True)
    for w, hgt in ((1280, 800), (390, 844)):
        set_size(page, w, hgt)
        if target is not None:
            show_pane(page, pane)
            page.locator(target).first.scroll_into_view_if_needed()
        page.wait_for_timeout(200)
        page.screenshot(path=str(SHOTS / f"{name}-{w}x{hgt}.png"))
    set_size(page, 1280, 800)


def import_zip(page, name: str, data: bytes, *, wait: str = "import-result"):
    open_projects(page)
    page.set_input_files(
        tid("import-files"), files=[{"name": name, "mimeType": "application/zip", "buffer": data}]
    )
    shown = page.locator(tid(wait))
    shown.wait_for(state="visible", timeout=60_000)
    return shown


def opened(page, name: str) -> None:
    page.wait_for_function(
        "document.querySelector('[data-testid=project-switcher]').selectedOptions[0]"
        f"?.textContent === {name!r}",
        timeout=30_000,
    )


def close_projects(page) -> None:
    if page.locator(tid("projects-dialog")).is_visible():
        page.click(f"{tid('projects-dialog')} [data-action=close]")


def open_history(page):
    close_projects(page)
    return show_history(page)


def history_messages(page, count: int) -> list[str]:
    page.wait_for_function(
        f"document.querySelectorAll('[data-testid=history-item]').length >= {count}",
        timeout=30_000,
    )
    loc = page.locator(f"{tid('history-item')} .history-message")
    return [loc.nth(i).text_content() for i in range(loc.count())]


def test_a_git_zip_of_a_folder_comes_in_at_the_top_with_its_history(gpage, repos, tmp_path):
    page = gpage
    data = gitrepos.zip_outside(repos["gc"], tmp_path / "tea.zip", "tea-main")
    result = import_zip(page, "tea-main.zip", data)
    text = result.text_content()
    assert "with its history" in text and "“tea-main”" in text
    assert "Everything was in one folder, “tea-main/”" in text
    opened(page, "tea-main")
    shots(page, "imported")
    open_history(page)
    assert history_messages(page, 3) == ["Opening hours", "About page", "First page"]
    authors = page.locator(f"{tid('history-item')} .history-author")
    assert authors.first.text_content() == "Ada Lovelace"
    shots(page, "history-after-import", tid("history"), pane="history")


def test_history_follows_the_open_project_and_says_why_it_cannot_be_read(
    gpage, repos, tmp_path, base_url
):
    page = gpage
    import_zip(page, "master.zip", gitrepos.zip_inside(repos["master"], tmp_path / "m.zip"))
    opened(page, "master")
    open_history(page)
    assert history_messages(page, 2) == ["Styles", "On master"]
    # Its packs gone (a damaged copy): the next project open says why, lists nothing.
    pid = run_async(
        page,
        """
        from wiggum.web.app import APP
        raw = APP.storage.files(APP.project_id)
        for path in await raw.list(".git/objects"):
            await raw.remove(path)
        APP.project_id
        """,
    )
    open_app(page, base_url, reload=True)
    page.wait_for_selector(wiggum_e2e.MOUNTED, timeout=30_000)
    opened(page, "master")
    open_history(page)
    status = page.locator(tid("history-status"))
    page.wait_for_function(
        "document.querySelector('[data-testid=history-status]').textContent"
        ".startsWith('History could not be read')",
        timeout=30_000,
    )
    assert "is missing from .git/" in status.text_content()
    assert "Your files are untouched" in status.text_content()
    assert page.locator(tid("history-item")).count() == 0  # nothing of another project
    shots(page, "history-unreadable", tid("history"), pane="history")
    # A save in the editor still saves, and says its checkpoint could not be kept, and why.
    wiggum_e2e.type_at_the_end(page, "index.html", "<p>saved anyway</p>\n")
    page.keyboard.press("Control+s")
    page.wait_for_selector(f'{tid("editor")}[data-unsaved="false"]', timeout=20_000)
    message = page.locator(tid("editor-message"))
    page.wait_for_function(
        "document.querySelector('[data-testid=editor-message]').textContent.startsWith('Saved, but')",
        timeout=20_000,
    )
    assert message.text_content().startswith(
        "Saved, but no checkpoint was kept in History. History could not be read"
    )
    assert run_async(
        page,
        """
        from wiggum.web.app import APP
        await APP.coordinator.fs.read_text("index.html")
        """,
    ).endswith("<p>saved anyway</p>\n")
    shots(page, "save-checkpoint-failed", tid("editor-message"), pane="code")
    assert pid


def test_a_revert_to_a_checkpoint_with_a_name_outside_the_project_is_refused(
    gpage, repos, tmp_path
):
    page = gpage
    import_zip(page, "loose.zip", gitrepos.zip_inside(repos["loose"], tmp_path / "l.zip"))
    opened(page, "loose")
    # A checkpoint made elsewhere whose tree holds "../escape.html", then one on top.
    bad = run_async(
        page,
        """
        from dulwich.objects import Blob, Commit, Tree
        from wiggum.web.app import APP
        from wiggum.project.gitrefs import read_head
        raw = APP.storage.files(APP.project_id)
        h = await APP.project.history.history()
        head = await read_head(raw)
        blob = Blob.from_string(b"<p>outside</p>")
        inner = Tree(); inner.add(b"escape.html", 0o100644, blob.id)
        top = Tree(); top.add(b"..", 0o040000, inner.id); top.add(b"index.html", 0o100644, blob.id)
        c = Commit(); c.tree = top.id; c.parents = [head.sha]
        c.author = c.committer = b"Mallory <m@example.org>"
        c.author_time = c.commit_time = 1700000000
        c.author_timezone = c.commit_timezone = 0
        c.message = b"Made elsewhere\\n"
        for obj in (blob, inner, top, c):
            h.objects.add(obj)
        items = {**h.objects.pack_new(), **head.moved(c.id)}
        await raw.write_many(items)
        h.objects.written(items)
        await APP.coordinator.fs.write_text("index.html", "<h1>Mine</h1>\\n")
        await APP.checkpoint_after_save(["index.html"])
        c.id.decode()
        """,
    )
    open_history(page)
    history_messages(page, 5)
    item = page.locator(f'{tid("history-item")}[data-id="{bad}"]')
    revert = item.locator(tid("history-revert"))
    revert.click()
    revert.click()
    status = page.locator(tid("history-status"))
    page.wait_for_function(
        "document.querySelector('[data-testid=history-status]').textContent.startsWith('Not done')",
        timeout=20_000,
    )
    text = status.text_content()
    assert f"Checkpoint {bad[:7]} cannot be restored" in text
    assert "“../escape.html”: climbs out of the project (..)" in text
    assert text.endswith("Your files are as they were.")
    assert "Error" not in text and "PathError" not in text
    assert (
        run_async(
            page,
            """
        from wiggum.web.app import APP
        await APP.coordinator.fs.read_text("index.html")
        """,
        )
        == "<h1>Mine</h1>\n"
    )
    shots(page, "revert-refused", tid("history-status"), pane="history")


def test_a_history_over_its_limit_is_offered_without_it(gpage, repos, tmp_path):
    page = gpage
    run_async(
        page,
        """
        import wiggum.project.importing as importing
        importing.MAX_HISTORY_BYTES = 2000
        True
        """,
    )
    try:
        data = gitrepos.zip_inside(repos["cloned"], tmp_path / "c.zip")
        error = import_zip(page, "cloned.zip", data, wait="projects-error")
        assert "history" in error.text_content() and "without its history" in error.text_content()
        offer = page.locator(tid("import-without-history"))
        assert offer.is_visible()
        shots(page, "history-too-large")
        offer.click()
        result = page.locator(tid("import-result"))
        result.wait_for(state="visible", timeout=60_000)
        assert "Its history was left out, as you asked" in result.text_content()
        opened(page, "cloned")
    finally:
        run_async(
            page,
            """
            import wiggum.project.importing as importing
            importing.MAX_HISTORY_BYTES = 100 * 1024 * 1024
            True
            """,
        )


def test_the_download_of_an_imported_repository_is_clean_for_git(gpage, repos, tmp_path):
    page = gpage
    import_zip(page, "shop.zip", gitrepos.zip_inside(repos["cloned"], tmp_path / "s.zip"))
    opened(page, "shop")
    run_async(
        page,
        """
        from wiggum.web.app import APP
        await APP.coordinator.fs.write_text("index.html", "<h1>From the page</h1>\\n")
        await APP.checkpoint_after_save(["index.html"])
        True
        """,
    )
    open_projects(page)
    current = page.locator(f"{tid('project-row')}.current")
    with page.expect_download(timeout=60_000) as info:
        current.locator(tid("project-download")).click()
    out = gitrepos.unzip(Path(info.value.path()).read_bytes(), tmp_path / "out")
    git = gitrepos.Git(repos["loose"].parent / "home")
    assert gitrepos.clean_checks(git, out) == {"fsck": "0", "status": "", "diff": ""}
    assert git(out, "log", "-2", "--format=%an|%s").splitlines() == [
        "you|Edit index.html",
        "Ada Lovelace|Opening hours",
    ]
    assert git(out, "tag").split() == ["v1", "v2"]
