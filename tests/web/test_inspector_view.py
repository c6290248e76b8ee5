"""The style inspector's view under the fake DOM: it shows a selected element's
computed styles, says where a change goes, refuses a bad value at its field,
and Apply hands the planned edit to the callable it was given (here the real
``write_style_edit`` over a memory store and a real History)."""

from __future__ import annotations

from tests.session.test_inspector import CTA, FILES, SITE, target
from tests.web.test_views_build import put, shown
from wiggum.fs import MemoryFileStore
from wiggum.project.service import HistoryService


async def a_view(dom):
    from wiggum.session.inspector import write_style_edit
    from wiggum.web.views.inspector import InspectorView

    fs = MemoryFileStore()
    for path, text in FILES.items():
        await fs.write_text(path, text)
    history = HistoryService(fs)
    applied = []

    async def apply(edit):
        applied.append(edit)
        return await write_style_edit(fs, history, edit)

    box = put(dom)
    view = InspectorView(box, apply)
    return view, fs, history, applied


def field(view, prop):
    return view.el.querySelector(f"[data-prop={prop}]")


async def test_the_inspector_shows_the_element_and_its_computed_styles(dom):
    view, *_ = await a_view(dom)
    assert not shown(view.el)
    view.show(CTA, FILES)
    assert shown(view.el)
    p = view.parts
    assert p.element.textContent == "<a.btn.cta>" and p.source.textContent == "index.html:9"
    assert field(view, "color").value == "#333333"
    assert view.el.querySelector("[data-swatch=color]").value == "#333333"
    assert field(view, "background-color").value == "transparent"
    assert view.el.querySelector("[data-swatch=background-color]").value == "#000000"
    assert field(view, "font-weight").value == "400"
    assert field(view, "width").value == "57.5px"
    assert p.where.textContent == "Writes to site.css · .cta"
    # a shared class is offered in the list; "Only this element" writes the attribute
    assert shown(p.choice)
    labels = [o.textContent for o in p.destination.querySelectorAll("option")]
    assert labels == ["site.css · .cta", "base.css · .btn (all 2 elements with it)"]
    p.destination.value = "1"
    p.destination.dispatch("change")
    assert p.where.textContent == "Writes to base.css · .btn (all 2 elements with it)"
    p.only_this.click()
    p.only_this.dispatch("change")
    assert p.where.textContent == "Writes to index.html:9 · style attribute"


async def test_a_colour_input_and_its_field_say_the_same_colour(dom):
    view, *_ = await a_view(dom)
    view.show(CTA, FILES)
    swatch = view.el.querySelector("[data-swatch=color]")
    swatch.value = "#112233"
    swatch.dispatch("input")
    assert field(view, "color").value == "#112233"
    field(view, "color").value = "#abc"
    field(view, "color").dispatch("input")
    assert swatch.value == "#aabbcc"
    field(view, "color").value = "red"  # a name: the swatch keeps what it had
    field(view, "color").dispatch("input")
    assert swatch.value == "#aabbcc"


async def test_a_bad_value_is_refused_at_its_field_and_nothing_is_applied(dom):
    view, fs, _, applied = await a_view(dom)
    view.show(CTA, FILES)
    field(view, "font-size").value = "18"
    view.parts.apply.click()
    await dom.flush()
    error = view.el.querySelector("[data-error=font-size]")
    assert shown(error) and "needs a unit, such as 18px" in error.textContent
    assert not shown(view.el.querySelector("[data-error=color]"))
    assert applied == [] and await fs.read_text("css/site.css") == SITE
    view.parts.apply.click()  # nothing typed right yet: refused again, same place
    await dom.flush()
    assert shown(error)


async def test_nothing_changed_is_said_on_the_forms_error_line(dom):
    view, _, _, applied = await a_view(dom)
    view.show(CTA, FILES)
    view.parts.apply.click()
    await dom.flush()
    assert shown(view.parts.error) and "Nothing changed" in view.parts.error.textContent
    assert applied == []


