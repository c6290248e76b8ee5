"""Real sites in the preview: forms, modals, the site's own storage, the console, Fix.

One booted app (Ralph's tab, a provider simulator) serves the module.  Each
test writes a small site carrying one known defect or one feature into the
open project, and reads the preview in Ralph's tab as a person would.
"""

from __future__ import annotations

import json

import pytest
from playwright.sync_api import expect
from wiggum_e2e import (
    booted_page,
    configure,
    in_preview,
    poll,
    ralph_done,
    run_async,
    set_size,
    tid,
    wait_requests,
    write_files,
)

from tests.sim import Turn

pytestmark = pytest.mark.e2e

KEY = "sk-e2e-SECRET-site"
FRAME = f"#panel-ralph {tid('preview-frame')}"
CONSOLE = f"#panel-ralph {tid('preview-console')}"
SHOTS = "/tmp/shots-site-preview"

TODO = {
    "index.html": """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>To-do</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><h1>To-do</h1>
<form id="add"><label>Item <input id="item" name="item"></label><button>Add</button></form>
<ul id="list"></ul><button id="clear" type="button">Clear all</button>
<p id="cookie"></p>
<script src="todo.js"></script>
</body></html>""",
    "todo.js": """const list = document.getElementById("list");
const load = () => JSON.parse(localStorage.getItem("todos") || "[]");
const show = () => {
  list.replaceChildren(...load().map(t => { const li = document.createElement("li");
    li.textContent = t; return li; }));
};
document.getElementById("add").addEventListener("submit", e => {
  e.preventDefault();
  const item = document.getElementById("item");
  localStorage.setItem("todos", JSON.stringify([...load(), item.value]));
  sessionStorage.visits = String(Number(sessionStorage.visits || 0) + 1);
  document.cookie = "last=" + encodeURIComponent(item.value) + "; path=/";
  item.value = "";
  show();
});
document.getElementById("clear").addEventListener("click", () => {
  if (confirm("Clear every item?")) { localStorage.removeItem("todos"); show(); }
});
document.getElementById("cookie").textContent = document.cookie;
show();
""",
}

BROKEN = {
    "index.html": """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Broken</title></head>
<body><h1 id="t">Broken</h1>
<img src="img/missing.png" alt="a photo that is not there">
<button id="go" type="button">Go</button>
<script src="js/app.js"></script>
</body></html>""",
    "js/app.js": """// The click handler throws: the element it wants is not on the page.
const go = document.getElementById("go");
go.addEventListener("click", () => {
  const out = document.getElementById("out");
  out.textContent = "clicked";
});
console.warn("careful: the demo data is old");
console.log("ready");
""",
}


@pytest.fixture(scope="module")
def page(browser, base_url, sim):
    with booted_page(browser, base_url, mounted=True) as p:
        set_size(p, 1280, 800)
        configure(p, sim, KEY)
        p.click(tid("tab-ralph"))
        yield p


def site(page, files: dict[str, str]) -> None:
    """``files`` are the open project's site now (everything else, and what the
    site kept in its storage, removed), shown."""
    run_async(
        page,
        """
        from wiggum.web.app import APP
        kept = APP.site.storages.for_project(APP.project_id)
        for area in ("local", "session", "cookie"):
            kept.apply(area, {})
        await kept.saved()
        for path in await APP.coordinator.fs.list("", recursive=True):
            if not path.startswith((".ralph/", ".chief/")) and not await APP.coordinator.fs.is_dir(path):
                await APP.coordinator.fs.remove(path)
        True
        """,
    )
    write_files(page, files)
    reload(page)


def reload(page) -> None:
    run_async(
        page,
        """
        from wiggum.web.app import APP
        await APP.workspace.views["preview"].refresh("index.html")
        True
        """,
    )


def project_id(page) -> str:
    return run_async(page, "from wiggum.web.app import APP\nAPP.project_id")


def kept(page, pid: str) -> dict:
    """What the project keeps of its site's storage, once written."""
    return run_async(
        page,
        f"""
        from wiggum.web.app import APP
        await APP.site.storages.for_project({pid!r}).saved()
        records = await APP.storage.load_messages({pid!r}, "site")
        records[-1] if records else {{}}
        """,
    )


def add_item(page, text: str) -> None:
    frame = page.frame_locator(FRAME)
    frame.locator("#item").fill(text)
    frame.get_by_role("button", name="Add").click()
    expect(frame.locator("#list li").filter(has_text=text)).to_have_count(1, timeout=10_000)


