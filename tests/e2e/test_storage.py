"""IndexedDB storage in real Chromium: the FileStore conformance suite, the
AppStorage behaviours, durability across reloads, binary files, migrations.

One page (one Pyodide boot) serves the whole module; each test uses its own
database name so tests do not see each other's records.  The durability tests
reload that page and read back in the fresh interpreter.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest
from wiggum_e2e import ROOT, booted_page, open_app, run_async

pytestmark = pytest.mark.e2e

CONFORMANCE_SRC = (ROOT / "tests" / "fs" / "conformance.py").read_text()


def _load_conformance():
    name = "wiggum_tests_fs_conformance"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, ROOT / "tests" / "fs" / "conformance.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


CHECK_NAMES = [c.__name__ for c in _load_conformance().CHECKS]

# Installed in the page's __main__ after every (re)load: helpers the tests use.
HARNESS = """
import json, logging, sys, types
from wiggum.web import idb, storage
from wiggum.web.idb_store import IndexedDBFileStore
from wiggum.persist import MemoryAppStorage

class _Records(logging.Handler):
    def __init__(self):
        super().__init__()
        self.records = []
    def emit(self, record):
        self.records.append((record.levelname, record.getMessage()))

web_log = _Records()
logging.getLogger("wiggum.web").addHandler(web_log)
logging.getLogger("wiggum.web").setLevel(logging.INFO)

async def storage_for(name):
    return storage.IndexedDBAppStorage(await idb.open_database(name, storage.MIGRATIONS))

