"""Acceptance probes and the site map in the app: a scripted run whose probe
fails keeps going and ends done when it passes; the person sees each
criterion fail at its step, then pass; the map shows the site's pages.

One booted app (Ralph's tab, a provider simulator) serves the module.
"""

from __future__ import annotations

import json
import threading

import pytest
from playwright.sync_api import expect
from wiggum_e2e import (
    booted_page,
    configure,
    ralph_done,
    run_async,
    send,
    set_size,
    tid,
    wait_requests,
    write_files,
)

from tests.sim import ToolCall, Turn

pytestmark = pytest.mark.e2e

KEY = "sk-e2e-SECRET-probes"
PROBES = f"#panel-ralph {tid('preview-probes')}"
MAP = f"#panel-ralph {tid('preview-map')}"
SHOTS = "/tmp/shots-probes"
CRITERION = "An added to-do stays in the list after a reload"

INDEX = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>To-do</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="style.css"></head>
<body><h1>To-do</h1><a href="about.html">About</a>
<form id="add"><label for="item">New to-do</label><input id="item"><button>Add</button></form>
<ul id="list"></ul>
<script src="todo.js"></script>
</body></html>"""
ABOUT = """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>About</title>
<meta name="viewport" content="width=device-width, initial-scale=1">
<link rel="stylesheet" href="style.css"></head>
<body><p>A list.</p><a href="index.html">Back</a></body></html>"""
STYLE = "body { font-family: sans-serif; }\n"
#: Adds the item to the list, but keeps nothing: a reload loses it.
FORGETFUL = """const list = document.getElementById("list");
const items = [];
const show = () => list.replaceChildren(...items.map(t => {
  const li = document.createElement("li"); li.textContent = t; return li; }));
document.getElementById("add").addEventListener("submit", e => {
  e.preventDefault();
  items.push(document.getElementById("item").value);
  show();
});
"""
KEEPING = """const list = document.getElementById("list");
const items = JSON.parse(localStorage.getItem("todos") || "[]");
const show = () => list.replaceChildren(...items.map(t => {
  const li = document.createElement("li"); li.textContent = t; return li; }));
document.getElementById("add").addEventListener("submit", e => {
  e.preventDefault();
  items.push(document.getElementById("item").value);
  localStorage.setItem("todos", JSON.stringify(items));
  show();
});
show();
"""
PROBE = {
    "criterion": CRITERION,
    "page": "index.html",
    "steps": [
        {"type": "Milk", "into": {"role": "textbox", "name": "New to-do"}},
        {"click": {"role": "button", "name": "Add"}},
        {"expect": {"role": "listitem"}, "count": 1, "text": "Milk"},
        {"open": "index.html"},
        {"expect": {"text": "Milk"}},
        {"expect_stored": "todos", "contains": "Milk"},
        {"no_errors": True},
    ],
}


def write(path: str, content: str) -> ToolCall:
    return ToolCall("write_file", {"path": path, "content": content})


@pytest.fixture(scope="module")
def page(browser, base_url, sim):
    with booted_page(browser, base_url, mounted=True) as p:
        set_size(p, 1280, 800)
        configure(p, sim, KEY)
        yield p


def hold_turn(sim, held: Turn) -> threading.Event:
    """The simulator answers ``held`` only once the returned event is set: the
    page shows what it shows before that answer as long as the test needs."""
    release = threading.Event()
    take = sim._take

    def taking(model):
        turn = take(model)
        if turn is held:
            release.wait(60)
        return turn

    sim._take = taking
    return release


def shoot(page, name: str, target) -> None:
    """Screenshots at a laptop's, a phone's and a large screen's size, ``target`` on top at each."""
    for w, h in ((1280, 800), (390, 844), (1920, 1080)):
        set_size(page, w, h)
        if w < 900:
            page.click(tid("ws-tab-preview"))
        target.scroll_into_view_if_needed()
        box = target.bounding_box()
        hit = page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y)?.closest('[data-testid]')?.dataset.testid",
            [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
        )
        assert hit == target.get_attribute("data-testid"), (w, hit)
        page.screenshot(path=f"{SHOTS}/{name}-{w}x{h}.png")
    set_size(page, 1280, 800)


