"""HidingFileStore: a conforming FileStore that hides the project's .git/."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import pytest

from wiggum.fs import FileNotFound, MemoryFileStore, PathError
from wiggum.fs.hiding import HidingFileStore


def _conformance():
    name = "wiggum_tests_fs_conformance"
    if name not in sys.modules:
        spec = importlib.util.spec_from_file_location(
            name, Path(__file__).with_name("conformance.py")
        )
        module = importlib.util.module_from_spec(spec)
        sys.modules[name] = module
        spec.loader.exec_module(module)
    return sys.modules[name]


async def test_conformance_through_the_view():
    conformance = _conformance()
    failures = await conformance.run_conformance(
        lambda clock: HidingFileStore(MemoryFileStore(clock=clock))
    )
    assert failures == []


async def test_git_is_invisible_and_untouchable():
    inner = MemoryFileStore({".git/HEAD": "ref: refs/heads/main\n", "index.html": "x"})
    view = HidingFileStore(inner)
    assert await view.list("") == ["index.html"]
    assert ".git" not in await view.list("", recursive=False, dirs=True)
    assert not await view.exists(".git/HEAD") and not await view.is_dir(".git")
    assert await view.exists(".gitignore") is False  # a sibling name is not hidden
    with pytest.raises(FileNotFound):
        await view.read_text(".git/HEAD")
    with pytest.raises(FileNotFound):
        await view.remove(".git", recursive=True)
    with pytest.raises(PathError, match="history"):
        await view.write_text(".git/HEAD", "evil")
    with pytest.raises(PathError):
        await view.rename("index.html", ".git/x")
    await view.write_text(".gitignore", "ok")
    assert await inner.read_text(".git/HEAD") == "ref: refs/heads/main\n"
