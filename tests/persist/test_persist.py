"""MemoryAppStorage: the reference semantics of the AppStorage seam.

tests/e2e/test_storage.py holds IndexedDBAppStorage to the same behaviours in
Chromium; keep the two in step.
"""

from __future__ import annotations

import pytest

from wiggum.fs import FileStore, MemoryFileStore
from wiggum.persist import AGENTS, AppStorage, MemoryAppStorage, new_project_record


@pytest.fixture
def st() -> MemoryAppStorage:
    return MemoryAppStorage()


def test_is_an_app_storage(st):
    def takes(storage: AppStorage) -> AppStorage:
        return storage

    assert takes(st) is st
    assert AGENTS == ("chief", "ralph")


async def test_settings_round_trip_with_nested_dicts(st):
    assert await st.get_settings() is None
    settings = {
        "providers": {"openai": {"model": "gpt", "keys": ["k1", "k2"]}},
        "proxy": None,
        "n": 3,
        "t": 0.5,
        "on": True,
    }
    await st.put_settings(settings)
    assert await st.get_settings() == settings
    # Neither the caller's dict nor a returned one aliases the stored record.
    settings["providers"]["openai"]["model"] = "changed after put"
    got = await st.get_settings()
    got["providers"]["openai"]["keys"].append("changed after get")
    assert await st.get_settings() == {
        "providers": {"openai": {"model": "gpt", "keys": ["k1", "k2"]}},
        "proxy": None,
        "n": 3,
        "t": 0.5,
        "on": True,
    }
    await st.put_settings({"replaced": True})
    assert await st.get_settings() == {"replaced": True}


async def test_meta(st):
    assert await st.get_meta("missing") is None
    await st.put_meta("last_project", "x")
    nested = {"a": [1, {"b": "c"}]}
    await st.put_meta("nested", nested)
    nested["a"].append(2)
    assert await st.get_meta("last_project") == "x"
    assert await st.get_meta("nested") == {"a": [1, {"b": "c"}]}
    await st.put_meta("last_project", "y")
    assert await st.get_meta("last_project") == "y"


async def test_projects_create_list_rename(st):
    a = await st.create_project("Alpha")
    b = await st.create_project("Beta")
    assert sorted(a) == ["created", "id", "name", "updated"]
    assert a["id"] != b["id"]
    assert a["created"] == a["updated"]
    assert [p["name"] for p in await st.list_projects()] == ["Alpha", "Beta"]
    await st.rename_project(a["id"], "Alpha 2")
    (renamed,) = [p for p in await st.list_projects() if p["id"] == a["id"]]
    assert renamed["name"] == "Alpha 2"
    assert renamed["created"] == a["created"]
    assert renamed["updated"] >= a["updated"]
    with pytest.raises(KeyError):
        await st.rename_project("nope", "x")
    # The returned record is a copy.
    a["name"] = "changed"
    assert [p["name"] for p in await st.list_projects()] == ["Alpha 2", "Beta"]


async def test_projects_listed_oldest_first(st):
    st._projects = {}
    for name, created in [("c", 3.0), ("a", 1.0), ("b", 2.0)]:
        record = new_project_record(name, now=created)
        st._projects[record["id"]] = record
    assert [p["name"] for p in await st.list_projects()] == ["a", "b", "c"]


async def test_messages_ordered_by_seq_and_rewritten_in_place(st):
    p = await st.create_project("P")
    for seq in (2, 0, 10, 1):
        await st.put_message(p["id"], "chief", seq, {"role": "user", "n": seq})
    await st.put_message(p["id"], "chief", 1, {"role": "assistant", "text": "partial"})
    await st.put_message(p["id"], "chief", 1, {"role": "assistant", "text": "final"})
    await st.put_message(p["id"], "ralph", 0, {"role": "ralph"})
    assert await st.load_messages(p["id"], "chief") == [
        {"role": "user", "n": 0},
        {"role": "assistant", "text": "final"},
        {"role": "user", "n": 2},
        {"role": "user", "n": 10},
    ]
    assert await st.load_messages(p["id"], "ralph") == [{"role": "ralph"}]
    assert await st.load_messages("nobody", "chief") == []
    await st.delete_messages(p["id"], "ralph")
    assert await st.load_messages(p["id"], "ralph") == []
    assert len(await st.load_messages(p["id"], "chief")) == 4


async def test_message_records_are_copies(st):
    record = {"content": [{"type": "text", "text": "hi"}]}
    await st.put_message("p", "chief", 0, record)
    record["content"].append("after put")
    loaded = await st.load_messages("p", "chief")
    loaded[0]["content"].append("after load")
    assert await st.load_messages("p", "chief") == [{"content": [{"type": "text", "text": "hi"}]}]


async def test_delete_project_removes_files_and_conversations(st):
    a = await st.create_project("A")
    b = await st.create_project("B")
    for agent in (*AGENTS, "debug"):
        await st.put_message(a["id"], agent, 0, {"agent": agent})
    await st.put_message(b["id"], "chief", 0, {"role": "other project"})
    await st.files(a["id"]).write_text("index.html", "<h1>A</h1>")
    await st.files(a["id"]).mkdir(".chief")
    await st.files(b["id"]).write_text("index.html", "<h1>B</h1>")
    assert st.files(a["id"]) is st.files(a["id"])
    await st.delete_project(a["id"])
    await st.delete_project("never existed")
    assert [p["name"] for p in await st.list_projects()] == ["B"]
    for agent in (*AGENTS, "debug"):
        assert await st.load_messages(a["id"], agent) == []
    assert await st.files(a["id"]).list(dirs=True) == []
    assert await st.files(b["id"]).read_text("index.html") == "<h1>B</h1>"
    assert await st.load_messages(b["id"], "chief") == [{"role": "other project"}]


async def test_two_projects_files_never_mix(st):
    ids = ["p", "p1", "p/", ""]
    for i in ids:
        fs = st.files(i)
        await fs.write_text("index.html", f"site {i!r}")
        await fs.write_text("src/app.js", f"app {i!r}")
        await fs.mkdir("empty")
    await st.files("p").rename("src", "lib")
    await st.files("p1").remove("src", recursive=True)
    await st.files("p/").remove("empty")
    assert {i: await st.files(i).list(dirs=True) for i in ids} == {
        "p": ["empty", "index.html", "lib", "lib/app.js"],
        "p1": ["empty", "index.html"],
        "p/": ["index.html", "src", "src/app.js"],
        "": ["empty", "index.html", "src", "src/app.js"],
    }
    assert await st.files("p1").read_text("index.html") == "site 'p1'"


async def test_files_are_file_stores_with_binary_round_trip(st):
    fs = st.files("p")
    assert isinstance(fs, FileStore)
    assert isinstance(fs, MemoryFileStore)
    await fs.write_bytes("img/all.bin", bytes(range(256)))
    assert await fs.read_bytes("img/all.bin") == bytes(range(256))
    with pytest.raises(TypeError):
        await fs.write_text("x", b"bytes")


async def test_projects_made_in_one_clock_tick_list_in_creation_order(monkeypatch):
    import wiggum.persist as persist

    monkeypatch.setattr(persist.time, "time", lambda: 1000.0)
    st = MemoryAppStorage()
    for name in ("Alpha", "Beta", "Gamma"):
        await st.create_project(name)
    projects = await st.list_projects()
    assert [p["name"] for p in projects] == ["Alpha", "Beta", "Gamma"]
    created = [p["created"] for p in projects]
    assert created == sorted(set(created))  # no ties left for the store's order to decide
