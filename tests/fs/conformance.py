"""FileStore conformance: the behaviour every backend must share.

Pytest-free on purpose, so the same checks can run under CPython against
``MemoryFileStore`` and inside the browser (Pyodide) against the IndexedDB
backend.  Use either:

    failures = await run_conformance(factory)   # [(check name, exception)]

or parametrize a pytest test over ``CHECKS`` (see ``test_fs_memory_store.py``).

``factory(clock)`` returns a fresh, empty store (or an awaitable of one) whose
``modified`` times come from ``clock()``.
"""

from __future__ import annotations

import inspect
from collections.abc import Awaitable, Callable

from wiggum.fs import (
    DirectoryNotEmpty,
    FileExists,
    FileNotFound,
    FileStore,
    FileStoreError,
    IsADirectory,
    NotADirectory,
    NotText,
    PathError,
)

StoreFactory = Callable[[Callable[[], float]], FileStore | Awaitable[FileStore]]


class FakeClock:
    def __init__(self, start: float = 1000.0) -> None:
        self.now = start

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float = 1.0) -> None:
        self.now += seconds


async def _raises(exc: type[BaseException], coro: Awaitable[object]) -> BaseException:
    try:
        await coro
    except exc as err:
        return err
    raise AssertionError(f"expected {exc.__name__}")


# -- checks: each gets a fresh store and its clock --------------------------


async def check_text_round_trip(fs: FileStore, clock: FakeClock) -> None:
    await fs.write_text("index.html", "<h1>héllo ✓</h1>\n")
    assert await fs.read_text("index.html") == "<h1>héllo ✓</h1>\n"
    assert await fs.read_bytes("index.html") == "<h1>héllo ✓</h1>\n".encode()


async def check_bytes_round_trip(fs: FileStore, clock: FakeClock) -> None:
    data = bytes(range(256))
    await fs.write_bytes("img/logo.png", data)
    assert await fs.read_bytes("img/logo.png") == data
    await _raises(NotText, fs.read_text("img/logo.png"))
    await fs.write_bytes("empty.bin", b"")
    assert await fs.read_bytes("empty.bin") == b""


async def check_overwrite(fs: FileStore, clock: FakeClock) -> None:
    await fs.write_text("a.txt", "one")
    await fs.write_text("a.txt", "two")
    assert await fs.read_text("a.txt") == "two"


async def check_paths_are_normalized(fs: FileStore, clock: FakeClock) -> None:
    await fs.write_text("./src//app.js", "x")
    assert await fs.read_text("src/app.js") == "x"
    assert await fs.read_text("src/../src/./app.js") == "x"
    assert await fs.list() == ["src/app.js"]


async def check_bad_paths_refused(fs: FileStore, clock: FakeClock) -> None:
    for bad in ["../x", "/etc/passwd", "a/../../x", "C:/x", "a\\b", "a\x00b"]:
        await _raises(PathError, fs.write_text(bad, "x"))
        await _raises(PathError, fs.read_text(bad))
    await _raises(PathError, fs.write_text("", "x"))
    await _raises(PathError, fs.write_text(".", "x"))
    assert await fs.list() == []


async def check_missing(fs: FileStore, clock: FakeClock) -> None:
    err = await _raises(FileNotFound, fs.read_text("nope.txt"))
    assert isinstance(err, FileStoreError)
    assert str(err) == "nope.txt: No such file or directory"
    await _raises(FileNotFound, fs.read_bytes("nope/deeper.txt"))
    await _raises(FileNotFound, fs.stat("nope"))
    assert not await fs.exists("nope")
    assert not await fs.is_dir("nope")


async def check_implicit_directories(fs: FileStore, clock: FakeClock) -> None:
    await fs.write_text("a/b/c.txt", "x")
    assert await fs.is_dir("a")
    assert await fs.is_dir("a/b")
    assert await fs.exists("a/b")
    assert not await fs.is_dir("a/b/c.txt")
    assert await fs.exists("")
    assert await fs.is_dir("")
    assert await fs.is_dir(".")
    await _raises(IsADirectory, fs.read_text("a/b"))


async def check_write_conflicts(fs: FileStore, clock: FakeClock) -> None:
    await fs.write_text("a/b.txt", "x")
    await _raises(IsADirectory, fs.write_text("a", "x"))
    await _raises(NotADirectory, fs.write_text("a/b.txt/c.txt", "x"))
    await _raises(NotADirectory, fs.mkdir("a/b.txt/d"))
    assert await fs.list() == ["a/b.txt"]


async def check_write_many(fs: FileStore, clock: FakeClock) -> None:
    await fs.write_many({"a/b.txt": b"1", "./a/c/d.bin": b"\x00\xff", "e.txt": b""})
    assert await fs.list() == ["a/b.txt", "a/c/d.bin", "e.txt"]
    assert await fs.read_bytes("a/c/d.bin") == b"\x00\xff"
    assert (await fs.stat("a/b.txt")).modified == clock.now
    clock.advance()
    await fs.write_many({"a/b.txt": b"2"})  # replaces
    assert await fs.read_text("a/b.txt") == "2"
    await fs.write_many({})


