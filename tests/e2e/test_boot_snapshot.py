"""Python starts from build.py's memory snapshot, and the app behaves the same with
it forced off (``?snapshot=off``, the plain start) and when it cannot be used.

One booted page per start path (module-scoped): the path taken, Settings and a
streamed reply from Chief, the bytecode overlay, and fresh random numbers on
every restore, all without a violation of index.html's Content-Security-Policy.
The plain start also takes the wheels in xz (``?wheels=xz``, what a first visit
over a slow link takes), the restored one the plain wheels (this link is fast).
Skipped for the snapshot when the build had no Node to make one.
"""

from __future__ import annotations

import pytest
from wiggum_e2e import (
    APP_READY,
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

KEY = "sk-e2e-SNAPSHOT-41c9"


@pytest.fixture(scope="module", params=["snapshot", "plain"])
def started(request, browser, base_url, site_manifest):
    """(page, path expected) for the shipped start and the forced plain one."""
    path = request.param
    if path == "snapshot" and not site_manifest.get("snapshot"):
        pytest.skip("this build made no memory snapshot (no `node` at build time)")
    # no first visit downloads the snapshot (it no longer pays): asked for here
    url = base_url + ("?snapshot=on" if path == "snapshot" else "?snapshot=off&wheels=xz")
    with booted_page(browser, url, init_script=WATCH_CSP) as page:
        yield page, path


def test_the_start_path_is_the_one_asked_for(started):
    page, path = started
    assert page.get_attribute(APP_READY, "data-boot-path") == path
    assert page.evaluate("wiggumBoot.bootPath") == path


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
    page, path = started
    fetched = page.evaluate(FETCHED, site_manifest["boot_module"])
    assert fetched["all"] >= 5  # wiggum, markdown's, pydantic's
    if path == "plain":  # ?wheels=xz
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
    (compile_stdlib) and the zip the page starts with holds them in place of
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
    sim.script([Turn("Restored and answering.", chunks=4, delay=0.05)])
    send(page, "Are you there?")
    wait_reply(page, timeout=30_000)
    reply = page.locator(tid("reply")).last.locator(tid("message-assistant"))
    assert reply.text_content() == "Restored and answering."
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


def test_a_restore_draws_fresh_random_numbers(started):
    page, path = started
    if path != "snapshot":
        pytest.skip("only a restored memory could repeat the last page's numbers")
    draw = "import random; random.random()"
    first = run_python(page, draw)
    open_app(page, page.url, reload=True)
    assert page.evaluate("wiggumBoot.bootPath") == "snapshot"
    assert run_python(page, draw) != first


def test_the_start_path_runs_under_the_page_s_csp(started):
    """Both start paths (the snapshot restore reads its memory, the plain one
    loads packages) run under index.html's policy without a violation."""
    page, path = started
    assert page.get_attribute('meta[http-equiv="Content-Security-Policy"]', "content")
    assert page.evaluate("wiggumBoot.bootPath") == path
    assert page.evaluate("() => window.__cspViolations.slice()") == []


def test_a_snapshot_that_cannot_load_falls_back_to_the_plain_start(
    context, base_url, site_manifest
):
    snap = site_manifest.get("snapshot")
    if not snap:
        pytest.skip("this build made no memory snapshot (no `node` at build time)")
    page = context.new_page()
    page.route(f"**/{snap.rsplit('/', 1)[1]}", lambda route: route.fulfill(status=404))
    open_app(page, base_url + "?snapshot=on")
    assert page.get_attribute(APP_READY, "data-boot-path") == "plain (snapshot failed)"
    assert run_python(page, "import pydantic; pydantic.VERSION").startswith("2.")


def test_xz_files_that_cannot_load_fall_back_to_the_wheels(context, base_url):
    page = context.new_page()
    page.route("**/*.whl.xz", lambda route: route.fulfill(status=404))
    open_app(page, base_url + "?wheels=xz")
    assert page.evaluate("wiggumBoot.wheels") == "xz"
    page.wait_for_selector(APP_READY + '[data-loaded="true"]', state="attached", timeout=60_000)
    assert run_python(page, "import pydantic, markdown_it; pydantic.VERSION").startswith("2.")


def test_a_restored_python_takes_the_page_s_time_zone_and_language(
    browser, base_url, offline, site_manifest
):
    """The snapshot was made in Node on the build machine (UTC, no browser
    language): after the restore, Python sees this browser's."""
    if not site_manifest.get("snapshot"):
        pytest.skip("this build made no memory snapshot (no `node` at build time)")
    ctx = browser.new_context(timezone_id="America/New_York", locale="de-DE")
    offline.watch(ctx, route=True)
    try:
        page = ctx.new_page()
        open_app(page, base_url + "?snapshot=on")
        seen = run_python(
            page,
            "import os, sys, time; "
            "[time.timezone, list(time.tzname), os.environ['LANG'], os.environ['_'], "
            "sys.path.count('')]",
        )
        path = page.evaluate("wiggumBoot.bootPath")
    finally:
        ctx.close()
    assert path == "snapshot"
    assert seen == [5 * 3600, ["UTC-0500", "UTC-0400"], "de_DE.UTF-8", "./this.program", 1]


def test_a_cold_visit_over_a_slow_link_starts_plainly_then_restores_from_the_cache(
    new_cached_context, base_url, site_manifest
):
    """Over a link slower than the snapshot's break-even (its size over the time
    it saves), a first visit does not download it and Python starts plainly;
    once the cache holds it (what the service worker stores after a first
    visit), the next visit restores it."""
    snap = site_manifest.get("snapshot")
    if not snap:
        pytest.skip("this build made no memory snapshot (no `node` at build time)")
    page = new_cached_context().new_page()
    cdp = page.context.new_cdp_session(page)
    cdp.send("Network.enable")
    rate = 30e6 / 8  # 30 Mbit/s: below the break-even of a ~8 MB snapshot
    cdp.send(
        "Network.emulateNetworkConditions",
        {"offline": False, "latency": 20, "downloadThroughput": rate, "uploadThroughput": rate},
    )
    open_app(page, base_url)
    assert page.evaluate("wiggumBoot.bootPath") == "plain"
    assert page.evaluate("wiggumBoot.snapshotChoice").startswith("not cached")
    sent = page.evaluate(
        """(name) => performance.getEntriesByType("resource")
             .filter((e) => e.name.endsWith(name)).map((e) => e.transferSize)""",
        snap.rsplit("/", 1)[1],
    )
    assert sum(sent) == 0, "the snapshot was downloaded on a cold visit over a slow link"

    # What the service worker does after a first visit (blocked in this context).
    page.evaluate(
        "(url) => caches.open('wiggum-test').then((c) => c.add(url)).then(() => true)", snap
    )
    open_app(page, base_url, reload=True)
    assert page.evaluate("[wiggumBoot.bootPath, wiggumBoot.snapshotChoice]") == [
        "snapshot",
        "cached",
    ]
