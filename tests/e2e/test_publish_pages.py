"""Publish to GitHub Pages (issue 12 point 4) against the local GitHub simulator.

One booted page, one provider simulator and one GitHub simulator for the
module; the checks run in order: Ralph builds -> the last-chance summary ->
publish -> the simulator holds exactly the site at the new commit -> edit ->
publish again (one more commit, same repository) -> each fault shows its
message and loses nothing -> the token is nowhere it should not be.
"""

from __future__ import annotations

import time

import pytest
from wiggum_e2e import (
    MOUNTED,
    booted_page,
    configure,
    error_text,
    open_publish,
    press_publish,
    quick_github,
    ralph_done,
    run_async,
    set_size,
    tid,
)

from tests.sim import ToolCall, Turn

pytestmark = pytest.mark.e2e

KEY = "sk-e2e-SECRET-publish"
TOKEN = "github_pat_11E2ESECRETTOKEN"
SHOTS = "/tmp/shots-publish"
HTML = (
    '<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>Tiny</title>'
    '<link rel="stylesheet" href="style.css"></head>\n'
    "<body><h1>Tiny page</h1></body>\n</html>\n"
)
CSS = "body { font-family: sans-serif; }\n"
SIZES = {"1280": (1280, 800), "1920": (1920, 1080), "390": (390, 844)}


@pytest.fixture(scope="module")
def gh():
    with quick_github(TOKEN) as s:
        yield s


@pytest.fixture(scope="module")
def console():
    return []


@pytest.fixture(scope="module")
def page(browser, base_url, sim, console):
    with booted_page(browser, base_url) as p:
        p.on("console", lambda m: console.append(m.text))
        set_size(p, 1280, 800)
        p.wait_for_selector(MOUNTED, timeout=30_000)
        configure(p, sim, KEY)
        yield p


def project_files(page) -> dict[str, bytes]:
    """Every file of the project as the page's FileStore holds it (latin-1 round trip)."""
    out = run_async(
        page,
        """
        from wiggum.web.app import APP
        fs = APP.coordinator.fs
        {p: (await fs.read_bytes(p)).decode("latin-1") for p in await fs.list("")}
        """,
    )
    return {p: v.encode("latin-1") for p, v in out.items()}


def site(files: dict[str, bytes]) -> dict[str, bytes]:
    """What is published: the site's files, and an empty .nojekyll (no Jekyll)."""
    out = {p: b for p, b in files.items() if not p.startswith((".ralph/", ".chief/", ".git/"))}
    return {".nojekyll": b"", **out}


def shoot(page, name: str, *, only: str | None = None, show: str | None = None) -> None:
    for label, (w, hgt) in SIZES.items():
        if only and label != only:
            continue
        set_size(page, w, hgt)
        page.wait_for_timeout(150)
        if show:  # what the person sees at this size once the outcome scrolled into view
            page.locator(show).evaluate("el => el.scrollIntoView(false)")
        page.screenshot(path=f"{SHOTS}/{name}-{label}.png")
    set_size(page, 1280, 800)


def build_the_tiny_site(page, sim) -> None:
    """Ralph builds the tiny page; a binary file is put beside his."""
    sim.script(
        [
            Turn(
                "Writing the page.",
                ToolCall("write_file", {"path": "index.html", "content": HTML}),
                ToolCall("write_file", {"path": "style.css", "content": CSS}),
                usage=(500, 100),
            ),
            Turn(ralph_done("Built the tiny page.", ["index.html", "style.css"]), usage=(600, 40)),
            Turn("Ralph built the tiny page."),
        ]
    )
    page.click(tid("tab-ralph"))
    page.fill(tid("ralph-task-input"), "Build a tiny page with a heading.")
    page.click(tid("ralph-start"))
    page.wait_for_function(
        "() => document.querySelector('[data-testid=ralph-badge]').textContent === '✓ DONE'",
        timeout=60_000,
    )
    page.locator(tid("reply")).filter(has_text="Ralph built the tiny page.").wait_for(
        state="attached", timeout=30_000
    )
    # A binary file beside Ralph's, through the project's FileStore: published byte for byte.
    run_async(
        page,
        """
        from wiggum.web.app import APP
        await APP.coordinator.fs.write_bytes("img/dot.png", bytes(range(256)) + b"\\x89PNG\\x00\\xff")
        "ok"
        """,
    )