def test_a_form_submits_a_confirm_answers_and_storage_is_the_projects_own(page):
    site(page, TODO)
    first = project_id(page)
    add_item(page, "milk")
    add_item(page, "bread")
    frame = page.frame_locator(FRAME)
    assert frame.locator("#list li").all_text_contents() == ["milk", "bread"]
    assert json.loads(kept(page, first)["local"]["todos"]) == ["milk", "bread"]
    assert kept(page, first)["cookie"] == {"last": "bread"}

    # A preview reload keeps them (localStorage, the cookie and sessionStorage).
    shown = page.query_selector(FRAME)
    page.click(f"#panel-ralph {tid('preview-refresh')}")
    page.wait_for_function("f => !f.isConnected", arg=shown)
    expect(frame.locator("#cookie")).to_have_text("last=bread", timeout=10_000)
    assert frame.locator("#list li").all_text_contents() == ["milk", "bread"]
    visits = frame.locator("#list").evaluate("() => sessionStorage.getItem('visits')")
    assert visits == "2"
    # Never Wiggum's own storage.
    assert run_async(page, "import js\njs.localStorage.getItem('todos')") is None

    # confirm() works (allow-modals): dismissed keeps, accepted clears.
    page.once("dialog", lambda d: d.dismiss())
    frame.locator("#clear").click()
    assert frame.locator("#list li").count() == 2
    page.once("dialog", lambda d: d.accept())
    frame.locator("#clear").click()
    expect(frame.locator("#list li")).to_have_count(0)
    add_item(page, "eggs")

    # Another project's site does not see this one's storage, and back again.
    run_async(page, "from wiggum.web.app import APP\nawait APP.create_project('Other')\nTrue")
    poll(lambda: project_id(page), lambda p: p != first, "the new project opened")
    site(page, TODO)
    in_preview(lambda: frame.locator("h1").text_content() == "To-do", "showed the other site")
    assert frame.locator("#list li").count() == 0 and frame.locator("#cookie").text_content() == ""
    second = project_id(page)
    run_async(page, f"from wiggum.web.app import APP\nawait APP.switch_project({first!r})\nTrue")
    in_preview(lambda: frame.locator("#list li").all_text_contents() == ["eggs"], "came back")
    assert kept(page, second) == {}


def test_console_shows_each_defect_with_its_place_and_fix_starts_ralph(page, sim):
    site(page, BROKEN)
    frame = page.frame_locator(FRAME)
    frame.locator("#go").click()
    frame.locator("#go").click()
    console = page.locator(CONSOLE)
    error = console.locator(tid("console-entry")).filter(has_text="textContent")
    expect(error.locator(tid("console-where"))).to_have_text("js/app.js:5", timeout=10_000)
    expect(error.locator(tid("console-count"))).to_have_text("×2")
    image = console.locator(tid("console-entry")).filter(has_text="img/missing.png")
    expect(image.locator(tid("console-where"))).to_have_text("index.html:4")
    warn = console.locator('[data-level="warn"]').filter(has_text="demo data is old")
    expect(warn.locator(tid("console-where"))).to_have_text("js/app.js:7")
    expect(console.locator('[data-level="log"]').filter(has_text="ready")).to_have_count(1)
    expect(console.locator(tid("console-summary"))).to_have_text("3 errors, 1 warning, 1 message")
    for w, h in ((1280, 800), (390, 844)):
        set_size(page, w, h)
        if w < 900:
            page.click(tid("ws-tab-preview"))
        console.scroll_into_view_if_needed()
        page.screenshot(path=f"{SHOTS}/console-{w}x{h}.png")
    set_size(page, 1280, 800)

    # Ask Chief: the question waits in Chief's message box.
    error.locator(tid("console-ask")).click()
    box = page.locator(tid("chat-input"))
    expect(box).to_be_visible()
    assert "textContent" in box.input_value() and "js/app.js line 5" in box.input_value()
    box.fill("")
    page.click(tid("tab-ralph"))

    # Fix: a one-off task for Ralph with the error, its place, its code and the console.
    asked = len(sim.chat_requests)
    sim.script([Turn(ralph_done("Fixed the handler.", []))])
    error.locator(tid("console-fix")).click()
    wait_requests(sim, asked + 1, timeout=30, page=page)
    task = json.dumps(sim.chat_requests[asked].json)
    for part in ("textContent", "js/app.js line 5", "out.textContent = ", "demo data is old"):
        assert part in task, part
    # (The missing image still fails his checks: he is stopped here.)
    run_async(
        page,
        """
        from wiggum.web.app import APP
        await APP.coordinator.stop_ralph()
        await APP.coordinator.wait()
        True
        """,
    )

    # A reload clears the console.
    reload(page)
    expect(console.locator(tid("console-entry")).filter(has_text="textContent")).to_have_count(0)


INTRUDER = """
parent.postMessage({type: "wiggum-preview-storage", area: "local",
                    items: {todos: '["evil"]'}}, "*");
parent.postMessage({type: "wiggum-preview-console", level: "error", kind: "error",
                    text: "forged", file: "x.js", line: 1, stack: "", page: "index.html"}, "*");
"""


