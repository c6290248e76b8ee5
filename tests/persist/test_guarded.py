"""The storage guard needs only a gate, not the tab lock: a write to the gated project
is refused, and what the page has always imported from the tab lock is the same."""

from __future__ import annotations

import pytest

from wiggum.persist import MemoryAppStorage
from wiggum.persist.guarded import PAUSED_TEXT, GuardedAppStorage, ProjectPaused


class Gate:
    """The two things the guard asks: the open project, and whether it may be written."""

    def __init__(self, project_id: str, open_: bool) -> None:
        self.project_id = project_id
        self.open = open_

    def may_write(self, project_id: str | None = None) -> bool:
        return self.open or (project_id is not None and project_id != self.project_id)


async def test_a_closed_gate_refuses_its_project_and_lets_others_through():
    inner = MemoryAppStorage()
    gate = Gate("p1", open_=False)
    store = GuardedAppStorage(inner, gate)
    told: list[tuple[str, str]] = []
    store.on_write = lambda project_id, what: told.append((project_id, what))
    with pytest.raises(ProjectPaused) as refused:
        await store.put_message("p1", "chief", 0, {"n": 1})
    assert str(refused.value) == PAUSED_TEXT and refused.value.project_id == "p1"
    with pytest.raises(ProjectPaused):
        await store.files("p1").write_text("a", "b")
    with pytest.raises(ProjectPaused):
        await store.put_meta("chats:p1", {})  # the project's own meta record
    await store.put_message("p2", "chief", 0, {"n": 2})
    await store.put_meta("active_project", "p1")
    assert await inner.load_messages("p1", "chief") == []
    assert told == [("p2", "messages:chief")]
    gate.open = True
    await store.files("p1").write_text("a", "b")
    assert told[-1] == ("p1", "files")


def test_the_tab_lock_module_re_exports_the_guard():
    from wiggum.persist import guarded
    from wiggum.ui import tab_lock

    for name in ("ProjectPaused", "PAUSED_TEXT", "GuardedAppStorage", "GuardedFileStore"):
        assert getattr(tab_lock, name) is getattr(guarded, name)


def test_the_guard_imports_neither_the_page_logic_nor_pydantic():
    import subprocess
    import sys

    code = (
        "import sys, wiggum.persist, wiggum.persist.guarded, wiggum.persist.retry\n"
        "print(sorted(m for m in sys.modules if m == 'pydantic' or m.startswith('wiggum.ui')))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