@pytest.fixture
def tiny_site(page, sim) -> None:
    """The tiny site built (now, if the test that builds it has not run)."""
    if "index.html" not in project_files(page):
        build_the_tiny_site(page, sim)


def publish_the_tiny_site(page, gh) -> None:
    """Publish the project to a new repository "tiny-site" with the token."""
    open_publish(page)
    page.fill(tid("publish-token"), TOKEN)
    page.locator(".publish-advanced > summary").click()
    page.fill(tid("publish-api"), gh.base_url)
    page.fill(tid("publish-repo"), "tiny-site")


@pytest.fixture
def published(page, gh, tiny_site) -> None:
    """The tiny site published once (now, if the test that publishes has not run);
    the publish dialog open."""
    if (gh.login, "tiny-site") not in gh.repos:
        publish_the_tiny_site(page, gh)
        press_publish(page)
    open_publish(page)


def test_ralph_builds_then_the_summary_lists_the_site_only(page, sim):
    build_the_tiny_site(page, sim)
    files = project_files(page)
    assert any(p.startswith(".ralph/") for p in files)  # Ralph's notes exist ...
    open_publish(page)
    listed = page.locator(f"{tid('publish-summary')} .publish-path").all_text_contents()
    assert listed == sorted(site(files))  # ... and are not in the summary
    assert "4 files" in page.locator(tid("publish-count")).text_content()
    assert "no Jekyll" in page.locator(f"{tid('publish-summary')} li").first.text_content()
    assert "permissions" in page.locator(".publish-form .field-hint").first.text_content()
    link = page.locator(tid("publish-token-link"))
    assert link.get_attribute("href").startswith("https://github.com/settings/")
    shoot(page, "summary")


def test_publish_puts_exactly_the_site_on_a_new_commit(page, gh, tiny_site):
    publish_the_tiny_site(page, gh)
    assert "new public repository" in page.locator(tid("publish-repo-hint")).text_content()
    press_publish(page)
    assert error_text(page) == ""
    url = page.locator(tid("publish-url"))
    assert url.text_content() == "https://octo.github.io/tiny-site/"
    assert "Live" in page.locator(tid("publish-status")).text_content()
    states = page.locator(f"{tid('publish-steps')} li").evaluate_all(
        "els => els.map(e => e.dataset.state)"
    )
    assert states == ["done"] * 7
    assert gh.files("tiny-site") == site(project_files(page))
    assert len(gh.commits("tiny-site")) == 2  # GitHub's first commit + the site's one
    assert gh.repo("tiny-site").pages["source"] == {"branch": "main", "path": "/"}
    assert "published before" in page.locator(tid("publish-repo-hint")).text_content()
    shoot(page, "success", show=tid("publish-result"))


def test_edit_then_publish_again_adds_one_commit_to_the_same_repo(page, gh, published):
    before = gh.commits("tiny-site")
    page.click(tid("publish-close"))
    run_async(
        page,
        """
        from wiggum.web.app import APP
        await APP.coordinator.fs.write_text("style.css", "body { color: navy; }\\n")
        "ok"
        """,
    )
    open_publish(page)
    assert page.locator(tid("publish-repo")).input_value() == "tiny-site"
    assert "published before" in page.locator(tid("publish-repo-hint")).text_content()
    assert page.locator(tid("publish-token")).input_value() == TOKEN  # kept in settings
    press_publish(page)
    assert error_text(page) == ""
    after = gh.commits("tiny-site")
    assert after[1:] == before and len(gh.repos) == 1
    assert gh.files("tiny-site")["style.css"] == b"body { color: navy; }\n"
    assert gh.files("tiny-site") == site(project_files(page))


