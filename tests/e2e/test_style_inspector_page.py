"""The style inspector in Chromium, without the preview's selection (wired in later).

* tinycss2 loads in the page on demand (the vendored wheel) and the plan made
  in Pyodide is the plan made under CPython, byte for byte;
* what the plan writes is what Chromium applies: each planned page and
  stylesheet is loaded in a blank page and ``getComputedStyle`` (a reference
  we did not write) shows the value typed, through shorthands, ``!important``
  and a new class alike, and a quoted font from a style attribute or a rule;
* the view, mounted in the app's page on a real project: Apply writes the
  stylesheet and makes one checkpoint, and its controls are on top at
  1280x800 and 390x844 (screenshots in /tmp/shots-inspector/).

One booted page for the module; each test passes alone.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from wiggum_e2e import booted_page, on_top, poll, run_async, set_size, tid

from tests.session.test_inspector import CTA, FILES, target
from wiggum.session.inspector import destinations, plan_style_edit

pytestmark = pytest.mark.e2e

SHOTS = Path("/tmp/shots-inspector")


@pytest.fixture(scope="module")
def page(browser, base_url):
    with booted_page(browser, base_url, mounted=True) as p:
        yield p


def in_pyodide_plan(page, tgt, changes, where_index=0) -> dict:
    """The plan made in the page's Python, with tinycss2 loaded as the page loads it."""
    args = json.dumps(
        {
            "target": {
                "tag": tgt.tag,
                "id": tgt.id,
                "classes": list(tgt.classes),
                "computed": dict(tgt.computed),
                "html_path": tgt.html_path,
                "offset": tgt.offset,
                "line": tgt.line,
                "css_files": list(tgt.css_files),
            },
            "files": FILES,
            "changes": changes,
            "index": where_index,
        }
    )
    return run_async(
        page,
        f"""
        from wiggum.web.packages import load_packages
        from wiggum.session.inspector import StyleTarget, destinations, plan_style_edit
        await load_packages("tinycss2")
        a = json.loads({args!r})
        t = a["target"]
        t = StyleTarget(**dict(t, classes=tuple(t["classes"]), css_files=tuple(t["css_files"])))
        edit = plan_style_edit(t, a["changes"], a["files"], destinations(t, a["files"])[a["index"]])
        import sys
        dict(css=edit.css_text, html=edit.html_text, summary=edit.summary, tinycss2="tinycss2" in sys.modules)
        """,
    )


def test_tinycss2_loads_in_the_page_and_plans_as_cpython_does(page):
    for tgt, changes, index in [
        (CTA, {"color": "#CC0000", "margin": "0 auto"}, 0),
        (target("h1", id_="welcome"), {"font-size": "2.5rem", "font-weight": "700"}, 0),
        (CTA, {"padding": "1rem"}, -1),
        (CTA, {"font-family": '"Open Sans", sans-serif'}, -1),
    ]:
        here = plan_style_edit(tgt, changes, FILES, destinations(tgt, FILES)[index])
        there = in_pyodide_plan(page, tgt, changes, index)
        assert there["tinycss2"] is True
        assert (there["css"], there["html"], there["summary"]) == (
            here.css_text,
            here.html_text,
            here.summary,
        )


def computed_in_chromium(
    browser_page, html: str, css: str, selector: str, props: list[str]
) -> dict:
    """``props`` of ``selector`` as Chromium computes them for ``html`` styled by ``css``."""
    browser_page.set_content(f"<style>{css}</style>{html}")
    return browser_page.evaluate(
        """([sel, props]) => { const s = getComputedStyle(document.querySelector(sel));
                               return Object.fromEntries(props.map(p => [p, s.getPropertyValue(p)])); }""",
        [selector, props],
    )


