"""A repository opened from the simulated GitHub, edited, published, changed on GitHub and
pulled, in Chromium on one booted page: the projects dialog opens ``octo/site`` without a
token (its history is GitHub's commits), an edit is published back, a change made on
GitHub comes in as a checkpoint, a file both sides changed is settled each way (keep
mine, take GitHub's, both in the editor), and a private repository opens with a token.
The tests run in order on one page and one simulator; each opens what it needs."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from test_git_import_page import close_projects, history_messages, open_history, opened
from wiggum_e2e import (
    booted_page,
    error_text,
    open_projects,
    open_publish,
    press_publish,
    quick_github,
    run_async,
    set_size,
    tid,
)

pytestmark = pytest.mark.e2e

TOKEN = "github_pat_11E2EOPENPULLSECRET"
SHOTS = Path(os.environ.get("WIGGUM_SHOTS", "/tmp/shots-github-open"))
SITE = {"index.html": b"<h1>Hello</h1>\n", "style.css": b"h1{}\n"}


@pytest.fixture(scope="module")
def gh():
    with quick_github(TOKEN) as s:
        s.add_repo("site", files=SITE)
        s.push("site", {**SITE, "about.html": b"<p>About</p>\n"}, message="About page")
        yield s


@pytest.fixture(scope="module")
def page(browser, base_url, gh):
    with booted_page(browser, base_url, mounted=True) as p:
        set_size(p, 1280, 800)
        # Where the page finds GitHub: the simulator (as the Publish dialog's API field).
        run_async(
            p,
            f"""
            from wiggum.web.app import APP
            s = APP.settings.model_copy(deep=True)
            s.github_api = {gh.base_url!r}
            await APP.save_settings(s)
            "ok"
            """,
        )
        yield p


def shots(page, name: str, target: str | None = None) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    for w, hgt in ((1280, 800), (390, 844)):
        set_size(page, w, hgt)
        if target is not None:
            page.locator(target).first.scroll_into_view_if_needed()
        page.wait_for_timeout(150)
        page.screenshot(path=str(SHOTS / f"{name}-{w}x{hgt}.png"))
    set_size(page, 1280, 800)


def files(page) -> dict[str, bytes]:
    out = run_async(
        page,
        """
        from wiggum.web.app import APP
        fs = APP.coordinator.fs
        names = [p for p in await fs.list("") if not p.startswith(".git/")]
        {p: (await fs.read_bytes(p)).decode("latin-1") for p in names}
        """,
    )
    return {p: v.encode("latin-1") for p, v in out.items()}


def write(page, path: str, text: str) -> None:
    """The person's edit, saved as the editor saves it (a checkpoint of theirs)."""
    run_async(
        page,
        f"""
        from wiggum.web.app import APP
        await APP.coordinator.fs.write_text({path!r}, {text!r})
        await APP.project.history.saved([{path!r}])
        "ok"
        """,
    )


def open_from_github(page, address: str, token: str = "") -> str:
    if page.locator(tid("publish-dialog")).is_visible():
        page.click(tid("publish-close"))
    dialog = open_projects(page)
    page.fill(tid("github-address"), address)
    page.fill(tid("github-depth"), "10")
    page.fill(tid("github-token"), token)
    for said in ("import-result", "projects-error"):  # what the last one said goes
        page.locator(tid(said)).evaluate("el => { el.textContent = ''; }")
    page.click(tid("github-open"))
    page.wait_for_function(
        "['Opened', 'Nothing'].some(w => (document.querySelector("
        "'[data-testid=import-result]').textContent + document.querySelector("
        "'[data-testid=projects-error]').textContent).includes(w + ' '))",
        timeout=60_000,
    )
    error = dialog.locator(tid("projects-error"))
    shown = error if error.is_visible() else dialog.locator(tid("import-result"))
    return shown.text_content()


def ensure_opened(page, gh) -> None:
    current = "document.querySelector('[data-testid=project-switcher]').selectedOptions[0]"
    if page.evaluate(f"{current}?.textContent") != "site":
        said = open_from_github(page, "https://github.com/octo/site")
        assert said.startswith("Opened octo/site from GitHub"), said
        opened(page, "site")
        close_projects(page)


def pull(page) -> str:
    open_publish(page)
    before = page.locator(tid("pull-result")).evaluate("el => el.textContent")
    page.click(tid("publish-pull"))
    page.wait_for_function(
        "b => { const t = document.querySelector('[data-testid=pull-text]'); "
        "return t && t.textContent !== b && !t.textContent.startsWith('Reading'); }",
        arg=before,
        timeout=30_000,
    )
    return page.locator(tid("pull-text")).text_content()