async def test_apply_writes_the_rule_and_one_checkpoint_then_starts_from_it(dom):
    view, fs, history, applied = await a_view(dom)
    checkpoints = []
    history.subscribe(checkpoints.append)
    view.show(CTA, FILES)
    field(view, "color").value = "#CC0000"
    view.parts.apply.click()
    await dom.until(lambda: applied and shown(view.parts.status))
    await dom.flush()
    assert [e.summary for e in applied] == ["Style .cta: color #cc0000"]
    assert "  color: #cc0000;\n" in await fs.read_text("css/site.css")
    assert [c.message for c in checkpoints] == ["Style .cta: color #cc0000"]
    status = view.parts.status
    assert status.textContent == "Style .cta: color #cc0000 — applied (Undo in History)."
    assert status.getAttribute("data-error") == "false"
    assert not view.parts.apply.disabled
    # The written value is the field's new start: Apply again changes nothing.
    assert field(view, "color").value == "#cc0000"
    view.parts.apply.click()
    await dom.flush()
    assert len(applied) == 1 and "Nothing changed" in view.parts.error.textContent


async def test_a_new_class_becomes_the_elements_for_the_next_change(dom):
    view, fs, _, applied = await a_view(dom)
    view.show(target("h1", id_="welcome"), FILES)
    assert (
        view.parts.where.textContent
        == "Writes to site.css · .welcome (a new class on this element)"
    )
    field(view, "text-align").value = "center"
    view.parts.apply.click()
    await dom.until(lambda: applied and shown(view.parts.status))
    await dom.flush()
    assert '<h1 class="welcome" id="welcome">' in await fs.read_text("index.html")
    assert view.parts.where.textContent == "Writes to site.css · .welcome"
    assert field(view, "text-align").value == "center"


async def test_a_refused_write_is_said_and_apply_can_be_pressed_again(dom):
    from wiggum.session.inspector import StyleWritten
    from wiggum.web.views.inspector import InspectorView

    async def apply(edit):
        return StyleWritten("Not applied. This project is open in another tab.", error=True)

    view = InspectorView(put(dom), apply)
    view.show(CTA, FILES)
    field(view, "color").value = "red"
    view.parts.apply.click()
    await dom.flush()
    status = view.parts.status
    assert shown(status) and status.getAttribute("data-error") == "true"
    assert "another tab" in status.textContent
    assert field(view, "color").value == "red"  # what was typed stays
    assert not view.parts.apply.disabled
    view.close()


async def red_cta_applied(dom):
    """A view whose ``.cta`` was given #cc0000 (applied, its line shown)."""
    view, _, _, applied = await a_view(dom)
    view.show(CTA, FILES)
    field(view, "color").value = "#cc0000"
    view.parts.apply.click()
    await dom.until(lambda: applied and shown(view.parts.status))
    await dom.flush()
    return view


async def test_the_element_shown_again_says_when_the_page_does_not_show_the_change(dom):
    from dataclasses import replace

    view = await red_cta_applied(dom)
    files = dict(view.files)
    # The preview reloads and reports the element again: a rule that wins kept #333.
    view.show(CTA, files)
    status = view.parts.status
    assert shown(status) and status.getAttribute("data-error") == "true"
    assert status.textContent.startswith("Text colour is still #333333, not #cc0000")
    # Shown with the colour it was given: nothing to say.
    view.show(replace(CTA, computed={**CTA.computed, "color": "rgb(204, 0, 0)"}), files)
    assert not shown(status)
    # Another element: the last Apply is not its.
    view.show(target("h1", id_="welcome"), files)
    view.show(CTA, files)
    assert not shown(status)


async def test_recheck_says_it_without_drawing_the_fields_again(dom):
    from dataclasses import replace

    view = await red_cta_applied(dom)
    field(view, "width").value = "10px"  # typed since: stays
    view.recheck(replace(CTA, computed={**CTA.computed, "color": "rgb(204, 0, 0)"}))
    assert view.parts.status.getAttribute("data-error") == "false"  # the Apply's line stays
    view.recheck(CTA)
    assert view.parts.status.textContent.startswith("Text colour is still #333333")
    assert view.parts.status.getAttribute("data-error") == "true"
    assert field(view, "width").value == "10px"
    view.recheck(target("h1", id_="welcome"))  # another element: nothing to say of it
    assert view.parts.status.textContent.startswith("Text colour is still")