def fault_round(page, gh, arrange, expect: str, name: str, shot: bool = False) -> None:
    head = gh.commits("tiny-site")[0]
    published = gh.files("tiny-site")
    files = project_files(page)
    arrange()
    press_publish(page)
    text = error_text(page)
    assert expect in text, (name, text)
    failed = page.locator(f"{tid('publish-steps')} li[data-state=failed]")
    assert failed.count() == 1, name
    assert page.locator(tid("publish-result")).is_hidden(), name  # nothing reported as done
    if shot:
        shoot(page, "error", show=tid("publish-error"))
    assert gh.commits("tiny-site")[0] == head and gh.files("tiny-site") == published, name
    assert project_files(page) == files, name  # nothing in the project lost


def test_each_fault_shows_its_message_and_loses_nothing(page, gh, published):
    open_publish(page)
    fault_round(
        page,
        gh,
        lambda: page.fill(tid("publish-token"), "github_pat_WRONG"),
        "did not accept the token",
        "401",
        shot=True,
    )
    page.fill(tid("publish-token"), TOKEN)
    run_async(
        page,
        """
        from wiggum.web.app import APP
        await APP.coordinator.fs.write_text("about.html", "<h1>About</h1>\\n")
        "ok"
        """,
    )
    fault_round(
        page,
        gh,
        lambda: gh.fail(
            "POST",
            "/repos/octo/tiny-site/git/trees",
            403,
            {"message": "Resource not accessible by personal access token"},
        ),
        "Contents: Read and write",
        "403 scope",
    )
    reset = int(time.time()) + 3600
    fault_round(
        page,
        gh,
        lambda: gh.fail(
            "GET",
            "/user",
            429,
            {"message": "API rate limit exceeded"},
            {"x-ratelimit-remaining": "0", "x-ratelimit-reset": str(reset)},
        ),
        f"Publish again after {time.strftime('%H:%M UTC', time.gmtime(reset))}",
        "429",
    )
    gh.add_repo("taken")
    fault_round(page, gh, lambda: page.fill(tid("publish-repo"), "taken"), "another name", "422")
    assert gh.files("taken") == {"README.md": b"# taken\n"}
    page.fill(tid("publish-repo"), "tiny-site")
    fault_round(
        page,
        gh,
        lambda: gh.drop("POST", "/repos/octo/tiny-site/git/commits"),
        "connection to GitHub dropped",
        "network",
    )
    # Retrying continues: the blobs already uploaded are not sent again.
    gh.log.clear()
    press_publish(page)
    assert error_text(page) == ""
    assert not [p for _, p, _ in gh.log if p.endswith("/git/blobs")]
    assert gh.files("tiny-site")["about.html"] == b"<h1>About</h1>\n"
    gh.pages_error = "Page build failed: The tag `x` on line 3 is not a recognized Liquid tag."
    try:
        run_async(
            page,
            """
            from wiggum.web.app import APP
            await APP.coordinator.fs.write_text("about.html", "<h1>About us</h1>\\n")
            "ok"
            """,
        )
        press_publish(page)
    finally:
        gh.pages_error = None
    status = page.locator(tid("publish-status")).text_content()
    assert "could not build" in status and "Liquid tag" in status
    assert page.locator(".publish-result-failed").is_visible()
    shoot(page, "build-failed", only="1280")


def test_the_token_is_kept_out_of_files_history_logs_and_state(page, console, published):
    raw = run_async(
        page,
        """
        from wiggum.web.app import APP
        store = APP.storage.files(APP.project_id)
        paths = await store.list("")
        blob = b"".join([await store.read_bytes(p) for p in paths])
        state = await APP.storage.get_meta("publish:" + APP.project_id)
        [len(paths), blob.decode("latin-1"), json.dumps(state)]
        """,
    )
    assert raw[0] > 0
    assert TOKEN not in raw[1] and TOKEN not in raw[2]
    assert not [m for m in console if TOKEN in m]
    dom = page.evaluate("() => document.documentElement.outerHTML")
    assert TOKEN not in dom  # the field's value is a property, never an attribute
