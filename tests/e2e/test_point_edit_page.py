"""Point at the page and change it, in Chromium: select mode in Ralph's preview.

One booted app (Ralph's tab, a provider simulator) for the module; each test
writes the small bakery site again, so it passes alone.  What a person does:
select the heading (the editor opens at its line), move with the arrow keys,
type its text in place (the file changes, a checkpoint, Undo), ask Ralph to
change it (the element goes with the task), change a button's colour in the
style inspector (a CSS rule written, the preview shows it), select what the
site's script made, and the site forging select-mode messages (nothing happens).
Screenshots go to /tmp/point-shots/ at 1280x800 and 390x844.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout
from playwright.sync_api import expect
from wiggum_e2e import (
    click_drawn,
    in_preview,
    on_top,
    poll,
    ralph_done,
    ralph_tab_page,
    run_async,
    serious_violations,
    set_size,
    show_pane,
    stop_ralph,
    tid,
    wait_requests,
)
from wiggum_e2e import show_site as site

from tests.sim import Turn

pytestmark = pytest.mark.e2e

KEY = "sk-e2e-SECRET-point"
FRAME = f"#panel-ralph {tid('preview-frame')}"
SHOTS = Path("/tmp/point-shots")

INDEX = """<!DOCTYPE html>
<html lang="en">
<head><meta charset="utf-8"><title>Bakery</title><link rel="stylesheet" href="style.css">
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body>
  <h1 class="hero">Fresh bread</h1>
  <p>Open <b>daily</b> from eight.</p>
  <a class="menu" href="menu.html">Our menu</a>
  <button class="cta" type="button">Order</button>
  <img src="loaf.png" alt="A loaf" width="40" height="40">
  <ul id="list"></ul>
  <script src="app.js"></script>
</body>
</html>
"""
APP_JS = """var li = document.createElement("li");
li.textContent = "Rye";
document.getElementById("list").appendChild(li);
// The site tries to forge select mode's messages: it has no secret to give.
function forge(place) {
  var runtime = document.querySelector("script[data-wiggum-preview=runtime]");
  var guess = runtime ? runtime.textContent.slice(0, 40) : "x".repeat(32);
  parent.postMessage({type: "wiggum-point-select", secret: guess, place: 0, tag: "html",
    id: "", classes: [], text: "", plain: false, width: 1, height: 1, styles: {},
    href: null, made: "", edit: false}, "*");
  parent.postMessage({type: "wiggum-point-text", secret: guess, place: place,
    text: "HACKED"}, "*");
  parent.postMessage({type: "wiggum-point-exit", secret: guess}, "*");
  return !!runtime;
}
"""
PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c63f8cfc0f01f0005000201a5f8ab3e0000000049454e44ae426082"
)
STYLE = """body { font-family: sans-serif; }
.cta {
  padding: 4px 10px; /* roomy */
}
"""
FILES = {
    "index.html": INDEX,
    "app.js": APP_JS,
    "menu.html": "<h1>Menu</h1>",
    "loaf.png": PNG,
    "style.css": STYLE,
}


@pytest.fixture(scope="module")
def page(browser, base_url, sim):
    with ralph_tab_page(browser, base_url, sim, KEY) as p:
        yield p


@pytest.fixture(autouse=True)
def fresh(page, sim):
    sim.drop_pending()
    set_size(page, 1280, 800)
    page.click(tid("tab-ralph"))
    if page.get_attribute(tid("preview-select"), "aria-pressed") == "true":
        page.click(tid("preview-select"))
    page.click(tid("preview-width-desktop"))
    site(page, FILES)
    page.frame_locator(FRAME).locator("li").wait_for()
    yield
    sim.drop_pending()


def frame(page):
    return page.frame_locator(FRAME)


def select_mode(page) -> None:
    page.click(tid("preview-select"))
    assert page.get_attribute(tid("preview-select"), "aria-pressed") == "true"
    page.locator(tid("point-panel")).wait_for(state="visible")


def pick(page, selector: str, shown: str) -> None:
    """Click ``selector`` in the preview (select mode on) until the panel shows ``shown``
    (a click may meet the frame an edit's reload is replacing: it is clicked again)."""

    def picked() -> bool:
        click_drawn(page, FRAME, selector)
        try:
            page.wait_for_function(
                "s => document.querySelector('[data-testid=point-selector]')?.textContent === s",
                arg=shown,
                timeout=3_000,
            )
        except PlaywrightTimeout:
            return False
        return True

    in_preview(picked, f"let {selector} be selected")


def file_text(page, path: str) -> str:
    return run_async(
        page, f"from wiggum.web.app import APP\nawait APP.project.fs.read_text({path!r})"
    )


def checkpoints(page) -> list[str]:
    return run_async(
        page,
        """
        from wiggum.web.app import APP
        [cp.message for cp in await (await APP.history.history()).list(5)]
        """,
    )


def shoot(page, name: str) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=str(SHOTS / f"{name}.png"))