async def check_write_many_is_all_or_none(fs: FileStore, clock: FakeClock) -> None:
    await fs.write_text("a/b.txt", "old")
    # Each failing item comes after a good one: nothing of the batch is kept.
    await _raises(IsADirectory, fs.write_many({"a/b.txt": b"new", "a": b"x"}))
    await _raises(NotADirectory, fs.write_many({"n.txt": b"x", "a/b.txt/c": b"x"}))
    await _raises(PathError, fs.write_many({"m.txt": b"x", "../up": b"x"}))
    # Conflicts inside one batch, in either order.
    await _raises(NotADirectory, fs.write_many({"f": b"x", "f/g": b"x"}))
    await _raises(IsADirectory, fs.write_many({"h/i": b"x", "h": b"x"}))
    assert await fs.list() == ["a/b.txt"]
    assert await fs.read_text("a/b.txt") == "old"


async def check_write_many_removes_first(fs: FileStore, clock: FakeClock) -> None:
    await fs.write_many({"a/b.txt": b"1", "a/c.txt": b"2", "d/e.txt": b"3"})
    # A folder turned into a file, a file dropped, one written: one change.
    await fs.write_many({"d": b"file now", "a/c.txt": b"22"}, remove=["d/e.txt", "a/b.txt"])
    assert await fs.list() == ["a/c.txt", "d"]
    assert await fs.read_bytes("d") == b"file now"
    # A missing file or a directory to remove fails the batch, and nothing of it is kept.
    await _raises(FileNotFound, fs.write_many({"x.txt": b"x"}, remove=["nope.txt"]))
    await _raises(IsADirectory, fs.write_many({"x.txt": b"x"}, remove=["a"]))
    await _raises(NotADirectory, fs.write_many({"a/c.txt/x": b"x"}, remove=["d"]))
    assert await fs.list() == ["a/c.txt", "d"]
    assert await fs.read_bytes("d") == b"file now"


async def check_stats(fs: FileStore, clock: FakeClock) -> None:
    await fs.write_many({"b.txt": b"22", "a/x.txt": b"1", ".hist/HEAD": b"ref", "a/.hist/y": b""})
    clock.advance()
    await fs.write_text("ab.txt", "333")
    await fs.mkdir("empty")
    got = await fs.stats()
    assert [(s.path, s.size, s.modified, s.is_dir) for s in got] == [
        (".hist/HEAD", 3, clock.now - 1, False),
        ("a/.hist/y", 0, clock.now - 1, False),
        ("a/x.txt", 1, clock.now - 1, False),
        ("ab.txt", 3, clock.now, False),
        ("b.txt", 2, clock.now - 1, False),
    ]
    assert [s.path for s in await fs.stats(exclude=[".hist"])] == [
        "a/.hist/y",
        "a/x.txt",
        "ab.txt",
        "b.txt",
    ]
    assert [s.path for s in await fs.stats("a", exclude=["a/.hist", ".hist"])] == ["a/x.txt"]
    assert await fs.stats("empty") == []
    await _raises(FileNotFound, fs.stats("nope"))
    await _raises(NotADirectory, fs.stats("b.txt"))


async def check_read_many(fs: FileStore, clock: FakeClock) -> None:
    await fs.write_many({"a/b.txt": b"1", "c.bin": b"\x00"})
    assert await fs.read_many(["c.bin", "./a/b.txt"]) == {"c.bin": b"\x00", "a/b.txt": b"1"}
    assert await fs.read_many([]) == {}
    await _raises(FileNotFound, fs.read_many(["c.bin", "nope"]))
    await _raises(IsADirectory, fs.read_many(["a"]))


async def check_list(fs: FileStore, clock: FakeClock) -> None:
    for path in ["b.txt", "a/x.txt", "a/y/z.txt", "ab.txt"]:
        await fs.write_text(path, path)
    await fs.mkdir("empty")
    assert await fs.list() == ["a/x.txt", "a/y/z.txt", "ab.txt", "b.txt"]
    assert await fs.list("a") == ["a/x.txt", "a/y/z.txt"]
    assert await fs.list("a/") == ["a/x.txt", "a/y/z.txt"]
    assert await fs.list("", recursive=False) == ["ab.txt", "b.txt"]
    assert await fs.list("a", recursive=False) == ["a/x.txt"]
    assert await fs.list("", recursive=False, dirs=True) == ["a", "ab.txt", "b.txt", "empty"]
    assert await fs.list("a", dirs=True) == ["a/x.txt", "a/y", "a/y/z.txt"]
    assert await fs.list("empty") == []
    assert await fs.list("empty", dirs=True) == []
    await _raises(FileNotFound, fs.list("missing"))
    await _raises(NotADirectory, fs.list("b.txt"))


async def check_list_prefix_is_a_directory_not_a_string_prefix(
    fs: FileStore, clock: FakeClock
) -> None:
    await fs.write_text("src/a.js", "")
    await fs.write_text("src2/b.js", "")
    assert await fs.list("src") == ["src/a.js"]


