"""MemoryFileStore against the shared FileStore conformance checks."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from wiggum.fs import FileStore, MemoryFileStore


def _load_conformance():
    # Loaded by path under a unique name: tests/ has no __init__.py and other
    # test folders may have a module called "conformance" too.
    name = "wiggum_tests_fs_conformance"
    if name in sys.modules:
        return sys.modules[name]
    spec = importlib.util.spec_from_file_location(name, Path(__file__).with_name("conformance.py"))
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


conformance = _load_conformance()


@pytest.mark.parametrize("check", conformance.CHECKS, ids=lambda c: c.__name__)
async def test_conformance(check):
    clock = conformance.FakeClock()
    await check(MemoryFileStore(clock=clock), clock)


async def test_run_conformance_reports_no_failures():
    assert await conformance.run_conformance(lambda clock: MemoryFileStore(clock=clock)) == []


async def test_run_conformance_reports_a_broken_backend():
    class Forgetful(MemoryFileStore):
        async def write_text(self, path, text):
            return None

    failures = await conformance.run_conformance(lambda clock: Forgetful(clock=clock))
    assert "check_text_round_trip" in [name for name, _ in failures]


def test_memory_store_is_a_file_store():
    assert isinstance(MemoryFileStore(), FileStore)


async def test_initial_files():
    fs = MemoryFileStore({"a.txt": "A", "./b/c.bin": b"\x00"})
    assert await fs.list() == ["a.txt", "b/c.bin"]
    assert await fs.read_bytes("b/c.bin") == b"\x00"


async def test_write_type_errors():
    fs = MemoryFileStore()
    with pytest.raises(TypeError):
        await fs.write_text("a", b"x")
    with pytest.raises(TypeError):
        await fs.write_bytes("a", "x")