def apply_colour(page, selector: str, hex_: str, rgb: str) -> None:
    """Type ``hex_`` as the text colour, Apply, and wait until the preview's
    ``selector`` computes ``rgb``."""
    page.fill(tid("inspector-color"), hex_)
    page.click(tid("inspector-apply"))
    in_preview(
        lambda: frame(page).locator(selector).evaluate("e => getComputedStyle(e).color") == rgb,
        f"showed {selector} in {hex_}",
    )


def test_select_the_heading_opens_the_editor_at_its_line_and_the_keys_move(page):
    select_mode(page)
    assert on_top(page, tid("preview-select"))
    frame(page).locator("h1").hover()
    label = frame(page).locator("[data-wiggum-point=label]")
    label.wait_for(state="visible")
    assert label.text_content().startswith("h1.hero ")
    shoot(page, "select-1280")
    pick(page, "h1", "h1.hero")
    assert page.text_content(tid("point-where")) == "index.html:6"
    # The editor opens there behind the page the person points at: the preview stays.
    page.wait_for_selector(f'{tid("file-viewer")}[data-path="index.html"]', state="attached")
    page.wait_for_selector(f'{tid("editor")}[data-line="6"]', state="attached", timeout=30_000)
    assert page.get_attribute(tid("ws-pane-preview"), "data-active") == "true"
    # The frame's site stays as written: no click reached its own handlers.
    for control in ("point-where", "point-edit-text", "point-ask-chief", "point-ask-ralph"):
        assert on_top(page, tid(control), scroll=True), control
    # Arrow keys: the next sibling, back, the parent; Esc leaves select mode.
    # Wherever the click left the keyboard (the frame, or Wiggum's page), the keys work.
    page.keyboard.press("ArrowRight")
    page.wait_for_function(
        "document.querySelector('[data-testid=point-selector]').textContent === 'p'"
    )
    page.focus(tid("preview-select"))  # from Wiggum's side of the frame too
    page.keyboard.press("ArrowLeft")
    page.wait_for_function(
        "document.querySelector('[data-testid=point-selector]').textContent === 'h1.hero'"
    )
    page.keyboard.press("ArrowUp")
    page.wait_for_function(
        "document.querySelector('[data-testid=point-selector]').textContent === 'body'"
    )
    # Where it is written brings the code forward, the cursor on that line.
    pick(page, "h1", "h1.hero")
    page.click(tid("point-where"))
    page.wait_for_selector(f'{tid("ws-pane-code")}[data-active="true"]')
    active = page.locator(".cm-activeLine").first
    active.wait_for()
    assert "Fresh bread" in active.text_content()
    show_pane(page, "preview")
    page.focus(tid("preview-select"))
    page.keyboard.press("Escape")
    page.wait_for_selector(f'{tid("preview-select")}[aria-pressed="false"]')
    # At a phone's width, the frame narrower: the same element, the same place.
    page.click(tid("preview-width-phone"))
    select_mode(page)
    pick(page, "a.menu", "a.menu")
    assert page.text_content(tid("point-where")) == "index.html:8"