async def check_stat(fs: FileStore, clock: FakeClock) -> None:
    clock.now = 5000.0
    await fs.write_text("d/f.txt", "héllo")
    st = await fs.stat("d/f.txt")
    assert (st.path, st.size, st.modified, st.is_dir) == ("d/f.txt", 6, 5000.0, False)
    clock.advance(10)
    await fs.write_text("d/g.txt", "")
    st = await fs.stat("./d/")
    assert (st.path, st.size, st.is_dir) == ("d", 0, True)
    assert st.modified == 5010.0
    assert (await fs.stat("")).is_dir


async def check_modified_follows_clock(fs: FileStore, clock: FakeClock) -> None:
    clock.now = 100.0
    await fs.write_text("a.txt", "1")
    clock.now = 200.0
    await fs.write_text("a.txt", "2")
    assert (await fs.stat("a.txt")).modified == 200.0


async def check_mkdir(fs: FileStore, clock: FakeClock) -> None:
    await fs.mkdir("a/b/c")
    assert await fs.is_dir("a/b/c")
    assert await fs.is_dir("a")
    await fs.mkdir("a/b/c")  # parents=True: existing is fine
    await _raises(FileExists, fs.mkdir("a/b/c", parents=False))
    await _raises(FileNotFound, fs.mkdir("x/y", parents=False))
    await fs.mkdir("x", parents=False)
    assert await fs.is_dir("x")
    await fs.write_text("f", "")
    await _raises(FileExists, fs.mkdir("f"))
    assert await fs.list() == ["f"]
    assert await fs.list(dirs=True) == ["a", "a/b", "a/b/c", "f", "x"]


async def check_remove_file(fs: FileStore, clock: FakeClock) -> None:
    await fs.write_text("d/a.txt", "x")
    await fs.remove("d/a.txt")
    assert not await fs.exists("d/a.txt")
    # The directory stays behind, as on a disk.
    assert await fs.is_dir("d")
    await _raises(FileNotFound, fs.remove("d/a.txt"))


async def check_remove_directory(fs: FileStore, clock: FakeClock) -> None:
    await fs.write_text("d/a.txt", "x")
    await fs.write_text("d/e/b.txt", "x")
    await fs.write_text("keep.txt", "x")
    await _raises(DirectoryNotEmpty, fs.remove("d"))
    await fs.remove("d", recursive=True)
    assert not await fs.exists("d")
    assert await fs.list(dirs=True) == ["keep.txt"]
    await fs.mkdir("empty")
    await fs.remove("empty")
    assert not await fs.exists("empty")
    await _raises(PathError, fs.remove("", recursive=True))


async def check_rename_file(fs: FileStore, clock: FakeClock) -> None:
    await fs.write_text("a.txt", "A")
    await fs.write_text("b.txt", "B")
    await fs.rename("a.txt", "new/dir/a2.txt")
    assert await fs.read_text("new/dir/a2.txt") == "A"
    assert not await fs.exists("a.txt")
    await fs.rename("b.txt", "new/dir/a2.txt")  # replaces
    assert await fs.read_text("new/dir/a2.txt") == "B"
    assert await fs.list() == ["new/dir/a2.txt"]
    await _raises(IsADirectory, fs.rename("new/dir/a2.txt", "new"))
    await _raises(FileNotFound, fs.rename("missing", "x"))
    await fs.rename("new/dir/a2.txt", "new/dir/a2.txt")
    assert await fs.read_text("new/dir/a2.txt") == "B"


async def check_rename_directory(fs: FileStore, clock: FakeClock) -> None:
    await fs.write_text("src/a.js", "a")
    await fs.write_text("src/lib/b.js", "b")
    await fs.mkdir("src/empty")
    await fs.write_text("other/x", "x")
    await fs.rename("src", "app")
    assert await fs.list(dirs=True) == [
        "app",
        "app/a.js",
        "app/empty",
        "app/lib",
        "app/lib/b.js",
        "other",
        "other/x",
    ]
    await _raises(FileExists, fs.rename("app", "other"))
    await _raises(PathError, fs.rename("app", "app/inner"))
    await fs.mkdir("vacant")
    await fs.rename("app", "vacant")
    assert await fs.read_text("vacant/lib/b.js") == "b"


async def check_rename_empty_directory(fs: FileStore, clock: FakeClock) -> None:
    await fs.mkdir("e")
    await fs.rename("e", "f")
    assert await fs.is_dir("f")
    assert not await fs.exists("e")


CHECKS: list[Callable[[FileStore, FakeClock], Awaitable[None]]] = [
    obj for name, obj in sorted(globals().items()) if name.startswith("check_")
]


async def make_store(factory: StoreFactory, clock: FakeClock) -> FileStore:
    store = factory(clock)
    if inspect.isawaitable(store):
        store = await store
    return store  # type: ignore[return-value]


async def run_conformance(factory: StoreFactory) -> list[tuple[str, BaseException]]:
    """Run every check on a fresh store; return the failures."""
    failures: list[tuple[str, BaseException]] = []
    for check in CHECKS:
        clock = FakeClock()
        try:
            await check(await make_store(factory, clock), clock)
        except Exception as err:
            failures.append((check.__name__, err))
    return failures
