"""How the page starts Python: the runtime, the standard library gzipped and
as bytecode, the wheels as they are or in xz, and no memory snapshot.

One booted page per kind of wheels (module-scoped): the wheels themselves (what
a first visit over a fast link, loopback here, takes) and their xz files
(``?wheels=xz``, what a first visit over a slow link takes).  On each: the files
fetched, the bytecode, Settings and a streamed reply from Chief, all without a
violation of index.html's Content-Security-Policy.  The build writes no memory
snapshot, the service worker stores none and no page asks for one: restoring
it took as long as a plain start once the standard library shipped as bytecode.
"""

from __future__ import annotations

import json
import re

import pytest
from wiggum_e2e import (
    APP_READY,
    ROOT,
    WATCH_CSP,
    booted_page,
    configure,
    open_app,
    run_python,
    send,
    tid,
    wait_reply,
)

from tests.sim import Turn

pytestmark = pytest.mark.e2e

KEY = "sk-e2e-BOOT-START-41c9"


@pytest.fixture(scope="module", params=["zip", "xz"])
def started(request, browser, base_url, site_manifest):
    """(page, kind of wheels expected): the shipped choice and xz asked for."""
    wheels = request.param
    url = base_url + ("?wheels=xz" if wheels == "xz" else "")
    with booted_page(browser, url, init_script=WATCH_CSP) as page:
        yield page, wheels


#: The wheels the page asked for, the xz files, and the standard library's files.
FETCHED = """async (rel) => {
  const boot = new URL(rel, location.href).href;
  const mod = await import(boot);
  const names = performance.getEntriesByType("resource").map((e) => e.name);
  const got = (file) => names.includes(new URL(file, boot).href);
  const xz = Object.entries(mod.xz);
  return {
    wheels: xz.filter(([rel]) => got(rel)).length,
    xz: xz.filter(([, file]) => got(file.url)).length,
    all: xz.length,
    stdlib: names.filter((n) => n.includes("python_stdlib")).map((n) => n.split("/").pop()),
  };
}"""


def test_the_wheels_come_as_asked_and_the_standard_library_gzipped(started, site_manifest):
    page, wheels = started
    fetched = page.evaluate(FETCHED, site_manifest["boot_module"])
    assert fetched["all"] >= 5  # wiggum, markdown's, pydantic's
    if wheels == "xz":  # ?wheels=xz
        assert page.evaluate("[wiggumBoot.wheels, wiggumBoot.wheelsChoice]") == ["xz", "asked"]
        assert (fetched["xz"], fetched["wheels"]) == (fetched["all"], 0)
    else:  # a fast link: the wheels themselves
        assert page.evaluate("wiggumBoot.wheels") == "zip"
        assert (fetched["xz"], fetched["wheels"]) == (0, fetched["all"])
    assert site_manifest["stdlib"].rsplit("/", 1)[1] in fetched["stdlib"]
    assert "python_stdlib.zip" not in fetched["stdlib"]  # the runtime's own


def test_the_later_standard_library_comes_after_the_app(started, site_manifest):
    """pyscript.toml's stdlib_later modules are not in the zip Python starts with;
    their zip is mounted once the app is up, and the synchronous fetch that stands
    in for it on an early import gives the same bytes in this browser."""
    page, _ = started
    later = site_manifest["stdlib_later"]
    page.wait_for_function(
        "() => wiggumBoot.pyodide.runPython(\"'/lib/python_stdlib_later.zip' in __import__('sys').path\")",
        timeout=30_000,
    )
    seen = run_python(
        page,
        f"""
import gzip, hashlib, sys, unittest, pdb
from wiggum.web.stdlib_later import _fetch_sync
first = [p for p in sys.path if p.endswith(".zip") and "later" not in p]
gz = _fetch_sync({later["url"]!r})
[unittest.__file__.startswith("/lib/python_stdlib_later.zip"), hasattr(pdb, "set_trace"),
 any(n.startswith("unittest/") for n in __import__("zipfile").ZipFile(first[0]).namelist()),
 gzip.decompress(gz) == open("/lib/python_stdlib_later.zip", "rb").read()]
""",
    )
    assert seen == [True, True, False, True]
    assert {"unittest", "pdb", "multiprocessing"} <= set(later["modules"])