def test_text_typed_in_place_is_written_checkpointed_and_undone(page):
    select_mode(page)
    pick(page, "h1", "h1.hero")
    frame(page).locator("h1").dblclick()
    editing = frame(page).locator("h1[contenteditable]")
    editing.wait_for()
    page.keyboard.type("Warm loaves & rolls")
    shoot(page, "edit-in-place-1280")
    page.keyboard.press("Enter")
    poll(
        lambda: file_text(page, "index.html"),
        lambda text: '<h1 class="hero">Warm loaves &amp; rolls</h1>' in text,
        "the typed text was written into index.html",
    )
    assert file_text(page, "index.html") == INDEX.replace("Fresh bread", "Warm loaves &amp; rolls")
    in_preview(
        lambda: frame(page).locator("h1").text_content() == "Warm loaves & rolls",
        "showed the new text",
    )
    assert poll(lambda: checkpoints(page), bool, "a checkpoint")[0] == (
        "Edit text of <h1> in index.html"
    )
    # Still selected after the preview reloaded; Undo puts the file back.
    page.wait_for_selector(f"{tid('point-undo')}:visible")
    assert on_top(page, tid("point-undo"), scroll=True)
    page.click(tid("point-undo"))
    poll(lambda: file_text(page, "index.html"), lambda t: t == INDEX, "Undo restored the file")
    in_preview(
        lambda: frame(page).locator("h1").text_content() == "Fresh bread", "showed the old text"
    )
    assert poll(
        lambda: checkpoints(page), lambda cps: cps[0].startswith("Undo:"), "Undo's checkpoint"
    )[0] == ("Undo: Edit text of <h1> in index.html")


def test_mixed_markup_is_refused_with_the_reason(page):
    select_mode(page)
    pick(page, "p", "p")
    page.click(tid("point-edit-text"))
    note = page.locator(tid("point-note"))
    note.filter(has_text="holds other markup (<b>)").wait_for()
    assert file_text(page, "index.html") == INDEX


def test_a_links_text_and_address_and_an_image_are_changed_from_the_panel(page):
    select_mode(page)
    pick(page, "a.menu", "a.menu")
    page.click(tid("point-edit-link"))
    expect(page.locator(tid("point-link-text"))).to_have_value("Our menu")
    expect(page.locator(tid("point-link-href"))).to_have_value("menu.html")
    page.fill(tid("point-link-text"), "Prices")
    page.fill(tid("point-link-href"), "prices.html")
    assert on_top(page, tid("point-link-save"), scroll=True)
    page.click(tid("point-link-save"))
    poll(
        lambda: file_text(page, "index.html"),
        lambda t: '<a class="menu" href="prices.html">Prices</a>' in t,
        "the link was written",
    )
    in_preview(lambda: frame(page).locator("a.menu").text_content() == "Prices", "showed the link")
    pick(page, "img", "img")
    assert page.locator(tid("point-replace-image")).is_visible()
    page.set_input_files(
        tid("point-image-input"),
        files=[{"name": "rye.png", "mimeType": "image/png", "buffer": PNG}],
    )
    poll(
        lambda: file_text(page, "index.html"),
        lambda t: '<img src="assets/rye.png" alt="A loaf" width="40" height="40">' in t,
        "the image's src was pointed at the upload",
    )
    in_preview(
        lambda: frame(page).locator("img").get_attribute("src").startswith("data:image/png"),
        "showed the new image",
    )


def test_a_buttons_colour_changed_in_the_inspector_is_a_css_rule_the_preview_shows(page):
    select_mode(page)
    pick(page, "button.cta", "button.cta")
    inspector = page.locator(f"{tid('point-inspector')} {tid('inspector')}")
    inspector.wait_for(state="visible")
    expect(page.locator(tid("inspector-source"))).to_have_text("index.html:9")
    expect(page.locator(tid("inspector-where"))).to_contain_text("style.css")
    page.fill(tid("inspector-color"), "#cc0000")
    for control in ("inspector-color", "inspector-apply"):
        assert on_top(page, tid(control), scroll=True), control
    shoot(page, "inspector-1280")
    page.click(tid("inspector-apply"))
    poll(
        lambda: file_text(page, "style.css"),
        lambda t: "color: #cc0000" in t,
        "the rule was written into style.css",
    )
    css = file_text(page, "style.css")
    assert css.startswith(
        "body { font-family: sans-serif; }\n.cta {\n  padding: 4px 10px; /* roomy */"
    )
    assert file_text(page, "index.html") == INDEX  # the class was the button's own
    in_preview(
        lambda: (
            frame(page).locator("button.cta").evaluate("b => getComputedStyle(b).color")
            == "rgb(204, 0, 0)"
        ),
        "showed the new colour",
    )
    assert poll(lambda: checkpoints(page), bool, "a checkpoint")[0].startswith("Style .cta")
    # The panel's Undo takes the style back, as any edit.
    page.wait_for_selector(f"{tid('point-undo')}:visible")
    page.click(tid("point-undo"))
    poll(lambda: file_text(page, "style.css"), lambda t: t == STYLE, "Undo restored style.css")


