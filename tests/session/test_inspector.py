"""The style inspector's decisions against real parts: where a change goes (a
class of the element's own, a new class, a shared class offered, a style
attribute), the files planned, and the edit written as one checkpoint of a
real History (git), which a revert takes back whole."""

from __future__ import annotations

from dataclasses import replace

import pytest

from tests.page_reference import PageRead
from wiggum.fs import MemoryFileStore
from wiggum.project.service import HistoryService
from wiggum.project.start_tag import attributes
from wiggum.session.inspector import (
    StyleEdit,
    StyleRefused,
    StyleTarget,
    changed_values,
    destinations,
    inspector_fields,
    plan_style_edit,
    read_style_files,
    write_style_edit,
)
from wiggum.ui.style_values import INSPECTED

PAGE = (
    "<!doctype html>\n<html lang=en>\n<head>\n"
    '  <link rel="stylesheet" href="css/base.css">\n'
    '  <link rel="stylesheet" href="css/site.css">\n'
    "</head>\n<body>\n"
    '  <h1 id="welcome">Bakery</h1>\n'
    '  <a class="btn cta" href="#order">Order</a>\n'
    '  <a class="btn" href="#menu">Menu</a>\n'
    '  <p class="lead">Fresh every day</p>\n'
    "  <footer>Open 8–18</footer>\n"
    "</body>\n</html>\n"
)
BASE = "body {\n  margin: 0;\n}\n.btn {\n  color: #333;\n}\n"
SITE = "/* the site's own */\n.cta {\n  padding: 4px 8px;\n}\n"
ABOUT = '<!doctype html>\n<p class="lead">About us</p>\n'
COMPUTED = {
    "color": "rgb(51, 51, 51)",
    "background-color": "rgba(0, 0, 0, 0)",
    "font-size": "16px",
    "font-weight": "400",
    "font-family": '"Times New Roman"',
    "margin": "0px",
    "padding": "4px 8px",
    "text-align": "start",
    "width": "57.5px",
}
SHEETS = ("css/base.css", "css/site.css")


def target(tag: str, *, id_: str = "", classes: tuple[str, ...] = ()) -> StyleTarget:
    marker = f'<{tag} id="{id_}"' if id_ else f'<{tag} class="{" ".join(classes)}"'
    if not id_ and not classes:
        marker = f"<{tag}>"
    offset = PAGE.index(marker)
    line = PAGE.count("\n", 0, offset) + 1
    page = {"computed": COMPUTED, "html_path": "index.html", "css_files": SHEETS}
    return StyleTarget(tag=tag, id=id_, classes=classes, offset=offset, line=line, **page)


FILES = {"index.html": PAGE, "css/base.css": BASE, "css/site.css": SITE, "about.html": ABOUT}
CTA = target("a", classes=("btn", "cta"))


def test_fields_show_the_computed_values_readably():
    fields = {f.prop: f for f in inspector_fields(CTA)}
    assert tuple(fields) == INSPECTED and len(INSPECTED) == 9
    assert (fields["font-family"].kind, fields["font-family"].value) == (
        "text",
        '"Times New Roman"',
    )
    assert (fields["color"].kind, fields["color"].value) == ("colour", "#333333")
    assert fields["background-color"].value == "transparent"
    assert fields["font-weight"].kind == "choice" and "700" in fields["font-weight"].options
    assert fields["text-align"].value == "start"
    bold = StyleTarget(
        tag="b", computed={"font-weight": "bold"}, html_path="index.html", offset=0, line=1
    )
    weight = next(f for f in inspector_fields(bold) if f.prop == "font-weight")
    assert weight.options[0] == "bold"  # a value outside the list is still offered


def test_only_the_fields_the_person_changed_are_changes():
    entered = {f.prop: f.value for f in inspector_fields(CTA)}
    assert changed_values(CTA, entered) == {}
    entered.update({"color": "#CC0000", "font-size": " 18px ", "width": ""})
    assert changed_values(CTA, entered) == {"color": "#CC0000", "font-size": "18px"}


