"""Ralph's workspace stage under the fake page: the Code switch and the code pane
exist only while a file is open; opening one brings the code forward, closing it
brings the preview back; History refreshes when it is brought forward."""

from __future__ import annotations

import pytest

from tests.web.test_views_build import CodeMirror, RalphActions, put, shown


async def mount(dom, width: int = 1280):
    """Ralph's workspace on a project holding ``index.html``, the window ``width`` px wide."""
    from wiggum.fs import MemoryFileStore
    from wiggum.web.views.ralph import RalphView
    from wiggum.web.workspace_mount import Workspace

    dom.window.innerWidth = width
    dom.window.wiggumEditor = CodeMirror()
    fs = MemoryFileStore()
    await fs.write_text("index.html", "<h1>Hi</h1>")
    ralph = RalphView(RalphActions())
    put(dom, ralph.el)
    space = Workspace(ralph.workspace, ralph, lambda: None, lambda _paths: None)
    space.show(fs, "p1")
    await dom.flush()
    return space


def active(layout, name: str) -> bool:
    return layout.panes[name].getAttribute("data-active") == "true"


@pytest.mark.parametrize("width", [1280, 390])
async def test_the_code_pane_comes_and_goes_with_an_open_file(dom, width):
    space = await mount(dom, width)
    layout, files = space.layout, space.views["files"]
    narrow = width < 900
    # No file: no Code tab anywhere, and the stage shows the preview.
    assert not shown(layout.tabs["code"]) and not shown(layout.stage_tabs["code"])
    assert active(layout, "preview") != narrow and not active(layout, "code")
    await files.open("index.html")
    await dom.flush()
    assert shown(layout.tabs["code"]) and shown(layout.stage_tabs["code"])
    assert active(layout, "code") and not active(layout, "preview")
    assert layout.stage_tabs["code"].getAttribute("aria-selected") == "true"
    if narrow:
        assert not active(layout, "files") and layout.tabs["code"].getAttribute("tabindex") == "0"
    files.close_file()
    await dom.flush()
    assert not shown(layout.tabs["code"]) and not active(layout, "code")
    assert active(layout, "preview") != narrow
    assert active(layout, "files")  # on a phone: back to the files it came from
    space.close()


async def test_history_is_read_when_brought_forward(dom):
    space = await mount(dom)
    layout, history = space.layout, space.views["history"]
    assert not history.shown
    layout.stage_tabs["history"].click()
    await dom.flush()
    assert history.shown and active(layout, "history") and not active(layout, "preview")
    assert history.status.textContent == "No project is open."
    layout.stage_tabs["preview"].click()
    assert not history.shown and active(layout, "preview")
    # The stage's switch is a tab list: the arrows skip the Code tab while no file is open.
    assert layout.stage_tabs["preview"].dispatch("keydown", key="ArrowRight").defaultPrevented
    assert active(layout, "history") and history.shown
    space.close()