def test_a_colour_another_rule_overrides_is_said_after_the_preview_reloads(page):
    """The inspector writes the class's rule; a more specific rule of the site's wins, so
    the reloaded element still shows the old colour, and the inspector says why."""
    site(
        page,
        {
            **FILES,
            "style.css": STYLE + "#order { color: rgb(0, 0, 255); }\n",
            "index.html": INDEX.replace('class="cta"', 'id="order" class="cta"'),
        },
    )
    page.frame_locator(FRAME).locator("#order").wait_for()
    select_mode(page)
    pick(page, "button.cta", "button#order")
    inspector = page.locator(f"{tid('point-inspector')} {tid('inspector')}")
    # The inspector has followed the pick when it shows this page's colour.
    expect(inspector.locator(tid("inspector-color"))).to_have_value("#0000ff")
    page.fill(tid("inspector-color"), "#cc0000")
    page.click(tid("inspector-apply"))
    poll(lambda: file_text(page, "style.css"), lambda t: "#cc0000" in t, "the rule written")
    expect(inspector.locator(tid("inspector-status"))).to_contain_text(
        "is still #0000ff, not #cc0000: another rule wins", timeout=20_000
    )


def test_a_page_without_a_stylesheet_gets_one_linked_not_inline_styles(page):
    """A page whose styles sit in a <style> element: the inspector writes style.css
    (made, and linked last in the head, so it wins over the page's own), the preview
    shows it, and Undo takes back both files."""
    bare = INDEX.replace(
        '<link rel="stylesheet" href="style.css">', "<style>.hero { color: navy }</style>"
    )
    site(page, {"index.html": bare})
    page.frame_locator(FRAME).locator("h1.hero").wait_for()
    select_mode(page)
    pick(page, "h1", "h1.hero")
    inspector = page.locator(f"{tid('point-inspector')} {tid('inspector')}")
    expect(inspector.locator(tid("inspector-color"))).to_have_value("#000080")
    expect(inspector.locator(tid("inspector-where"))).to_contain_text(
        "style.css (new, linked from index.html) · .hero"
    )
    assert not page.is_checked(tid("inspector-only-this"))
    apply_colour(page, "h1.hero", "#cc0000", "rgb(204, 0, 0)")  # the linked style.css's
    assert file_text(page, "style.css") == ".hero {\n  color: #cc0000;\n}\n"
    assert file_text(page, "index.html") == bare.replace(
        "</head>", '<link rel="stylesheet" href="style.css"></head>'
    )
    page.wait_for_selector(f"{tid('point-undo')}:visible")
    page.click(tid("point-undo"))
    poll(lambda: file_text(page, "index.html"), lambda t: t == bare, "Undo restored index.html")
    assert (
        run_async(page, "from wiggum.web.app import APP\nawait APP.project.fs.exists('style.css')")
        is False
    )


