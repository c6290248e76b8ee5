"""Opening and pulling share: a repository with a history on the simulated GitHub, a
project opened from it (through the projects' own import), and ``git`` to check."""

from __future__ import annotations

import shutil
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests import gitrepos
from tests.deploy.publishing import client
from tests.sim.github import GitHubSim
from wiggum.deploy.github import GitHub
from wiggum.persist import MemoryAppStorage
from wiggum.project.service import HistoryService
from wiggum.session.github_open import open_from_github
from wiggum.session.projects import Imported
from wiggum.session.publish import state_key
from wiggum.session.stored_projects import StoredProjects

SITE = {"index.html": b"<h1>0</h1>\n", "style.css": b"h1{}\n", "run.sh": b"#!/bin/sh\n"}


def history(sim: GitHubSim, name: str, commits: int, *, timezone: int = 0) -> list[str]:
    """``name`` on GitHub with ``commits`` commits (the later ones in ``timezone``)."""
    sim.add_repo(name, files=SITE, modes={"run.sh": "100755"})
    sim.timezone = timezone
    for i in range(1, commits):
        sim.clock.now += 3600
        sim.push(name, {**SITE, "index.html": f"<h1>{i}</h1>\n".encode()}, message=f"Change {i}")
    sim.timezone = 0
    return sim.commits(name)


async def no_browser() -> bool:
    return False


@dataclass
class Project:
    stored: StoredProjects
    opened: Imported
    service: HistoryService

    @property
    def pid(self) -> str:
        assert self.opened.project is not None
        return self.opened.project["id"]

    @property
    def files(self):
        return self.stored.storage.files(self.pid)

    async def record(self) -> dict:
        return await self.stored.storage.get_meta(state_key(self.pid))

    async def download(self, where: Path) -> Path:
        data = await self.stored.zip_of(self.pid, include_internal=True, app=self)
        return gitrepos.unzip(data, where)

    async def history_of(self, project_id: str) -> tuple[HistoryService, bool]:
        return self.service, True


@pytest.fixture
def git_cli(tmp_path_factory) -> gitrepos.Git:
    if shutil.which("git") is None or shutil.which("unzip") is None:
        pytest.skip("git and unzip are needed (scripts/test.sh installs them)")
    return gitrepos.Git(tmp_path_factory.mktemp("home"))


@pytest.fixture
def gh(gh_sim, transport, gh_clock) -> GitHub:
    return client(gh_sim, transport, gh_clock)


@pytest.fixture
def open_project(gh_sim, transport, gh_clock):
    async def run(address: str, *, token: str = "", depth: int = 50) -> Project:
        stored = StoredProjects(MemoryAppStorage(), no_browser)
        gh = client(gh_sim, transport, gh_clock, token)
        opened = await open_from_github(
            address, token=token, api=gh_sim.base_url, transport=transport,
            storage=stored.storage, create=stored.create_from, depth=depth, pacer=gh.pacer,
        )  # fmt: skip
        pid = opened.project["id"] if opened.project else ""
        return Project(stored, opened, HistoryService(stored.storage.files(pid)))

    return run