wiggum_harness = True
"""


def install(page) -> None:
    run_async(page, HARNESS + "\nTrue")


@pytest.fixture(scope="module")
def spage(browser, base_url):
    """One booted page for the module, offline like the ``page`` fixture."""
    with booted_page(browser, base_url, HARNESS + "\nTrue") as page:
        yield page


def reload(page) -> None:
    open_app(page, page.url, reload=True)
    assert run_async(page, "'wiggum_harness' in globals()") is False  # a fresh interpreter
    install(page)


# -- FileStore conformance -------------------------------------------------------


@pytest.fixture(scope="module")
def conformance_results(spage) -> dict[str, str | None]:
    """Every check of tests/fs/conformance.py against IndexedDBFileStore, each on a
    fresh project of one database (so the checks also share a database without
    seeing each other's files)."""
    run_async(
        spage,
        f"""
        conformance = types.ModuleType("wiggum_conformance")
        sys.modules["wiggum_conformance"] = conformance
        exec(compile({CONFORMANCE_SRC!r}, "conformance.py", "exec"), conformance.__dict__)
        True
        """,
    )
    return run_async(
        spage,
        """
        db = await idb.open_database("conformance", storage.MIGRATIONS)
        results = {}
        for n, check in enumerate(conformance.CHECKS):
            clock = conformance.FakeClock()
            fs = IndexedDBFileStore(db, f"project-{n}", clock=clock)
            try:
                await check(fs, clock)
                results[check.__name__] = None
            except Exception as err:
                import traceback
                results[check.__name__] = "".join(traceback.format_exception(err))
        db.close()
        results
        """,
    )


@pytest.mark.parametrize("check", CHECK_NAMES)
def test_conformance(conformance_results, check):
    assert check in conformance_results
    assert conformance_results[check] is None, conformance_results[check]


def test_run_conformance_reports_no_failures(spage, conformance_results):
    result = run_async(
        spage,
        """
        db = await idb.open_database("conformance-run", storage.MIGRATIONS)
        counter = iter(range(1000))
        failures = await conformance.run_conformance(
            lambda clock: IndexedDBFileStore(db, f"p{next(counter)}", clock=clock)
        )
        db.close()
        [[name, repr(err)] for name, err in failures]
        """,
    )
    assert result == []


# -- the wrapper ------------------------------------------------------------------


def test_transaction_is_all_or_nothing_and_errors_carry_the_dom_name(spage):
    result = run_async(
        spage,
        """
        db = await idb.open_database("wrapper", storage.MIGRATIONS)
        out = {}
        def body(tx):
            meta = tx.objectStore("meta")
            meta.put(1, "a")
            yield meta.get("a")
            raise LookupError("changed my mind")
        try:
            await db.run("meta", "readwrite", body)
        except LookupError as err:
            out["raised"] = str(err)
        out["rolled_back"] = await db.get("meta", "a") is None
        def dup(tx):
            tx.objectStore("meta").put(1, "b")
            tx.objectStore("meta").add(2, "b")
        try:
            await db.run("meta", "readwrite", dup)
        except idb.IDBError as err:
            out["name"] = err.name
        out["dup_rolled_back"] = await db.get("meta", "b") is None
        db.durability = "strict"
        await db.put("meta", {"strict": True}, "s")
        out["strict"] = await db.get("meta", "s")
        db.close()
        try:
            await db.get("meta", "a")
        except idb.IDBError as err:
            out["closed"] = err.name
        out
        """,
    )
    assert result == {
        "raised": "changed my mind",
        "rolled_back": True,
        "name": "ConstraintError",
        "dup_rolled_back": True,
        "strict": {"strict": True},
        "closed": "InvalidStateError",
    }


# -- AppStorage --------------------------------------------------------------------


def test_app_storage_behaviour(spage):
    result = run_async(
        spage,
        """
        st = await storage_for("behaviour")
        out = {}
        out["no_settings"] = await st.get_settings()
        settings = {"providers": {"openai": {"model": "gpt", "keys": ["k1", "k2"]}},
                    "proxy": None, "n": 3, "t": 0.5, "on": True}
        await st.put_settings(settings)
        got = await st.get_settings()
        got["providers"]["openai"]["model"] = "mutated copy"
        out["settings"] = await st.get_settings()
        await st.put_meta("last_project", "x")
        await st.put_meta("nested", {"a": [1, {"b": "c"}]})
        out["meta"] = [await st.get_meta("last_project"), await st.get_meta("nested"),
                       await st.get_meta("missing")]

        a = await st.create_project("Alpha")
        b = await st.create_project("Beta")
        out["created"] = sorted(a) == ["created", "id", "name", "updated"]
        out["listed"] = [p["name"] for p in await st.list_projects()]
        await st.rename_project(a["id"], "Alpha 2")
        renamed = [p for p in await st.list_projects() if p["id"] == a["id"]][0]
        out["renamed"] = [renamed["name"], renamed["created"] == a["created"],
                          renamed["updated"] >= a["updated"]]
        try:
            await st.rename_project("nope", "x")
        except KeyError:
            out["rename_missing"] = "KeyError"

        for seq in (2, 0, 10, 1):
            await st.put_message(a["id"], "chief", seq, {"role": "user", "n": seq})
        await st.put_message(a["id"], "chief", 1, {"role": "assistant", "text": "partial"})
        await st.put_message(a["id"], "chief", 1, {"role": "assistant", "text": "final"})
        await st.put_message(a["id"], "ralph", 0, {"role": "ralph"})
        await st.put_message(b["id"], "chief", 0, {"role": "other project"})
        out["chief"] = await st.load_messages(a["id"], "chief")
        out["ralph"] = await st.load_messages(a["id"], "ralph")
        out["empty"] = await st.load_messages("nobody", "chief")
        await st.delete_messages(a["id"], "ralph")
        out["ralph_deleted"] = await st.load_messages(a["id"], "ralph")

        await st.files(a["id"]).write_text("index.html", "<h1>A</h1>")
        await st.files(a["id"]).mkdir(".chief")
        await st.files(b["id"]).write_text("index.html", "<h1>B</h1>")
        out["same_store"] = st.files(a["id"]) is st.files(a["id"])
        await st.delete_project(a["id"])
        await st.delete_project("never existed")
        out["after_delete"] = [p["name"] for p in await st.list_projects()]
        out["a_messages"] = await st.load_messages(a["id"], "chief")
        out["a_files"] = await st.files(a["id"]).list(dirs=True)
        out["b_files"] = await st.files(b["id"]).read_text("index.html")
        out["b_messages"] = await st.load_messages(b["id"], "chief")
        try:
            await st.files(b["id"]).write_text("x", b"bytes")
        except TypeError:
            out["type_error"] = True
        st.close()
        out
        """,
    )
    assert result["no_settings"] is None
    assert result["settings"] == {
        "providers": {"openai": {"model": "gpt", "keys": ["k1", "k2"]}},
        "proxy": None,
        "n": 3,
        "t": 0.5,
        "on": True,
    }
    assert result["meta"] == ["x", {"a": [1, {"b": "c"}]}, None]
    assert result["created"] is True
    assert result["listed"] == ["Alpha", "Beta"]
    assert result["renamed"] == ["Alpha 2", True, True]
    assert result["rename_missing"] == "KeyError"
    assert result["chief"] == [
        {"role": "user", "n": 0},
        {"role": "assistant", "text": "final"},
        {"role": "user", "n": 2},
        {"role": "user", "n": 10},
    ]
    assert result["ralph"] == [{"role": "ralph"}]
    assert result["empty"] == []
    assert result["ralph_deleted"] == []
    assert result["same_store"] is True
    assert result["after_delete"] == ["Beta"]
    assert result["a_messages"] == []
    assert result["a_files"] == []
    assert result["b_files"] == "<h1>B</h1>"
    assert result["b_messages"] == [{"role": "other project"}]
    assert result["type_error"] is True


def test_two_projects_files_never_mix(spage):
    result = run_async(
        spage,
        """
        db = await idb.open_database("mix", storage.MIGRATIONS)
        # "p" is a string prefix of "p1" and "p/": ranges must not bleed over.
        ids = ["p", "p1", "p/", "p\\uffff", ""]
        stores = {i: IndexedDBFileStore(db, i) for i in ids}
        for i, fs in stores.items():
            await fs.write_text("index.html", f"site {i!r}")
            await fs.write_text("src/app.js", f"app {i!r}")
            await fs.mkdir("empty")
        await stores["p"].rename("src", "lib")
        await stores["p1"].remove("src", recursive=True)
        await stores["p/"].remove("empty")
        out = {repr(i): [await fs.list(dirs=True), await fs.read_text("index.html")]
               for i, fs in stores.items()}
        out["stat_p1"] = (await stores["p1"].stat("")).is_dir
        db.close()
        out
        """,
    )
    assert result == {
        "'p'": [["empty", "index.html", "lib", "lib/app.js"], "site 'p'"],
        "'p1'": [["empty", "index.html"], "site 'p1'"],
        "'p/'": [["index.html", "src", "src/app.js"], "site 'p/'"],
        "'p\\uffff'": [["empty", "index.html", "src", "src/app.js"], "site 'p\\uffff'"],
        "''": [["empty", "index.html", "src", "src/app.js"], "site ''"],
        "stat_p1": True,
    }


def test_a_fenced_write_lands_only_while_its_fence_holds(spage):
    """The tab lock's fence (``wiggum.web.tab_lock``): writes carry the fence
    value this tab took; once another tab took a new one, each kind of write
    is refused whole, nothing of it kept, and other projects are not touched."""
    result = run_async(
        spage,
        """
        st = await storage_for("fences")
        fs = st.files("p")
        first = await st.take_fence("p")
        mine = {"p": first}
        async def fence(project_id):
            return mine.get(project_id)
        st.fence = fence
        await fs.write_text("a.txt", "one")
        await st.put_message("p", "chief", 1, {"n": 1})
        second = await st.take_fence("p")  # another tab took the project
        refused = []
        for write in (
            lambda: fs.write_text("a.txt", "two"),
            lambda: fs.write_bytes("b/c.bin", b"x"),
            lambda: fs.rename("a.txt", "z.txt"),
            lambda: fs.remove("a.txt"),
            lambda: st.put_message("p", "chief", 2, {"n": 2}),
            lambda: st.delete_messages("p", "chief"),
        ):
            try:
                await write()
                refused.append("written")
            except Exception as exc:
                refused.append(type(exc).__name__)
        kept = [await fs.read_text("a.txt"), await fs.list(dirs=True),
                [r["n"] for r in await st.load_messages("p", "chief")]]
        await st.files("q").write_text("q.txt", "q")  # no fence of its own
        mine["p"] = second  # the value the other tab writes with
        await fs.write_text("a.txt", "three")
        after = await fs.read_text("a.txt")
        st.close()
        await idb.delete_database("fences")
        [first, second, refused, kept, after]
        """,
    )
    first, second, refused, kept, after = result
    assert second == first + 1
    assert refused == ["ProjectPaused"] * 6
    assert kept == ["one", ["a.txt"], [1]]
    assert after == "three"


def test_directory_rename_is_one_transaction(spage):
    """A directory rename that fails half-way (the quota or the browser aborting)
    leaves every record where it was: forced here by aborting the transaction
    from the store's last request."""
    result = run_async(
        spage,
        """
        db = await idb.open_database("atomic", storage.MIGRATIONS)
        fs = IndexedDBFileStore(db, "p")
        for n in range(20):
            await fs.write_text(f"src/f{n:02d}.txt", str(n))
        await fs.mkdir("src/empty")
        original = db.run
        async def failing_run(stores, mode, body, *args, **options):
            def wrapped(tx):
                result = yield from body(tx, *args)
                raise RuntimeError("abort after every put and delete was issued")
            return await original(stores, mode, wrapped, **options)
        db.run = failing_run
        try:
            await fs.rename("src", "dst")
        except RuntimeError as err:
            raised = str(err)
        db.run = original
        out = [raised, await fs.list(dirs=True) == ["src", "src/empty"] + [f"src/f{n:02d}.txt" for n in range(20)],
               await fs.exists("dst")]
        await fs.rename("src", "dst")
        out.append(len(await fs.list("dst")))
        db.close()
        out
        """,
    )
    assert result == ["abort after every put and delete was issued", True, False, 20]


# -- durability ----------------------------------------------------------------------


def test_writes_survive_a_reload(spage):
    """Everything acknowledged before the reload is there in the fresh page,
    including a burst of writes whose last one was awaited just before it."""
    project_id = run_async(
        spage,
        """
        st = await storage_for("durable")
        await st.put_settings({"providers": {"openai": {"model": "m", "extra": {"deep": [1, 2]}}}})
        await st.put_meta("opened", 3)
        p = await st.create_project("Durable")
        fs = st.files(p["id"])
        await fs.write_bytes("img/all.bin", bytes(range(256)))
        await fs.write_bytes("img/empty.bin", b"")
        await fs.write_text("index.html", "<p>héllo ✓ 🎉</p>")
        await fs.mkdir("assets/empty")
        for seq in range(3):
            await st.put_message(p["id"], "chief", seq, {"seq": seq, "text": "x" * 1000})
        for n in range(50):
            await fs.write_text(f"burst/{n:02d}.txt", str(n))
        await fs.write_text("last.txt", "written just before the reload")
        p["id"]
        """,
    )
    reload(spage)
    result = run_async(
        spage,
        f"""
        st = await storage_for("durable")
        fs = st.files({project_id!r})
        out = {{
            "settings": await st.get_settings(),
            "meta": await st.get_meta("opened"),
            "projects": [p["name"] for p in await st.list_projects()],
            "all_bytes": list(await fs.read_bytes("img/all.bin")),
            "empty": (await fs.read_bytes("img/empty.bin")).hex(),
            "text": await fs.read_text("index.html"),
            "dirs": await fs.list("assets", dirs=True),
            "messages": [m["seq"] for m in await st.load_messages({project_id!r}, "chief")],
            "burst": len(await fs.list("burst")),
            "last": await fs.read_text("last.txt"),
        }}
        try:
            await fs.read_text("img/all.bin")
        except Exception as err:
            out["binary_as_text"] = type(err).__name__
        st.close()
        out
        """,
    )
    assert result == {
        "settings": {"providers": {"openai": {"model": "m", "extra": {"deep": [1, 2]}}}},
        "meta": 3,
        "projects": ["Durable"],
        "all_bytes": list(range(256)),
        "empty": "",
        "text": "<p>héllo ✓ 🎉</p>",
        "dirs": ["assets/empty"],
        "messages": [0, 1, 2],
        "burst": 50,
        "last": "written just before the reload",
        "binary_as_text": "NotText",
    }


def test_unawaited_write_in_flight_at_reload_is_all_or_nothing(spage):
    """A reload that interrupts a directory rename leaves the old tree or the
    new one, never a mix."""
    run_async(
        spage,
        """
        import asyncio
        st = await storage_for("inflight")
        fs = st.files("p")
        for n in range(30):
            await fs.write_text(f"src/{n:02d}.txt", "x" * 10_000)
        inflight = asyncio.ensure_future(fs.rename("src", "dst"))
        True
        """,
    )
    reload(spage)
    listing = run_async(
        spage,
        """
        st = await storage_for("inflight")
        r = await st.files("p").list()
        st.close()
        r
        """,
    )
    old = [f"src/{n:02d}.txt" for n in range(30)]
    new = [f"dst/{n:02d}.txt" for n in range(30)]
    assert listing in (old, new)


# -- migrations, versionchange, fallback ----------------------------------------------


def test_v1_database_upgrades_to_v2_keeping_records(spage):
    result = run_async(
        spage,
        """
        st = await storage_for("migrate")
        p = await st.create_project("Old")
        await st.put_settings({"theme": "dark"})
        await st.put_message(p["id"], "chief", 0, {"text": "hi"})
        await st.files(p["id"]).write_bytes("logo.png", bytes(range(256)))
        await st.files(p["id"]).mkdir("empty")
        out = {"v1": st.db.version}
        st.close()

        def v2(db, tx):
            # A new store and index, and a rewrite of every file record.
            db.createObjectStore("notes")
            tx.objectStore("projects").createIndex("by_name", "name")
            files = tx.objectStore("files")
            records = yield files.getAll()
            for r in records:
                r.schema = 2
                files.put(r)

        db = await idb.open_database("migrate", [*storage.MIGRATIONS, v2])
        out["v2"] = db.version
        out["stores"] = db.store_names
        st2 = storage.IndexedDBAppStorage(db)
        out["projects"] = [q["name"] for q in await st2.list_projects()]
        out["settings"] = await st2.get_settings()
        out["messages"] = await st2.load_messages(p["id"], "chief")
        out["logo"] = await st2.files(p["id"]).read_bytes("logo.png") == bytes(range(256))
        out["listing"] = await st2.files(p["id"]).list(dirs=True)
        out["rewritten"] = sorted({r.get("schema") for r in await db.get_all("files")})
        def by_name(tx):
            found = yield tx.objectStore("projects").index("by_name").getKey("Old")
            return found
        out["index"] = await db.run("projects", "readonly", by_name) == p["id"]
        db.close()
        out
        """,
    )
    assert result == {
        "v1": 1,
        "v2": 2,
        "stores": ["files", "messages", "meta", "notes", "projects", "settings"],
        "projects": ["Old"],
        "settings": {"theme": "dark"},
        "messages": [{"text": "hi"}],
        "logo": True,
        "listing": ["empty", "logo.png"],
        "rewritten": [2],
        "index": True,
    }


def test_failed_migration_keeps_the_old_version_and_data(spage):
    result = run_async(
        spage,
        """
        st = await storage_for("migrate-fail")
        await st.put_meta("k", "kept")
        st.close()
        def broken(db, tx):
            db.createObjectStore("half-done")
            raise ValueError("bad migration")
        out = {}
        try:
            await idb.open_database("migrate-fail", [*storage.MIGRATIONS, broken])
        except ValueError as err:
            out["raised"] = str(err)
        st = await storage_for("migrate-fail")
        out["version"] = st.db.version
        out["stores"] = st.db.store_names
        out["meta"] = await st.get_meta("k")
        st.close()
        out
        """,
    )
    assert result == {
        "raised": "bad migration",
        "version": 1,
        "stores": ["files", "messages", "meta", "projects", "settings"],
        "meta": "kept",
    }


def test_versionchange_closes_the_old_connection(spage):
    """Another tab upgrading the database is not blocked: this connection closes."""
    result = run_async(
        spage,
        """
        old = await storage_for("vchange")
        await old.put_meta("k", 1)
        closed = []
        old.db.on_close.append(lambda: closed.append(True))
        web_log.records.clear()
        new = await idb.open_database("vchange", [*storage.MIGRATIONS, lambda db, tx: None])
        out = {"new_version": new.version, "old_closed": old.db.closed, "callback": closed}
        try:
            await old.get_meta("k")
        except idb.IDBError as err:
            out["old_use"] = err.name
        out["blocked_logged"] = any("blocked" in m for _, m in web_log.records)
        out["versionchange_logged"] = any("another tab" in m for _, m in web_log.records)
        new.close()
        out
        """,
    )
    assert result == {
        "new_version": 2,
        "old_closed": True,
        "callback": [True],
        "old_use": "InvalidStateError",
        "blocked_logged": False,
        "versionchange_logged": True,
    }


def test_open_storage_and_its_memory_fallback(spage):
    result = run_async(
        spage,
        """
        out = {}
        st = await storage.open_storage("fallback")
        out["first"] = type(st).__name__
        await st.put_meta("k", "v")
        st.close()
        # A database newer than this code (VersionError) cannot be opened.
        db = await idb.open_database("fallback", [*storage.MIGRATIONS, lambda db, tx: None])
        db.close()
        web_log.records.clear()
        st = await storage.open_storage("fallback")
        out["fallback"] = type(st).__name__
        out["warned"] = [level for level, m in web_log.records if "memory storage" in m]
        out["version_error"] = any("VersionError" in m for _, m in web_log.records)
        await st.put_meta("k", "memory")
        out["works"] = await st.get_meta("k")
        out["persist"] = type(await storage.request_persistence()).__name__
        out
        """,
    )
    assert result == {
        "first": "IndexedDBAppStorage",
        "fallback": "MemoryAppStorage",
        "warned": ["WARNING"],
        "version_error": True,
        "works": "memory",
        "persist": "bool",
    }


def test_conformance_check_list_is_not_empty():
    assert len(CHECK_NAMES) >= 15
    assert Path(ROOT / "tests" / "fs" / "conformance.py").exists()


def test_no_proxy_outlives_its_transaction_or_connection(spage):
    """Every PyProxy the wrapper creates (request, transaction, open and
    connection handlers) is destroyed once it is no longer needed, on success,
    on error and on close."""
    result = run_async(
        spage,
        """
        import asyncio
        from pyodide.ffi import create_proxy as real_create_proxy
        created = []
        def recording_create_proxy(fn, **kw):
            proxy = real_create_proxy(fn, **kw)
            created.append(proxy)
            return proxy
        idb.create_proxy = recording_create_proxy
        try:
            st = await storage_for("proxies")
            fs = st.files("p")
            await fs.write_bytes("a/b.bin", bytes(range(256)))
            await fs.rename("a", "c")
            await fs.list(dirs=True)
            try:
                await fs.read_text("missing")
            except Exception:
                pass
            await st.put_settings({"x": {"y": 1}})
            await st.get_settings()
            value = await st.take_fence("p")
            async def fence(project_id):
                return value
            st.fence = fence
            await fs.write_text("fenced.txt", "kept")  # its fence holds
            value += 1
            try:  # and one refused by it
                await st.put_message("p", "chief", 1, {"n": 1})
            except Exception:
                pass
            st.fence = None
            p = await st.create_project("P")
            await st.delete_project(p["id"])
            st.close()
            await idb.delete_database("proxies")
        finally:
            idb.create_proxy = real_create_proxy
        await asyncio.sleep(0.05)
        alive = 0
        for proxy in created:
            try:
                proxy.toString()
                alive += 1
            except Exception:
                pass
        [len(created) > 20, alive]
        """,
    )
    assert result == [True, 0]


def test_open_blocked_by_a_connection_that_never_closes_times_out(spage):
    result = run_async(
        spage,
        """
        import asyncio, js
        from pyodide.ffi import create_once_callable
        db = await idb.open_database("blocked", storage.MIGRATIONS)
        # A connection of another (older) page that ignores versionchange.
        db.raw.onversionchange = None
        out = {}
        web_log.records.clear()
        try:
            await idb.open_database(
                "blocked", [*storage.MIGRATIONS, lambda db, tx: None], timeout=0.5
            )
        except idb.IDBError as err:
            out["error"] = err.name
        out["blocked_logged"] = any("blocked" in m for _, m in web_log.records)
        db.close()  # the pending upgrade now goes through; its late connection is closed
        await asyncio.sleep(0.2)
        again = await idb.open_database("blocked", [*storage.MIGRATIONS, lambda db, tx: None])
        out["version"] = again.version
        again.close()
        out
        """,
    )
    assert result == {"error": "BlockedError", "blocked_logged": True, "version": 2}
