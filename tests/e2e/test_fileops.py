"""File operations above Ralph's file tree, in Chromium, on one booted page.

New file (a refused ``..`` name first, then a good one), rename, delete after
the inline confirmation, upload by the picker (an image kept byte for byte, a
file over the limit and a reserved name refused with their reasons), download
of the open file.  Every step is checked in the project's real FileStore.
"""

from __future__ import annotations

import base64
import json
from pathlib import Path

import pytest
from wiggum_e2e import booted_page, run_async, set_size, show_pane, tid

pytestmark = pytest.mark.e2e

SHOTS = Path("/tmp/shots-workspace")
PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg=="
)
SITE = {"index.html": "<!doctype html><h1>Home</h1>", "pages/menu.html": "<h1>Menu</h1>"}


def listing(page) -> dict:
    return run_async(
        page,
        """
        from wiggum.web.app import APP
        fs = APP.storage.files(APP.project_id)
        out = {}
        for p in await fs.list("", recursive=True):
            out[p] = (await fs.read_bytes(p)).hex()
        out
        """,
    )


@pytest.fixture(scope="module")
def opage(browser, base_url):
    with booted_page(browser, base_url) as page:
        set_size(page, 1280, 800)
        run_async(
            page,
            f"""
            from wiggum.web.app import APP
            fs = APP.storage.files(APP.project_id)
            for path, text in {json.dumps(SITE)}.items():
                await fs.write_text(path, text)
            APP.refresh_workspace(preview=True)
            True
            """,
        )
        page.click(tid("tab-ralph"))
        page.wait_for_selector(f'{tid("file-entry")}[data-path="pages/menu.html"]')
        yield page


def test_new_rename_delete(opage):
    page = opage
    page.click(f'{tid("file-entry")}[data-path="pages/menu.html"]')
    page.wait_for_selector(f'{tid("file-viewer")}[data-path="pages/menu.html"]')
    page.click(tid("file-op-new-file"))
    assert "pages" in page.locator(tid("file-op-form")).text_content()
    page.fill(tid("file-op-input"), "../../evil.html")
    page.click(tid("file-op-ok"))
    message = page.locator(tid("file-op-message"))
    message.wait_for(state="visible")
    assert "'..'" in message.text_content()
    assert page.locator(tid("file-op-input")).input_value() == "../../evil.html"  # kept
    page.fill(tid("file-op-input"), "team.html")
    page.click(tid("file-op-ok"))
    page.wait_for_selector(f'{tid("file-viewer")}[data-path="pages/team.html"]')
    assert "pages/team.html" in listing(page)

    page.click(tid("file-op-rename"))
    page.fill(tid("file-op-input"), "staff.html")
    page.click(tid("file-op-ok"))
    page.wait_for_selector(f'{tid("file-viewer")}[data-path="pages/staff.html"]')
    files = listing(page)
    assert "pages/staff.html" in files and "pages/team.html" not in files

    page.click(tid("file-op-delete"))
    form = page.locator(tid("file-op-form"))
    assert "Delete pages/staff.html?" in form.text_content()
    assert not page.locator(tid("file-op-input")).is_visible()
    assert "pages/staff.html" in listing(page)  # asked first, nothing gone yet
    page.click(tid("file-op-ok"))
    page.wait_for_selector(f'{tid("file-entry")}[data-path="pages/staff.html"]', state="detached")
    assert "pages/staff.html" not in listing(page)


def test_upload_and_download(opage, tmp_path):
    page = opage
    page.click(f'{tid("file-entry")}[data-path="index.html"]')
    page.wait_for_selector(f'{tid("file-viewer")}[data-path="index.html"]')
    logo = tmp_path / "logo.png"
    logo.write_bytes(PNG)
    big = tmp_path / "big.bin"
    big.write_bytes(b"\0" * (5 * 1024 * 1024 + 1))
    bad = tmp_path / "con.html"
    bad.write_text("x")
    page.set_input_files(tid("file-op-picker"), [str(logo), str(big), str(bad)])
    page.wait_for_selector(f'{tid("file-viewer")}[data-path="logo.png"][data-kind="image"]')
    text = page.locator(tid("file-op-message")).text_content()
    assert "Uploaded logo.png" in text
    assert "big.bin is 5.0 MB" in text and "up to 5.0 MB" in text
    assert "reserved" in text
    files = listing(page)
    assert bytes.fromhex(files["logo.png"]) == PNG
    assert "big.bin" not in files and "con.html" not in files
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "fileops-1280.png"))

    with page.expect_download() as info:
        page.click(tid("file-op-download"))
    download = info.value
    assert download.suggested_filename == "logo.png"
    assert Path(download.path()).read_bytes() == PNG