SHAPES = {
    # stylesheet, selector of the element in PAGE_HTML, changes, what Chromium must compute
    "a rule's value replaced": (
        ".cta { color: red; }\n",
        {"color": "#cc0000"},
        {"color": "rgb(204, 0, 0)"},
    ),
    "a longhand after a later shorthand": (
        ".cta {\n  background-color: white;\n  background: red;\n}\n",
        {"background-color": "#00ff00"},
        {"background-color": "rgb(0, 255, 0)"},
    ),
    "a shorthand after a later longhand": (
        ".cta { margin: 0; margin-top: 30px; }",
        {"margin": "7px"},
        {"margin-top": "7px", "margin-left": "7px"},
    ),
    "an important value kept important": (
        ".cta { color: red !important; }\n.x .cta { color: blue; }",
        {"color": "#0000ff"},
        {"color": "rgb(0, 0, 255)"},
    ),
    "an important shorthand beaten": (
        ".cta { font: bold 12px serif !important; }",
        {"font-size": "20px", "font-weight": "300"},
        {"font-size": "20px", "font-weight": "300"},
    ),
    "a rule added to a file with a media block": (
        "@media (min-width: 1px) { .cta { text-align: right } }\n",
        {"text-align": "center", "width": "50%"},
        {"text-align": "center"},
    ),
}
PAGE_HTML = '<div class="x"><p class="cta">Hi</p></div>'


@pytest.mark.parametrize("shape", SHAPES)
def test_chromium_computes_what_the_edit_wrote(page, shape):
    from wiggum.project.css_edit import set_rule

    css, changes, expected = SHAPES[shape]
    out = set_rule(css, ".cta", changes)
    blank = page.context.new_page()
    try:
        got = computed_in_chromium(blank, PAGE_HTML, out, ".cta", list(expected))
    finally:
        blank.close()
    assert got == expected, out


def test_chromium_computes_a_new_class_and_a_style_attribute(page):
    h1 = target("h1", id_="welcome")
    blank = page.context.new_page()
    try:
        for index in (0, -1):  # a new class and its rule; only this element
            edit = plan_style_edit(h1, {"color": "#123456"}, FILES, destinations(h1, FILES)[index])
            html = edit.html_text or FILES["index.html"]
            css = edit.css_text or FILES["css/site.css"]
            body = html.split("<body>")[1]
            got = computed_in_chromium(blank, body, FILES["css/base.css"] + css, "h1", ["color"])
            assert got == {"color": "rgb(18, 52, 86)"}, edit.summary
    finally:
        blank.close()


def test_chromium_reads_a_quoted_font_from_the_style_attribute_and_the_rule(page):
    font = '"Open Sans", sans-serif'
    blank = page.context.new_page()
    try:
        for where in destinations(CTA, FILES)[:1] + destinations(CTA, FILES)[-1:]:
            edit = plan_style_edit(CTA, {"font-family": font}, FILES, where)
            body = (edit.html_text or FILES["index.html"]).split("<body>")[1]
            css = FILES["css/base.css"] + (edit.css_text or FILES["css/site.css"])
            got = computed_in_chromium(blank, body, css, "a.cta", ["font-family"])
            assert got == {"font-family": font}, (where.kind, body)
    finally:
        blank.close()


MOUNT = """
from wiggum.fs import MemoryFileStore
from wiggum.project.service import HistoryService
from wiggum.session.inspector import StyleTarget, read_style_files, write_style_edit
from wiggum.web.packages import load_packages
from wiggum.web.views.inspector import InspectorView
import js
box = js.document.querySelector("[data-testid=inspector-box]")
if not box:  # JavaScript null
    box = js.document.createElement("div")
    box.setAttribute("data-testid", "inspector-box")
    # The preview places it; here a fixed box stands in for that place.
    box.style.cssText = ("position: fixed; right: 0; bottom: 0; width: min(30rem, 100vw); "
                         "max-height: 70vh; overflow: auto; z-index: 50;")
    js.document.body.appendChild(box)
box.replaceChildren()
fs = MemoryFileStore()
a = json.loads(ARGS)
for path, text in a["files"].items():
    await fs.write_text(path, text)
history = HistoryService(fs, load=lambda: load_packages("dulwich"))
await history.checkpoint("Ralph iteration 1", "Build the page")
t = a["target"]
t = StyleTarget(**dict(t, classes=tuple(t["classes"]), css_files=tuple(t["css_files"])))
files = await read_style_files(fs, t, load_packages)
INSPECTED_PROJECT = (fs, history)  # the page's Python globals keep it for the next call
view = InspectorView(box, lambda edit: write_style_edit(fs, history, edit))
view.show(t, files)
True
"""


