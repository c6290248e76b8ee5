"""The select mode's edits: written at the right place, each a checkpoint in the
real History, with an Undo that puts the files back; refusals said, not raised."""

from __future__ import annotations

from wiggum.fs.memory import MemoryFileStore
from wiggum.preview import bundle_page
from wiggum.preview.point import Picked, new_secret
from wiggum.project.service import HistoryService
from wiggum.session.point import PointSession, element_context
from wiggum.session.workspace import Picked as PickedFile

INDEX = """<!doctype html>
<html><head><title>Bakery</title></head>
<body>
  <h1 class="hero">Fresh bread</h1>
  <p>Open <b>daily</b>.</p>
  <a href="menu.html">Menu</a>
  <img src="old.png" alt="Bread">
</body></html>
"""


async def setup():
    fs = MemoryFileStore({"index.html": INDEX, "old.png": b"\x89PNG old", ".ralph/notes.md": "x"})
    history = HistoryService(fs)
    await history.checkpoint("you", "start")
    session = PointSession(lambda: fs, lambda: history)
    bundle = await bundle_page(fs, "index.html", point=new_secret())
    return fs, history, session, bundle.places


def number(places, tag):
    return next(i for i, p in enumerate(places) if p.tag == tag)


def picked(places, tag, **over):
    fields = {"place": number(places, tag), "tag": tag, "plain": True, "width": 10, "height": 5}
    fields.update(over)
    return Picked(**fields)


async def messages(history):
    return [cp.message for cp in await (await history.history()).list()]


async def test_text_typed_in_place_is_written_checkpointed_and_undone():
    fs, history, session, places = await setup()
    done = await session.commit_text(number(places, "h1"), "Bread & cakes", places)
    assert not done.error and done.changed == ("index.html",)
    text = await fs.read_text("index.html")
    assert text == INDEX.replace(">Fresh bread<", ">Bread &amp; cakes<")
    assert (await messages(history))[0] == "Edit text of <h1> in index.html"
    assert session.can_undo and session.undo_label.startswith("Undo: Edit text of <h1>")
    undone = await session.undo()
    assert not undone.error and await fs.read_text("index.html") == INDEX
    assert (await messages(history))[:2] == [
        "Undo: Edit text of <h1> in index.html",
        "Edit text of <h1> in index.html",
    ]
    assert not session.can_undo
    assert (await session.undo()).error


async def test_undo_refuses_when_the_file_changed_since_and_loses_nothing():
    fs, _, session, places = await setup()
    await session.commit_text(number(places, "h1"), "New", places)
    await fs.write_text("index.html", "<p>Ralph rewrote it</p>")
    done = await session.undo()
    assert done.error and "History" in done.message
    assert await fs.read_text("index.html") == "<p>Ralph rewrote it</p>"


async def test_mixed_markup_and_script_made_elements_are_refused_with_the_reason():
    fs, history, session, places = await setup()
    session.pick(picked(places, "p", plain=False), places)
    assert "holds other markup (<b>)" in (await session.text_refusal())
    done = await session.commit_text(number(places, "p"), "x", places)
    assert done.error and await fs.read_text("index.html") == INDEX
    session.pick(Picked(place=-1, tag="li", plain=True, made="app.js:4"), places)
    assert "app.js:4" in (await session.text_refusal())
    session.pick(picked(places, "h1"), places)
    assert await session.text_refusal() is None
    assert (await messages(history)) == ["start"]


async def test_a_links_text_and_address_are_edited_together():
    fs, _, session, places = await setup()
    session.pick(picked(places, "a", href="menu.html"), places)
    done = await session.set_link("Our menu", "prices.html")
    assert not done.error
    assert '<a href="prices.html">Our menu</a>' in await fs.read_text("index.html")


async def test_an_address_is_written_escaped_and_a_moved_tag_is_refused_not_written_elsewhere():
    fs, _, session, places = await setup()
    session.pick(picked(places, "a", href="menu.html"), places)
    done = await session.set_link(None, 'menu.html?day=mon&q="rye"')
    assert not done.error, done.message
    written = '<a href="menu.html?day=mon&amp;q=&quot;rye&quot;">Menu</a>'
    assert await fs.read_text("index.html") == INDEX.replace(
        '<a href="menu.html">Menu</a>', written
    )
    await fs.write_text("index.html", "<!-- moved -->\n" + INDEX)
    done = await session.set_link(None, "prices.html")
    assert done.error and done.message.startswith("index.html: the file has no <a> where")
    assert "Select the element again" in done.message
    assert await fs.read_text("index.html") == "<!-- moved -->\n" + INDEX


async def test_an_image_is_replaced_by_an_upload_kept_under_assets():
    fs, history, session, places = await setup()
    session.pick(picked(places, "img", plain=True), places)

    async def read() -> bytes:
        return b"\x89PNG new"

    done = await session.replace_image(PickedFile("loaf.png", 8, read))
    assert not done.error, done.message
    assert await fs.read_bytes("assets/loaf.png") == b"\x89PNG new"
    assert '<img src="assets/loaf.png" alt="Bread">' in await fs.read_text("index.html")
    assert (await messages(history))[0] == "Replace image in index.html with assets/loaf.png"
    await session.undo()
    assert '<img src="old.png" alt="Bread">' in await fs.read_text("index.html")


async def test_an_ask_carries_selector_place_source_size_and_styles():
    _, _, session, places = await setup()
    styles = {"color": "rgb(0, 0, 0)", "font-size": "32px"}
    session.pick(picked(places, "h1", classes=("hero",), styles=styles, width=640), places)
    context = await session.context()
    assert "`h1.hero`" in context and "index.html:4" in context and "640×5 px" in context
    assert "color: rgb(0, 0, 0); font-size: 32px" in context
    assert '   4    <h1 class="hero">Fresh bread</h1>' in context
    made = element_context(
        session.pick(Picked(place=-1, tag="li", text="Rye", made=""), places), None
    )
    assert "source not known" in made and "“Rye”" in made


async def test_several_files_are_one_edit_one_checkpoint_one_undo():
    fs, history, session, _ = await setup()
    await fs.write_text("style.css", "h1 { color: red }")
    done = await session.apply(
        {
            "style.css": ".cta { color: #c00 }",
            "index.html": INDEX.replace("<a ", '<a class="cta" '),
        },
        "Style .cta: color #c00",
    )
    assert not done.error and (await messages(history))[0] == "Style .cta: color #c00"
    await session.undo()
    assert await fs.read_text("style.css") == "h1 { color: red }"
    assert await fs.read_text("index.html") == INDEX


async def test_an_edit_written_elsewhere_is_remembered_and_undone_whole():
    fs, history, session, _ = await setup()
    before = await session.snapshot(["index.html", "new.css"])
    assert before == {"index.html": INDEX.encode(), "new.css": None}
    await fs.write_text("new.css", ".hero { color: red }")
    await fs.write_text("index.html", INDEX.replace("<h1 ", '<h1 id="x" '))
    after = {p: await fs.read_bytes(p) for p in before}
    await history.checkpoint("you", "Style .hero: color red")
    session.remember("Style .hero: color red", {p: (before[p], after[p]) for p in before})
    assert session.undo_label == "Undo: Style .hero: color red"
    done = await session.undo()
    assert not done.error
    assert await fs.read_text("index.html") == INDEX and not await fs.exists("new.css")
    assert (await messages(history))[0] == "Undo: Style .hero: color red"