def test_a_message_from_any_frame_but_the_previews_own_is_ignored(page):
    site(page, TODO)
    pid = project_id(page)
    add_item(page, "kept")
    before = kept(page, pid)
    # Another frame of Wiggum's page, sandboxed like a site, posts what the site would.
    page.evaluate(
        """src => {
        const f = document.createElement("iframe");
        f.id = "intruder";
        f.setAttribute("sandbox", "allow-scripts");
        f.srcdoc = src;
        document.body.appendChild(f);
    }""",
        "<script>" + INTRUDER + "</" + "script>",
    )
    # The site itself posting a malformed change is ignored too.
    page.frame_locator(FRAME).locator("body").evaluate(
        """() => parent.postMessage({type: "wiggum-preview-storage", area: "local",
                                      items: {todos: 42}}, "*")"""
    )
    page.wait_for_timeout(300)  # the messages were posted; nothing may come of them
    page.evaluate("() => document.getElementById('intruder').remove()")
    assert kept(page, pid) == before
    console = page.locator(CONSOLE)
    assert console.locator(tid("console-entry")).filter(has_text="forged").count() == 0
    reload(page)
    frame = page.frame_locator(FRAME)
    in_preview(lambda: frame.locator("#list li").all_text_contents() == ["kept"], "kept its own")


def test_a_form_without_a_handler_submits_to_the_page_it_names(page):
    site(
        page,
        {
            "index.html": '<!DOCTYPE html><html lang="en"><head><title>Form</title></head><body>'
            '<form action="thanks.html"><input name="n" value="x"><button>Send</button></form>'
            "</body></html>",
            "thanks.html": '<!DOCTYPE html><html lang="en"><head><title>Thanks</title></head>'
            '<body><h1 id="thanks">Thanks!</h1></body></html>',
        },
    )
    frame = page.frame_locator(FRAME)
    frame.get_by_role("button", name="Send").click()
    expect(frame.locator("#thanks")).to_have_text("Thanks!", timeout=10_000)
    expect(page.locator(f"#panel-ralph {tid('preview-path-input')}")).to_have_value("thanks.html")


CHECKED = {
    "index.html": """<!DOCTYPE html>
<html lang="en"><head><meta charset="utf-8"><title>Checked</title>
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body><h1>Checked</h1>
<div id="wide" style="width: 900px">a banner too wide for a phone</div>
<img src="logo.png">
<a href="contact.html">Contact</a>
</body></html>""",
    "logo.png": "not really a png",
}


def test_the_checks_panel_lists_each_defect_at_its_line_and_fix_starts_ralph(page, sim):
    site(page, CHECKED)
    checks = page.locator(f"#panel-ralph {tid('preview-checks')}")
    checks.locator(tid("checks-run")).click()
    rows = checks.locator(tid("checks-issue"))
    wide = rows.filter(has_text='id="wide"')
    expect(wide.locator(tid("checks-where"))).to_have_text("index.html:5", timeout=30_000)
    assert wide.get_attribute("data-check") == "overflow"
    alt = rows.filter(has_text="has no alt text")
    expect(alt.locator(tid("checks-where"))).to_have_text("index.html:6")
    link = rows.filter(has_text="contact.html")
    expect(link.locator(tid("checks-where"))).to_have_text("index.html:7")
    expect(checks.locator(tid("checks-summary"))).to_contain_text("3 problems")
    for w, h in ((1280, 800), (390, 844)):
        set_size(page, w, h)
        if w < 900:
            page.click(tid("ws-tab-preview"))
        fix = alt.locator(tid("checks-fix"))
        fix.scroll_into_view_if_needed()
        page.screenshot(path=f"{SHOTS}/checks-{w}x{h}.png")
        box = fix.bounding_box()
        hit = page.evaluate(
            "([x, y]) => document.elementFromPoint(x, y)?.dataset.testid",
            [box["x"] + box["width"] / 2, box["y"] + box["height"] / 2],
        )
        assert hit == "checks-fix", (w, hit)
        page.screenshot(path=f"{SHOTS}/checks-{w}x{h}.png")
    set_size(page, 1280, 800)

    asked = len(sim.chat_requests)
    sim.script([Turn(ralph_done("Gave the logo an alt text.", []))])
    alt.locator(tid("checks-fix")).click()
    wait_requests(sim, asked + 1, timeout=30, page=page)
    task = json.dumps(sim.chat_requests[asked].json)
    assert "has no alt text" in task and "index.html line 6" in task and "alt=" in task
    run_async(
        page,
        """
        from wiggum.web.app import APP
        await APP.coordinator.stop_ralph()
        await APP.coordinator.wait()
        True
        """,
    )