def choose(page, path: str, choice: str) -> str:
    row = page.locator(f'{tid("pull-conflict")}[data-path="{path}"]')
    row.locator(tid(f"pull-{choice}")).click()
    page.wait_for_function(
        "() => !document.querySelector('[data-testid=pull-conflict]')", timeout=30_000
    )
    return page.locator(tid("pull-text")).text_content()


def test_a_public_repository_opens_without_a_token_with_its_history(page, gh) -> None:
    gh.add_repo("secret", private=True, files={"index.html": b"<p>private</p>\n"})
    refused = open_from_github(page, "octo/secret")  # no token typed, none saved yet
    assert refused.startswith("Nothing was opened. GitHub shows no repository octo/secret"), refused
    said = open_from_github(page, "https://github.com/octo/site")
    assert said.startswith("Opened octo/site from GitHub: 3 files and the last 2 commits"), said
    opened(page, "site")
    shots(page, "opened", tid("import-result"))
    assert not any(h.get("authorization") for _, path, h in gh.log if path.startswith("/repos"))
    open_history(page)
    assert history_messages(page, 2)[:2] == ["About page", "Initial commit"]
    assert files(page) == {**SITE, "about.html": b"<p>About</p>\n"}


def test_an_edit_is_published_back_to_the_repository(page, gh) -> None:
    ensure_opened(page, gh)
    write(page, "index.html", "<h1>Edited in Wiggum</h1>\n")
    open_publish(page)
    page.fill(tid("publish-token"), TOKEN)
    assert page.input_value(tid("publish-repo")) == "site"
    press_publish(page)
    assert error_text(page) == ""
    assert gh.files("site") == files(page)  # as the project holds them, nothing added
    shots(page, "published", tid("publish-result"))


def test_a_change_on_github_is_pulled_as_a_checkpoint(page, gh) -> None:
    ensure_opened(page, gh)
    gh.push("site", {**gh.files("site"), "news.html": b"<p>News</p>\n"}, message="News")
    said = pull(page)
    assert said.startswith("Pulled from GitHub (fast-forward): 1 file changed: News."), said
    assert files(page)["news.html"] == b"<p>News</p>\n"
    shots(page, "pulled", tid("pull-result"))
    page.click(tid("publish-close"))
    open_history(page)
    page.wait_for_function(  # the panel follows the new checkpoint
        "() => document.querySelector('[data-testid=history-item] .history-message')"
        "?.textContent.startsWith('Pull from GitHub: News')",
        timeout=20_000,
    )


def _conflict(page, gh, n: int) -> None:
    ensure_opened(page, gh)
    write(page, "index.html", f"<h1>Mine {n}</h1>\n")
    gh.push("site", {**gh.files("site"), "index.html": f"<h1>Theirs {n}</h1>\n".encode()})
    said = pull(page)
    assert "both changed 1 file" in said, said
    assert page.locator(tid("pull-conflict")).count() == 1


def test_a_conflict_kept_mine(page, gh) -> None:
    _conflict(page, gh, 1)
    shots(page, "conflict", tid("pull-result"))
    said = choose(page, "index.html", "mine")
    assert "Kept yours: index.html." in said
    assert files(page)["index.html"] == b"<h1>Mine 1</h1>\n"


def test_a_conflict_taken_from_github(page, gh) -> None:
    _conflict(page, gh, 2)
    choose(page, "index.html", "theirs")
    assert files(page)["index.html"] == b"<h1>Theirs 2</h1>\n"


def test_a_conflict_opened_both_in_the_editor(page, gh) -> None:
    _conflict(page, gh, 3)
    page.locator(f"{tid('pull-conflict')} {tid('pull-both')}").click()
    page.locator(tid("publish-dialog")).wait_for(state="hidden")
    got = files(page)
    assert got["index.html"] == b"<h1>Mine 3</h1>\n"
    assert got["index.github.html"] == b"<h1>Theirs 3</h1>\n"
    page.wait_for_function(
        "() => [...document.querySelectorAll('*')].some(e => e.children.length === 0 && "
        "e.textContent.trim() === 'index.github.html')",
        timeout=20_000,
    )
    shots(page, "both-in-editor")
    # Published next, the person's merge goes to GitHub over what was settled.
    open_publish(page)
    page.fill(tid("publish-token"), TOKEN)
    press_publish(page)
    assert error_text(page) == ""
    assert gh.files("site")["index.github.html"] == b"<h1>Theirs 3</h1>\n"


def test_a_private_repository_opens_with_a_token(page, gh) -> None:
    if ("octo", "secret") not in gh.repos:
        gh.add_repo("secret", private=True, files={"index.html": b"<p>private</p>\n"})
    said = open_from_github(page, "octo/secret", TOKEN)
    assert said.startswith("Opened octo/secret from GitHub"), said
    opened(page, "secret")
    assert files(page) == {"index.html": b"<p>private</p>\n"}
    shots(page, "private-opened", tid("import-result"))