def test_a_class_of_the_elements_own_with_a_rule_is_the_choice():
    places = destinations(CTA, FILES)
    assert [(d.kind, d.class_name, d.css_path, d.reach) for d in places] == [
        ("rule", "cta", "css/site.css", 1),
        ("rule", "btn", "css/base.css", 2),
        ("inline", None, None, 1),
    ]
    assert places[0].label == "site.css · .cta"
    assert places[1].label == "base.css · .btn (all 2 elements with it)"
    assert places[2].label == "index.html:9 · style attribute"


def test_a_class_shared_with_another_page_is_not_the_elements_own():
    lead = target("p", classes=("lead",))
    first = destinations(lead, FILES)[0]
    assert (first.kind, first.class_name, first.css_path) == ("new-class", "wg-p-1", "css/site.css")
    alone = destinations(lead, {k: v for k, v in FILES.items() if k != "about.html"})[0]
    assert (alone.kind, alone.class_name) == ("rule", "lead")  # its rule is added to site.css


def test_a_new_class_is_the_id_when_free_else_numbered():
    h1 = target("h1", id_="welcome")
    assert destinations(h1, FILES)[0].class_name == "welcome"
    taken = {**FILES, "css/site.css": SITE + ".welcome { color: red }\n"}
    assert destinations(h1, taken)[0].class_name == "wg-h1-1"
    footer = target("footer")
    busy = {**FILES, "about.html": ABOUT + '<i class="wg-footer-1"></i>'}
    assert destinations(footer, busy)[0].class_name == "wg-footer-2"


#: The page with its styles in a <style> element, linking no stylesheet.
BARE = PAGE.replace(
    '  <link rel="stylesheet" href="css/base.css">\n  <link rel="stylesheet" href="css/site.css">\n',
    "  <style>h1 { color: navy }</style>\n",
)


def bare_target(path: str = "index.html") -> StyleTarget:
    offset = BARE.index('<h1 id="welcome">')
    line = BARE.count("\n", 0, offset) + 1
    return StyleTarget(
        tag="h1", id="welcome", computed=COMPUTED, html_path=path, offset=offset, line=line
    )


def test_a_page_without_a_stylesheet_gets_style_css_linked_never_inline_unasked():
    from wiggum.session.inspector import after_apply, chosen_destination

    files = {"index.html": BARE}
    places = destinations(bare_target(), files)
    assert [(d.kind, d.css_path, d.link) for d in places] == [
        ("new-class", "style.css", "style.css"),
        ("inline", None, None),
    ]
    assert places[0].label == (
        "style.css (new, linked from index.html) · .welcome (a new class on this element)"
    )
    assert chosen_destination(places, 0, False).kind == "new-class"
    edit = plan_style_edit(bare_target(), {"color": "#CC0000"}, files)
    assert [p for p, _ in edit.writes] == ["style.css", "index.html"]
    assert edit.css_text == ".welcome {\n  color: #cc0000;\n}\n"
    assert edit.before == (("style.css", ""), ("index.html", BARE))
    # Last in the head, after the page's own <style>, indented as its neighbours;
    # every other character of the page kept.
    link = '  <link rel="stylesheet" href="style.css">\n'
    assert edit.html_text == BARE.replace("</head>", link + "</head>").replace(
        '<h1 id="welcome">', '<h1 class="welcome" id="welcome">'
    )
    read = PageRead(edit.html_text)
    assert read.links == [("style.css", True)] and dict(read.tags["h1"][0])["class"] == "welcome"
    assert edit.linked == "style.css" and edit.moved == (len(link), 1)
    # Applied: the element is where the page now has it; the next change edits the
    # rule of the sheet now linked, and links nothing again.
    moved, after = after_apply(bare_target(), edit, files)
    assert attributes(after["index.html"], moved.offset)["id"] == "welcome"
    assert after["index.html"].splitlines()[moved.line - 1].lstrip().startswith("<h1 ")
    assert moved.css_files == ("style.css",)
    again = plan_style_edit(moved, {"font-size": "20px"}, after)
    assert again.html_text is None and again.linked is None
    assert again.css_text == ".welcome {\n  color: #cc0000;\n  font-size: 20px;\n}\n"