def test_preview_toolbar_and_new_tab(opage):
    page = opage
    run_async(
        page,
        f"""
        from wiggum.web.app import APP
        fs = APP.storage.files(APP.project_id)
        await fs.write_text("index.html", '<!doctype html><h1>Home</h1><img src="logo.png" alt="logo">'
                            '<a href="about.html">About</a>')
        await fs.write_text("about.html", "<!doctype html><h1>About us</h1>")
        await fs.write_bytes("logo.png", bytes.fromhex({PNG.hex()!r}))  # as the upload stores it
        APP.refresh_workspace(preview=True)
        True
        """,
    )
    show_pane(page, "preview")  # an earlier test's open file has the code in front
    frame = page.frame_locator(tid("preview-frame"))
    frame.locator("h1", has_text="Home").wait_for()
    # the image (stored as bytes, as an upload stores it) shows in the site
    src = frame.locator('img[alt="logo"]').get_attribute("src")
    assert src.startswith("data:image/png;base64,"), src[:60]
    box = page.locator(tid("preview-path-input"))
    assert box.input_value() == "index.html"
    box.fill("about.html")
    box.press("Enter")
    frame.locator("h1", has_text="About us").wait_for()
    assert page.locator(tid("preview")).get_attribute("data-path") == "about.html"

    page.click(tid("preview-width-phone"))
    # What the site sees, even where the pane is smaller (the frame is drawn scaled).
    width = page.locator(tid("preview-frame")).evaluate("f => f.offsetWidth")
    assert width == 390
    page.click(tid("preview-width-desktop"))
    page.click(tid("preview-width-tablet"))
    assert page.locator(tid("preview-frame")).evaluate("f => f.offsetWidth") == 768
    page.click(tid("preview-width-desktop"))
    assert page.locator(tid("preview-width-desktop")).get_attribute("aria-pressed") == "true"
    assert page.locator(tid("preview")).get_attribute("data-width") == "desktop"

    with page.context.expect_page() as info:
        page.click(tid("preview-open-tab"))
    viewer = info.value
    viewer.wait_for_load_state()
    vframe = viewer.frame_locator(tid("viewer-frame"))
    vframe.locator("h1", has_text="About us").wait_for()
    assert viewer.locator(tid("viewer-path")).text_content() == "about.html"
    sandbox = viewer.locator(tid("viewer-frame")).get_attribute("sandbox")
    assert "allow-scripts" in sandbox and "allow-same-origin" not in sandbox
    site = next(f for f in viewer.frames if f != viewer.main_frame)
    reach = site.evaluate(
        """() => { try { localStorage.length; indexedDB.open('x'); return 'reachable'; }
                   catch (e) { return 'blocked'; } }"""
    )
    assert reach == "blocked"
    # the viewer follows the preview
    box.fill("index.html")
    box.press("Enter")
    vframe.locator("h1", has_text="Home").wait_for()
    SHOTS.mkdir(exist_ok=True)
    page.screenshot(path=str(SHOTS / "preview-tools-1280.png"))
    viewer.screenshot(path=str(SHOTS / "viewer-tab.png"))
    viewer.close()


def test_drop_on_the_tree_uploads_bytes(opage):
    page = opage
    page.click(f'{tid("file-entry")}[data-path="index.html"]')
    page.wait_for_selector(f'{tid("file-viewer")}[data-path="index.html"]')
    page.locator(tid("file-tree")).evaluate(
        """(tree, bytes) => {
             const dt = new DataTransfer();
             dt.items.add(new File([new Uint8Array(bytes)], "dropped.png", {type: "image/png"}));
             tree.dispatchEvent(new DragEvent("dragover", {dataTransfer: dt, bubbles: true, cancelable: true}));
             tree.dispatchEvent(new DragEvent("drop", {dataTransfer: dt, bubbles: true, cancelable: true}));
           }""",
        list(PNG),
    )
    page.wait_for_selector(f'{tid("file-viewer")}[data-path="dropped.png"][data-kind="image"]')
    assert bytes.fromhex(listing(page)["dropped.png"]) == PNG
    assert page.locator(tid("file-tree")).get_attribute("data-drop") is None