def test_ask_ralph_to_change_this_carries_the_element(page, sim):
    select_mode(page)
    pick(page, "h1", "h1.hero")
    page.click(tid("point-ask-ralph"))
    chip = page.locator(f"{tid('point-ralph-form')} {tid('context-chip')}")
    chip.wait_for()
    assert "h1.hero" in chip.text_content() and "index.html:6" in chip.text_content()
    assert on_top(page, tid("point-ralph-start"), scroll=True)
    page.fill(tid("point-ralph-task"), "Make the heading friendlier.")
    asked = len(sim.chat_requests)
    sim.script([Turn(ralph_done("Done.", []))])
    page.click(tid("point-ralph-start"))
    wait_requests(sim, asked + 1, timeout=30, page=page)
    sent = json.dumps(sim.chat_requests[asked].json)
    for part in ("Make the heading friendlier.", "h1.hero", "index.html:6", "Fresh bread"):
        assert part in sent, part
    assert "font-size" in sent
    stop_ralph(page)
    # Ask Chief: the element waits as a chip before his message box.
    page.click(tid("tab-ralph"))
    page.click(tid("point-ask-chief"))
    chief_chip = page.locator(f"#panel-chief {tid('context-chip')}")
    chief_chip.wait_for()
    page.fill(tid("chat-input"), "Why is it so big?")
    going = run_async(page, "from wiggum.web.app import APP\nAPP.chat_view.composer.text")
    assert going.startswith("Why is it so big?\n\nThe element `h1.hero`")
    assert "index.html:6" in going and "font-size" in going
    assert on_top(page, tid("context-chip-remove"))
    page.click(tid("context-chip-remove"))
    chief_chip.wait_for(state="detached")
    going = run_async(page, "from wiggum.web.app import APP\nAPP.chat_view.composer.text")
    assert going == "Why is it so big?"
    page.fill(tid("chat-input"), "")


def test_an_element_the_sites_script_made_names_that_script(page):
    select_mode(page)
    pick(page, "li", "li")
    assert page.text_content(tid("point-where")) == "made by the page's script at app.js:1"
    assert page.locator(tid("point-edit-text")).is_hidden()


def test_a_message_the_site_forges_is_ignored(page):
    select_mode(page)
    pick(page, "h1", "h1.hero")
    page.evaluate(
        """() => { window.__pointSeen = 0;
        addEventListener("message", (e) => {
          if (e.data && String(e.data.type).startsWith("wiggum-point-")) window.__pointSeen += 1;
        }); }"""
    )
    site_frame = page.locator(FRAME).element_handle().content_frame()
    number = run_async(
        page,
        """
        from wiggum.web.app import APP
        places = APP.workspace.views["preview"].state.page.places
        [p.tag for p in places].index("h1")
        """,
    )
    # The runtime's script (with the secret in it) is gone before the site runs.
    assert site_frame.evaluate(f"forge({number})") is False
    page.wait_for_function("window.__pointSeen >= 3")
    page.wait_for_timeout(300)  # what a forged message would do is immediate; give it a beat
    assert page.text_content(tid("point-selector")) == "h1.hero"
    assert page.get_attribute(tid("preview-select"), "aria-pressed") == "true"
    assert file_text(page, "index.html") == INDEX


#: The boxes select mode lays out: the pane, the frame, the panel, and how far the
#: preview (the pane's scroller) is scrolled.
BOXES = """() => {
  const box = sel => { const r = document.querySelector(sel).getBoundingClientRect();
                       return {x: r.x, y: r.y, w: r.width, h: r.height}; };
  return {pane: box('[data-testid=ws-pane-preview]'),
          frame: box('#panel-ralph [data-testid=preview-frame]'),
          panel: box('[data-testid=point-panel]'),
          scrolled: document.querySelector('#panel-ralph [data-testid=preview]').scrollTop};
}"""