def test_a_style_css_the_page_does_not_link_is_linked_and_kept():
    files = {"blog/post.html": BARE, "style.css": "body { margin: 0 }\n"}
    where = destinations(bare_target("blog/post.html"), files)[0]
    assert (where.css_path, where.link) == ("style.css", "../style.css")
    assert where.label.startswith("style.css (linked from post.html) · .welcome")
    edit = plan_style_edit(bare_target("blog/post.html"), {"color": "red"}, files)
    assert edit.css_text == "body { margin: 0 }\n\n.welcome {\n  color: red;\n}\n"
    assert PageRead(edit.html_text).links == [("../style.css", True)]


def test_plan_edits_the_elements_own_rule():
    edit = plan_style_edit(CTA, {"color": "#CC0000", "font-size": "18px"}, FILES)
    assert edit.summary == "Style .cta: color #cc0000, font-size 18px"
    assert edit.where == "site.css · .cta"
    assert edit.css_path == "css/site.css" and edit.html_text is None
    assert edit.css_text == SITE.replace("8px;\n", "8px;\n  color: #cc0000;\n  font-size: 18px;\n")
    assert edit.before == (("css/site.css", SITE),)


def test_plan_adds_a_new_class_to_the_start_tag_and_its_rule():
    h1 = target("h1", id_="welcome")
    edit = plan_style_edit(h1, {"text-align": "center"}, FILES)
    assert edit.html_text == PAGE.replace('<h1 id="welcome">', '<h1 class="welcome" id="welcome">')
    assert edit.css_text == SITE + "\n.welcome {\n  text-align: center;\n}\n"
    assert edit.summary == "Style .welcome (new class on <h1#welcome>): text-align center"
    assert [p for p, _ in edit.writes] == ["css/site.css", "index.html"]


def test_plan_for_only_this_element_writes_a_style_attribute():
    inline = destinations(CTA, FILES)[-1]
    edit = plan_style_edit(CTA, {"margin": "0 auto"}, FILES, inline)
    assert edit.css_path is None
    assert edit.html_text == PAGE.replace(
        '<a class="btn cta"', '<a style="margin: 0 auto;" class="btn cta"'
    )
    assert edit.summary == "Style <a.btn.cta> at index.html:9 (only this element): margin 0 auto"
    files = {**FILES, "index.html": edit.html_text}
    again = plan_style_edit(CTA, {"margin": "4px", "color": "red"}, files, inline)
    assert 'style="margin: 4px; color: red;"' in again.html_text


def test_a_font_with_quotes_round_trips_in_the_style_attribute_and_a_rule():
    font = '"Open Sans", sans-serif'
    inline = destinations(CTA, FILES)[-1]
    edit = plan_style_edit(CTA, {"font-family": font}, FILES, inline)
    written = '<a style="font-family: &quot;Open Sans&quot;, sans-serif;" class="btn cta"'
    assert edit.html_text == PAGE.replace('<a class="btn cta"', written)
    assert attributes(edit.html_text, CTA.offset)["style"] == f"font-family: {font};"
    read = [a for a in PageRead(edit.html_text).tags["a"] if ("class", "btn cta") in a]
    assert read == [[("style", f"font-family: {font};"), ("class", "btn cta"), ("href", "#order")]]
    # A later change of another property keeps the font, quotes and all.
    files = {**FILES, "index.html": edit.html_text}
    again = plan_style_edit(CTA, {"color": "red"}, files, inline)
    style = attributes(again.html_text, CTA.offset)["style"]
    assert style == f"font-family: {font}; color: red;"
    rule = plan_style_edit(CTA, {"font-family": font}, FILES)
    assert rule.css_text == SITE.replace("8px;\n", f"8px;\n  font-family: {font};\n")