def in_box(name: str) -> str:
    """The test id ``name`` in this module's box (the app's own selection panel
    carries an inspector too, hidden until something is selected)."""
    return f"{tid('inspector-box')} {tid(name)}"


def mount_view(page) -> None:
    args = {
        "target": {
            "tag": CTA.tag,
            "id": CTA.id,
            "classes": list(CTA.classes),
            "computed": dict(CTA.computed),
            "html_path": CTA.html_path,
            "offset": CTA.offset,
            "line": CTA.line,
            "css_files": list(CTA.css_files),
        },
        "files": FILES,
    }
    run_async(page, f"ARGS = {json.dumps(json.dumps(args))}\n" + MOUNT)
    page.wait_for_selector(in_box("inspector"))


def test_the_view_applies_a_colour_as_one_checkpoint_with_its_controls_on_top(page):
    SHOTS.mkdir(exist_ok=True)
    for width, height in ((1280, 800), (390, 844)):
        set_size(page, width, height)
        mount_view(page)
        inspector = page.locator(in_box("inspector"))
        assert inspector.locator(tid("inspector-where")).inner_text() == "Writes to site.css · .cta"
        for control in ("inspector-color", "inspector-color-swatch", "inspector-apply"):
            assert on_top(page, inspector.locator(tid(control)), scroll=True), (control, width)
        inspector.screenshot(path=str(SHOTS / f"inspector-{width}x{height}.png"))
    page.fill(in_box("inspector-font-size"), "18")
    page.click(in_box("inspector-apply"))
    error = page.locator(in_box("inspector-font-size-error"))
    error.wait_for(state="visible")
    assert "needs a unit" in error.inner_text()
    page.fill(in_box("inspector-font-size"), "18px")
    page.fill(in_box("inspector-color"), "#cc0000")
    page.click(in_box("inspector-apply"))
    status = page.locator(in_box("inspector-status"))
    status.wait_for(state="visible")
    assert (
        status.inner_text()
        == "Style .cta: color #cc0000, font-size 18px — applied (Undo in History)."
    )
    page.locator(in_box("inspector")).screenshot(path=str(SHOTS / "inspector-applied-390x844.png"))
    messages = poll(
        lambda: run_async(
            page,
            """
            fs, history = INSPECTED_PROJECT
            h = await history.history()
            [c.message for c in await h.list()]
            """,
        ),
        lambda got: len(got) == 2,
        "the style's checkpoint",
    )
    assert messages[0] == "Style .cta: color #cc0000, font-size 18px"
    set_size(page, 1280, 800)


def test_chromium_matches_an_escaped_class_to_its_element(page):
    from wiggum.project.css_edit import set_rule
    from wiggum.session.inspector import class_selector

    odd = ["w-1/2", "x{}body{display:none}"]
    css = "".join(set_rule("", class_selector(name), {"color": "#00ff00"}) for name in odd)
    html = '<p class="w-1/2">a</p><i class="x{}body{display:none}">b</i>'
    blank = page.context.new_page()
    try:
        for selector in ("p", "i"):
            got = computed_in_chromium(blank, html, css, selector, ["color", "display"])
            assert got["color"] == "rgb(0, 255, 0)", (selector, css)
        assert computed_in_chromium(blank, html, css, "body", ["display"]) == {"display": "block"}
    finally:
        blank.close()


def test_what_the_inspector_foretells_is_what_chromium_computes(page):
    """``computes_as`` (what a field will show once a value applies) beside
    Chromium's own computed style of that value, shown as the field shows it."""
    from tests.ui.test_style_values import COMPUTES, cases
    from wiggum.ui.style_values import computes_as, shown_value

    blank = page.context.new_page()
    try:
        for prop, written, _ in cases(COMPUTES):
            css = f".cta {{ {prop}: {written}; }}"
            got = computed_in_chromium(blank, PAGE_HTML, css, ".cta", [prop])[prop]
            assert shown_value(prop, got) == computes_as(prop, written), (prop, written, got)
    finally:
        blank.close()