def test_the_page_stays_in_view_beside_or_above_the_inspector(page):
    """Select mode gives the page and its panel one screen of the pane: at 1280x800 the
    page keeps the top half while the inspector scrolls under it (the Apply reached and
    pressed, the new colour seen without scrolling back); in a wide pane they sit side
    by side; a phone's frame fits the room select mode leaves it."""
    select_mode(page)
    pick(page, "button.cta", "button.cta")
    page.locator(f"{tid('point-inspector')} {tid('inspector')}").wait_for(state="visible")
    # Each control scrolled to as focus or a wheel over the panel would: the panel moves,
    # not the pane, and the page stays where it was.
    for control in ("inspector-color", "inspector-apply", "preview-select"):
        # (polled: the inspector's fields may still be filling in just after the pick)
        poll(lambda c=control: on_top(page, tid(c), scroll="nearest"), bool, f"{control} on top")
    # A wheel over the panel past its end does not carry on into the pane.
    panel_box = page.locator(tid("point-panel")).bounding_box()
    page.mouse.move(panel_box["x"] + 20, panel_box["y"] + panel_box["height"] / 2)
    for _ in range(3):
        page.mouse.wheel(0, 600)
    page.wait_for_timeout(300)  # a wheel's scroll is smooth: let it end
    boxes = page.evaluate(BOXES)
    pane, box, panel = boxes["pane"], boxes["frame"], boxes["panel"]
    assert boxes["scrolled"] == 0, boxes
    assert box["y"] >= pane["y"] and box["h"] >= 0.4 * pane["h"], boxes
    assert panel["y"] >= box["y"] + box["h"], boxes
    assert panel["y"] + panel["h"] <= pane["y"] + pane["h"] + 1, boxes
    apply_colour(page, "button.cta", "#0055aa", "rgb(0, 85, 170)")
    assert page.evaluate(BOXES)["scrolled"] == 0  # the page is where the person looked
    shoot(page, "split-1280")
    assert serious_violations(page) == []  # select mode, the panel and the inspector
    # A phone's frame fits the half select mode leaves it (or is drawn at the least
    # scale, its slot scrolling, when that half is smaller still).
    page.click(tid("preview-width-phone"))
    page.wait_for_function(
        "() => /Phone 390 × 844 · \\d+%/.test("
        "document.querySelector('[data-testid=preview-scale]').textContent)"
    )
    pick(page, "a.menu", "a.menu")
    boxes = page.evaluate(BOXES)
    least = page.text_content(tid("preview-scale")).endswith(" 25%")
    assert least or boxes["frame"]["y"] + boxes["frame"]["h"] <= boxes["panel"]["y"] + 1, boxes
    page.click(tid("preview-width-desktop"))
    # A wide pane: the panel beside the page, both the pane's height.
    set_size(page, 1920, 1080)
    pick(page, "button.cta", "button.cta")
    page.locator(f"{tid('point-inspector')} {tid('inspector')}").wait_for(state="visible")
    boxes = page.evaluate(BOXES)
    pane, box, panel = boxes["pane"], boxes["frame"], boxes["panel"]
    assert panel["x"] >= box["x"] + box["w"], boxes
    assert box["w"] >= 0.6 * pane["w"] and box["h"] >= 0.8 * pane["h"], boxes
    assert panel["h"] >= 0.8 * pane["h"], boxes
    for control in ("inspector-apply", "point-ask-ralph", "preview-select"):
        assert on_top(page, tid(control), scroll="nearest"), control
    assert page.evaluate(BOXES)["scrolled"] == 0
    shoot(page, "beside-1920")
    page.click(tid("point-undo"))
    poll(lambda: file_text(page, "style.css"), lambda t: t == STYLE, "Undo restored style.css")


def test_screenshots_at_a_phones_size(page):
    set_size(page, 390, 844)
    preview_tab = page.locator(tid("ws-tab-preview"))
    if preview_tab.count() and preview_tab.is_visible():
        preview_tab.click()
    select_mode(page)
    assert on_top(page, tid("preview-select"), scroll=True)
    pick(page, "h1", "h1.hero")
    frame(page).locator("button.cta").hover()
    frame(page).locator("[data-wiggum-point=label]").wait_for(state="visible")
    shoot(page, "select-390")
    inspector = page.locator(f"{tid('point-inspector')} {tid('inspector')}")
    inspector.wait_for(state="visible")
    assert on_top(page, tid("inspector-apply"), scroll="nearest")
    shoot(page, "inspector-390")
    for control in ("point-edit-text", "point-ask-ralph"):
        assert on_top(page, tid(control), scroll=True), control
    # The Edit text button: the text is typed in the page, Esc puts it back.
    page.click(tid("point-edit-text"))
    frame(page).locator("h1[contenteditable]").wait_for()
    page.keyboard.type("Not kept")
    frame(page).locator("h1").scroll_into_view_if_needed()
    shoot(page, "edit-in-place-390")
    assert frame(page).locator("h1").text_content() == "Not kept"
    page.keyboard.press("Escape")
    frame(page).locator("h1:not([contenteditable])").wait_for()
    assert frame(page).locator("h1").text_content() == "Fresh bread"
    assert file_text(page, "index.html") == INDEX
