"""Publishing against GitHub as it really answers (the faithful simulator): a site that
GitHub Pages builds with a workflow, and a secondary rate limit counted down on screen.

One booted page and one GitHub simulator for the module; each test writes the
project's files and its publish record itself, so it passes alone too.
"""

from __future__ import annotations

import json
import re
import time

import pytest
from wiggum_e2e import (
    booted_page,
    configure,
    error_text,
    on_top,
    open_publish,
    press_publish,
    quick_github,
    run_async,
    set_size,
    start_publish,
    tid,
    wait_published,
    write_files,
)

pytestmark = pytest.mark.e2e

KEY = "sk-e2e-SECRET-github"
TOKEN = "github_pat_11E2EGITHUBTOKEN"
SHOTS = "/tmp/shots-publish"
SITE = {
    "index.html": "<!doctype html><title>Shop</title><h1>Tea shop</h1>\n",
    "style.css": "h1 { color: teal; }\n",
}
SECONDARY = "You have exceeded a secondary rate limit. Please wait a few minutes."


@pytest.fixture(scope="module")
def gh():
    with quick_github(TOKEN) as s:
        yield s


@pytest.fixture(scope="module")
def page(browser, base_url, sim):
    with booted_page(browser, base_url, mounted=True) as p:
        configure(p, sim, KEY)
        yield p


def the_project_publishes_to(page, gh, repo: str | None) -> None:
    """The project holds the site, and remembers ``repo`` as published before (or none);
    the Publish dialog is open and filled in."""
    write_files(page, SITE)
    record = {"owner": gh.login, "repo": repo} if repo else {}
    run_async(
        page,
        f"""
        from wiggum.web.app import APP
        await APP.storage.put_meta("publish:" + APP.project_id, json.loads({json.dumps(record)!r}))
        "ok"
        """,
    )
    page.keyboard.press("Escape")  # a dialog left open shows what it read before
    open_publish(page)
    page.fill(tid("publish-token"), TOKEN)
    advanced = page.locator(".publish-advanced")
    if not advanced.evaluate("d => d.open"):
        advanced.locator("summary").click()
    page.fill(tid("publish-api"), gh.base_url)


def steps(page) -> list[str]:
    return page.locator(f"{tid('publish-steps')} li").evaluate_all(
        "els => els.map(e => e.dataset.state)"
    )


def test_a_site_built_by_a_pages_workflow(page, gh):
    repo = gh.add_repo(
        "workflow-site",
        files={"README.md": b"# shop\n", ".github/workflows/pages.yml": b"on: push\n"},
    )
    gh.enable_pages("workflow-site", build_type="workflow")
    set_size(page, 1280, 800)
    the_project_publishes_to(page, gh, "workflow-site")
    assert page.locator(tid("publish-repo")).input_value() == "workflow-site"
    press_publish(page)
    assert error_text(page) == ""
    status = page.locator(tid("publish-status")).text_content()
    assert status.startswith(
        "Live: 3 files published and built by the repository's Pages workflow."
    )
    run = page.locator(tid("publish-run"))
    assert run.get_attribute("href") == (
        f"https://github.com/octo/workflow-site/actions/runs/{repo.runs[-1].id}"
    )
    assert (
        page.locator(tid("publish-url")).text_content() == "https://octo.github.io/workflow-site/"
    )
    assert steps(page) == ["done"] * 7
    files = gh.files("workflow-site")
    assert files["index.html"] == SITE["index.html"].encode()
    assert files[".github/workflows/pages.yml"] == b"on: push\n"  # the workflow is kept
    assert repo.runs[-1].commit == gh.commits("workflow-site")[0]
    for width, height, label in ((1280, 800, "1280"), (390, 844, "390")):
        set_size(page, width, height)
        page.locator(tid("publish-result")).evaluate("el => el.scrollIntoView(false)")
        page.screenshot(path=f"{SHOTS}/workflow-{label}.png")
    set_size(page, 1280, 800)


WAIT = re.compile(r"continuing in (\d+) s")


def test_a_secondary_rate_limit_is_a_countdown_of_its_length(page, gh):
    name = f"limited-{int(time.time() * 1000) % 100000}"
    gh.fail(
        "POST", f"/repos/octo/{name}/git/trees", 403, {"message": SECONDARY}, {"retry-after": "4"}
    )
    the_project_publishes_to(page, gh, None)
    page.fill(tid("publish-repo"), name)
    set_size(page, 390, 844)  # on a phone the steps are below the fold when it starts
    runs = start_publish(page)
    active = page.locator(f"{tid('publish-steps')} li[data-state=active]")
    active.filter(has_text="continuing in").wait_for(timeout=30_000)
    text = active.text_content()
    assert text.startswith("GitHub asked to slow down (its rate limit)")
    seen = [int(WAIT.search(text).group(1))]
    assert on_top(page, active)  # scrolled into view when the wait began, clear of the footer
    page.screenshot(path=f"{SHOTS}/countdown-390.png")
    set_size(page, 1280, 800)
    active.evaluate("el => el.scrollIntoView(false)")
    page.screenshot(path=f"{SHOTS}/countdown-1280.png")
    while True:
        shown = active.text_content() if active.count() else ""
        found = WAIT.search(shown or "")
        if not found:
            break
        seen.append(int(found.group(1)))
        page.wait_for_timeout(150)
    wait_published(page, runs)
    assert seen[0] in (4, 3)  # GitHub's 4 seconds, from the first one on
    assert sorted(set(seen), reverse=True) == list(range(seen[0], 0, -1))  # each second once
    assert seen == sorted(seen, reverse=True)  # only ever down
    refused = next(a for a in gh.answers if a.status == 403 and a.path.endswith("/git/trees"))
    again = next(
        a for a in gh.answers if a.path == refused.path and a.status == 201 and a.at > refused.at
    )
    assert again.at - refused.at >= 4  # waited the whole of it, then carried on by itself
    assert error_text(page) == ""
    assert page.locator(tid("publish-status")).text_content().startswith("Live")