def test_plan_refuses_bad_values_per_field_and_no_change():
    with pytest.raises(StyleRefused) as exc:
        plan_style_edit(CTA, {"font-size": "16", "color": "blu", "width": "10px"}, FILES)
    assert set(exc.value.fields) == {"font-size", "color"}
    assert "needs a unit" in exc.value.fields["font-size"]
    with pytest.raises(StyleRefused, match="Nothing changed"):
        plan_style_edit(CTA, {}, FILES)


def test_plan_refuses_a_page_changed_under_the_selection():
    moved = {**FILES, "index.html": "<!-- new line -->\n" + PAGE}
    h1 = target("h1", id_="welcome")
    with pytest.raises(StyleRefused, match=r"index.html: .*Select the element again"):
        plan_style_edit(h1, {"color": "red"}, moved)


def test_plan_refuses_an_unclosed_stylesheet_naming_the_file():
    broken = {**FILES, "css/site.css": ".cta {\n  padding: 0;\n"}
    with pytest.raises(StyleRefused, match=r"css/site.css: line 1 .*never closed"):
        plan_style_edit(CTA, {"color": "red"}, broken, destinations(CTA, FILES)[0])


async def a_project() -> tuple[MemoryFileStore, HistoryService, str]:
    fs = MemoryFileStore()
    for path, text in FILES.items():
        await fs.write_text(path, text)
    await fs.write_text(".ralph/progress.md", "notes\n")
    history = HistoryService(fs)
    first = await history.checkpoint("Ralph iteration 1", "Build the page")
    return fs, history, first.id


async def loaded(*names: str) -> None:
    loaded.names = names  # type: ignore[attr-defined]


async def test_read_style_files_loads_tinycss2_and_reads_the_pages_and_sheets():
    fs, _, _ = await a_project()
    files = await read_style_files(fs, CTA, loaded)
    assert loaded.names == ("tinycss2",)  # type: ignore[attr-defined]
    assert files == FILES  # the agents' notes are not read; about.html is (a class's reach)


async def test_a_written_edit_is_one_checkpoint_that_a_revert_takes_back_whole():
    fs, history, first = await a_project()
    files = await read_style_files(fs, target("h1", id_="welcome"), loaded)
    edit = plan_style_edit(target("h1", id_="welcome"), {"color": "#c00"}, files)
    shown = []
    history.subscribe(shown.append)
    written = await write_style_edit(fs, history, edit)
    assert not written.error and written.paths == ("css/site.css", "index.html")
    assert (
        written.message
        == "Style .welcome (new class on <h1#welcome>): color #c00 — applied (Undo in History)."
    )
    assert await fs.read_text("css/site.css") == edit.css_text
    assert await fs.read_text("index.html") == edit.html_text
    assert len(shown) == 1
    cp = shown[0]
    assert (cp.author, cp.message) == ("you", edit.summary)
    assert sorted(f.path for f in cp.files) == ["css/site.css", "index.html"]

    await history.revert(first)
    assert await fs.read_text("css/site.css") == SITE
    assert await fs.read_text("index.html") == PAGE


async def test_a_file_changed_since_the_plan_is_not_overwritten():
    fs, history, _ = await a_project()
    edit = plan_style_edit(CTA, {"color": "red"}, FILES)
    await fs.write_text("css/site.css", SITE + "/* Ralph's */\n")
    written = await write_style_edit(fs, history, edit)
    assert written.error and "css/site.css changed since the inspector read it" in written.message
    assert await fs.read_text("css/site.css") == SITE + "/* Ralph's */\n"


class RefusingStore(MemoryFileStore):
    async def write_many(self, items, *, remove=()):
        from wiggum.fs import StorageFull

        raise StorageFull("The browser's storage for this site is full.")


async def test_a_refused_write_changes_no_file_and_says_what_to_do():
    fs = RefusingStore()
    for path, text in FILES.items():
        await MemoryFileStore.write_text(fs, path, text)
    history = HistoryService(fs)
    h1 = target("h1", id_="welcome")
    edit = plan_style_edit(h1, {"color": "red"}, FILES)
    written = await write_style_edit(fs, history, edit)
    assert written.error and written.message.startswith("Not applied. The browser's storage")
    assert "Free some space" in written.message
    assert await fs.read_text("index.html") == PAGE and await fs.read_text("css/site.css") == SITE


