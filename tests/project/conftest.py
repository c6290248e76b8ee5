"""Repositories made by the real ``git`` CLI, built once for the whole session."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests import gitrepos


@pytest.fixture(scope="session")
def git_repos(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    if shutil.which("git") is None or shutil.which("zip") is None:
        pytest.skip("git and zip are needed (scripts/test.sh installs them)")
    return gitrepos.build(tmp_path_factory.mktemp("repos"))


@pytest.fixture(scope="session")
def git_cli(git_repos: dict[str, Path]) -> gitrepos.Git:
    return gitrepos.Git(git_repos["loose"].parent / "home")