def test_the_standard_library_the_app_imports_comes_as_bytecode(started, site_manifest):
    """build.py compiled the standard library modules the whole app imports
    (compile_bytecode) and the zip the page starts with holds them in place of
    their source; those the app never imports stay source."""
    if not site_manifest.get("bytecode"):
        pytest.skip("this build made no bytecode (no `node` at build time)")
    page, _ = started
    seen = run_python(
        page,
        """
import sys, argparse, difflib, zipfile
zip_path = next(p for p in sys.path if p.endswith(".zip") and "later" not in p)
names = set(zipfile.ZipFile(zip_path).namelist())
[argparse.__file__.endswith(".pyc"), "argparse.py" in names, "difflib.pyc" in names,
 "tomllib/__init__.py" in names]
""",
    )
    assert seen == [True, False, True, True]


def test_settings_and_a_streamed_reply_work(started, sim):
    page, _ = started
    configure(page, sim, KEY)
    sim.script([Turn("Started and answering.", chunks=4, delay=0.05)])
    send(page, "Are you there?")
    wait_reply(page, timeout=30_000)
    reply = page.locator(tid("reply")).last.locator(tid("message-assistant"))
    assert reply.text_content() == "Started and answering."
    assert sim.chat_requests[-1].header("authorization") == f"Bearer {KEY}"


def test_modules_load_from_the_wheels_bytecode(started, site_manifest):
    """The app's and pydantic's wheels carry bytecode in place of source (no
    byte sent twice), and their modules import from it."""
    if not site_manifest.get("bytecode"):
        pytest.skip("this build made no bytecode (no `node` at build time)")
    page, _ = started
    seen = run_python(
        page,
        """
import os, wiggum.chief.chat as chat, pydantic.main as main
[[m.__file__.rsplit(".", 1)[1], os.path.exists(m.__file__[:-1]),
  int.from_bytes(open(m.__file__, "rb").read(8)[4:8], "little")] for m in (chat, main)]
""",
    )
    # .pyc, no .py beside it, 0b01: hash-based, source unchecked (build.py's)
    assert seen == [["pyc", False, 1], ["pyc", False, 1]]


def test_the_start_runs_under_the_page_s_csp(started):
    """Both starts (the xz one decodes its files with Python's lzma) run under
    index.html's policy without a violation."""
    page, _ = started
    assert page.get_attribute('meta[http-equiv="Content-Security-Policy"]', "content")
    assert page.evaluate("() => window.__cspViolations.slice()") == []


def test_no_memory_snapshot_is_made_stored_or_asked_for(started, site_manifest):
    """The build writes none (nor names one in its manifest or progress bar), the
    service worker's list holds none, and the page requests none."""
    page, _ = started
    vendor = ROOT / "static" / "vendor"
    assert not list(vendor.glob("snapshot-*")), "build.py left a memory snapshot"
    assert "snapshot" not in site_manifest
    assert not [rel for rel in site_manifest["progress_bytes"] if "snapshot" in rel]
    sw = (ROOT / "sw.js").read_text(encoding="utf-8")
    files = json.loads(re.search(r"const FILES = (\[.*?\]);", sw, re.S).group(1))
    assert files and not [f for f in files if "snapshot" in f]
    asked = page.evaluate(
        "performance.getEntriesByType('resource').map((e) => e.name.split('?')[0])"
    )
    assert [n for n in asked if "python_stdlib" in n]  # the entries are there
    assert not [n for n in asked if "snapshot" in n]


def test_xz_files_that_cannot_load_fall_back_to_the_wheels(context, base_url):
    page = context.new_page()
    page.route("**/*.whl.xz", lambda route: route.fulfill(status=404))
    open_app(page, base_url + "?wheels=xz")
    assert page.evaluate("wiggumBoot.wheels") == "xz"
    page.wait_for_selector(APP_READY + '[data-loaded="true"]', state="attached", timeout=60_000)
    assert run_python(page, "import pydantic, markdown_it; pydantic.VERSION").startswith("2.")