async def test_a_failed_checkpoint_still_says_the_change_was_applied():
    class Broken:
        async def checkpoint(self, author, message, *, leave_out=()):
            raise RuntimeError("git said no")

    fs, _, _ = await a_project()
    edit = plan_style_edit(CTA, {"color": "red"}, FILES)
    written = await write_style_edit(fs, Broken(), edit)
    assert written.error and "applied, but no checkpoint was kept in History" in written.message
    assert await fs.read_text("css/site.css") == edit.css_text


def test_a_style_edit_lists_its_writes_stylesheet_first():
    edit = StyleEdit("s", "w", css_path="a.css", css_text="x", html_path="i.html", html_text="y")
    assert edit.writes == (("a.css", "x"), ("i.html", "y"))


def test_the_chosen_place_is_the_lists_unless_only_this_element():
    from wiggum.session.inspector import chosen_destination, class_choices

    places = destinations(CTA, FILES)
    assert [d.class_name for d in class_choices(places)] == ["cta", "btn"]
    assert chosen_destination(places, 0, False).class_name == "cta"
    assert chosen_destination(places, 1, False).class_name == "btn"
    assert chosen_destination(places, 7, False).class_name == "cta"  # out of the list
    assert chosen_destination(places, 1, True).kind == "inline"
    bare = destinations(bare_target(), {"index.html": BARE})
    assert [d.kind for d in class_choices(bare)] == ["new-class"]
    assert chosen_destination(bare, 0, True).kind == "inline"


def test_after_apply_the_written_values_and_class_are_the_elements():
    from wiggum.session.inspector import after_apply

    h1 = target("h1", id_="welcome")
    edit = plan_style_edit(h1, {"color": "#C00", "width": "50%"}, FILES)
    moved, files = after_apply(h1, edit, FILES)
    assert moved.classes == ("welcome",)
    assert moved.computed["color"] == "#c00" and moved.computed["width"] == "50%"
    assert files["index.html"] == edit.html_text and files["css/site.css"] == edit.css_text
    assert changed_values(moved, {"color": "#c00", "width": "50%"}) == {}
    again = destinations(moved, files)[0]
    assert (again.kind, again.class_name) == ("rule", "welcome")


def test_a_class_with_any_characters_stays_one_class_in_the_stylesheet():
    from wiggum.session.inspector import class_selector

    assert class_selector("cta") == ".cta"
    assert class_selector("w-1/2") == r".w-1\/2"
    odd = "x{}body{display:none}"
    page = PAGE.replace('class="btn cta"', f'class="btn {odd}"')
    tgt = replace(CTA, classes=("btn", odd))
    files = {**FILES, "index.html": page}
    edit = plan_style_edit(tgt, {"color": "red"}, files)
    assert edit.css_text.endswith("\n.x\\{\\}body\\{display\\:none\\} {\n  color: red;\n}\n")
    again = plan_style_edit(tgt, {"color": "blue"}, {**files, "css/site.css": edit.css_text})
    assert again.css_text == edit.css_text.replace("red", "blue")  # the same rule found again


def test_a_value_the_page_does_not_show_is_said_with_what_to_do():
    from wiggum.session.inspector import unseen

    edit = plan_style_edit(CTA, {"color": "#cc0000", "margin": "1rem"}, FILES)
    shown_now = {**COMPUTED, "color": "rgb(204, 0, 0)", "margin": "16px"}
    assert unseen(edit, shown_now) is None
    lost = unseen(edit, COMPUTED)  # a rule that wins keeps #333333
    assert lost == (
        "Text colour is still #333333, not #cc0000: another rule wins over site.css · .cta "
        "(more specific, later, or !important). Tick Only this element, or ask Ralph to "
        "change that rule."
    )
    assert unseen(edit, {}) is None  # nothing reported: nothing said