def test_a_run_whose_probe_fails_goes_on_and_ends_done_when_it_passes(page, sim):
    page.click(tid("tab-chief"))
    fix = Turn(write("todo.js", KEEPING))
    release = hold_turn(sim, fix)
    asked = len(sim.chat_requests)
    handoff = {"prompt": "Build a to-do list.", "plan_summary": "To-do", "acceptance": [CRITERION]}
    sim.script(
        [
            Turn(ToolCall("send_to_ralph", handoff)),
            Turn("Ralph is building it now."),
            Turn(
                write("index.html", INDEX),
                write("about.html", ABOUT),
                write("style.css", STYLE),
                write("todo.js", FORGETFUL),
                write(".ralph/checks/keeps.json", json.dumps(PROBE)),
            ),
            Turn(ralph_done("Built the to-do list.", ["index.html"])),
            fix,
            Turn(ralph_done("It keeps the to-dos now.", ["todo.js"])),
            Turn("Ralph finished your page."),
        ]
    )
    try:
        send(page, "go")
        # His first claim: the probe ran in the preview and failed; he goes on.
        wait_requests(sim, asked + 5, timeout=90, page=page)
        page.click(tid("tab-ralph"))
        probes = page.locator(PROBES)
        item = probes.locator(tid("probes-item")).filter(has_text=CRITERION)
        expect(item).to_have_attribute("data-state", "fail", timeout=30_000)
        expect(item.locator(tid("probes-step"))).to_have_text(
            'Step 5: expect at least one of the element with text "Milk"'
        )
        expect(item.locator(tid("probes-seen"))).to_have_text("— found none")
        expect(probes.locator(tid("probes-summary"))).to_have_text("0 of 1 criteria pass.")
        shoot(page, "probe-fails", item.locator(tid("probes-fix")))
        # What he was told next: the criterion, the failing step, what was seen.
        told = json.dumps(sim.chat_requests[asked + 4].json)
        assert "Acceptance probes failed: the run is not done" in told
        assert CRITERION in told and "found none" in told
    finally:
        release.set()
        del sim._take  # the class's own again
    page.wait_for_function(
        "document.querySelector('[data-testid=ralph-badge]')?.textContent === '✓ DONE'",
        timeout=90_000,
    )
    expect(item).to_have_attribute("data-state", "pass", timeout=30_000)
    expect(probes.locator(tid("probes-summary"))).to_have_text("1 of 1 criteria pass.")
    page.locator(tid("reply")).filter(has_text="Ralph finished your page.").wait_for(
        state="attached", timeout=30_000
    )
    shoot(page, "probe-passes", item.locator(tid("probes-criterion")))


def test_the_site_map_shows_the_pages_and_marks_what_is_missing(page):
    page.click(tid("tab-ralph"))
    write_files(
        page,
        {
            "index.html": INDEX.replace("<ul", '<img src="img/logo.png" alt="Logo"><ul'),
            "about.html": ABOUT,
            "style.css": STYLE,
            "todo.js": KEEPING,
        },
        preview=True,
    )
    run_async(
        page,
        """
        from wiggum.web.app import APP
        await APP.project.ralph.check_site(APP.project.fs)
        True
        """,
    )
    site_map = page.locator(MAP)
    pages = site_map.locator(tid("map-page"))
    expect(pages.locator(tid("map-path"))).to_have_text(["about.html", "index.html"])
    index = pages.filter(has=page.locator(tid("map-path"), has_text="index.html"))
    expect(index.locator(".map-missing")).to_have_text("✗ img/logo.png (missing)")
    expect(index.locator(".map-ref:not(.map-missing)")).to_have_text(
        ["style.css", "todo.js", "about.html"]
    )
    expect(site_map.locator(tid("map-summary"))).to_have_text(
        "2 pages, 4 files; 1 broken reference."
    )
    shoot(page, "site-map", index.locator(tid("map-path")))
