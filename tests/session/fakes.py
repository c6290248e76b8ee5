"""A :class:`~wiggum.session.host.Host` for CPython tests: the decisions of the
session layer run against it exactly as they run against the page's.

Its tasks are real asyncio tasks (``settle()`` waits for them and re-raises
what failed, so a broken decision fails its test); its clock is fake, moved by
``sleep`` and ``advance``; packages and checkers are recorded, not loaded.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

from wiggum.session.host import Checkers


class FakeHost:
    def __init__(self, *, origin: str = "http://127.0.0.1:8000", checkers: Checkers | None = None):
        self._origin = origin
        self._checkers = checkers
        self.tasks: list[tuple[str, asyncio.Task]] = []
        self.loaded: list[str] = []
        self.shown = True
        self.clock = 1_000_000.0
        self.slept: list[float] = []

    @property
    def origin(self) -> str:
        return self._origin

    def spawn(self, coro: Coroutine[Any, Any, Any], *, what: str) -> asyncio.Task:
        task = asyncio.ensure_future(coro)
        self.tasks.append((what, task))
        return task

    async def load_packages(self, *names: str) -> None:
        self.loaded.extend(names)

    def checkers(self) -> Checkers | None:
        return self._checkers

    def visible(self) -> bool:
        return self.shown

    def now(self) -> float:
        return self.clock

    async def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.clock += max(0.0, seconds)
        await asyncio.sleep(0)

    def advance(self, seconds: float) -> None:
        self.clock += seconds

    def spawned(self) -> list[str]:
        return [what for what, _ in self.tasks]

    async def settle(self, rounds: int = 50) -> None:
        """Run the spawned tasks (and those they spawn) to their end; re-raise failures."""
        for _ in range(rounds):
            pending = [t for _, t in self.tasks if not t.done()]
            if not pending:
                break
            await asyncio.wait(pending, timeout=5)
        for what, task in self.tasks:
            if task.done() and not task.cancelled() and task.exception() is not None:
                raise AssertionError(f"{what} failed") from task.exception()


class FakeTabLock:
    """The tab lock's port with the real decisions (``TabLock``) and no browser:
    ``owner`` says whether the browser grants this tab the project's lock."""

    def __init__(self, *, owner: bool = True) -> None:
        from wiggum.ui.tab_lock import TabLock

        self.machine = TabLock()
        self.owner = owner
        self.calls: list[tuple[str, str]] = []
        #: Projects another tab has open.
        self.elsewhere: set[str] = set()

    async def open(self, project_id: str) -> None:
        self.calls.append(("open", project_id))
        self.machine.open(project_id)
        if self.owner:
            self.machine.granted(project_id)
        else:
            self.machine.unavailable(project_id)

    async def fence(self, project_id: str) -> int | None:
        self.calls.append(("fence", project_id))
        return 1

    def unfenced(self):
        import contextlib

        return contextlib.nullcontext()

    def reloaded(self, project_id: str) -> None:
        self.calls.append(("reloaded", project_id))
        self.machine.reloaded(project_id)

    def handed_over(self, project_id: str) -> None:
        self.calls.append(("handed_over", project_id))
        self.machine.handed_over(project_id)

    async def open_elsewhere(self, project_id: str) -> bool:
        return project_id in self.elsewhere


def sim_settings(sim: Any, **kw: Any):
    """Settings whose one provider is the HTTP simulator (OpenAI's dialect)."""
    from pydantic import SecretStr

    from wiggum.ui.settings import ProviderSettings, Settings

    p = ProviderSettings(
        id="sim",
        name="Sim",
        preset="custom",
        kind="openai",
        base_url=sim.base_url + "/v1",
        model="gpt-4o-mini",
        api_key=SecretStr("sk-sim-session"),
    )
    return Settings(providers=[p], active_provider="sim", **kw)


class ProjectRig:
    """A project session over memory storage guarded by the real tab lock."""

    def __init__(
        self, settings: Any = None, *, owner: bool = True, transport: Any = None, raw: Any = None
    ) -> None:
        """``raw``: the storage of another rig (the same browser, a reload or a second
        tab); ``settings`` a ``Settings`` or what gives them."""
        from wiggum.persist import MemoryAppStorage
        from wiggum.persist.guarded import GuardedAppStorage
        from wiggum.session.chief import ChiefSession
        from wiggum.session.project import ProjectSession
        from wiggum.ui.settings import Settings

        self.host = FakeHost()
        self.raw = raw if raw is not None else MemoryAppStorage()
        self.lock = FakeTabLock(owner=owner)
        self.storage = GuardedAppStorage(self.raw, self.lock.machine)
        self.chief = ChiefSession(self.host)
        self.settings = settings or Settings()
        self.opened: list[str] = []
        self.listed: list[str] = []

        async def opener(project_id: str) -> None:
            self.opened.append(project_id)

        self.session = ProjectSession(
            host=self.host,
            storage=self.storage,
            tab_lock=self.lock,
            chief=self.chief,
            settings=self.settings if callable(self.settings) else lambda: self.settings,
            models_listed=lambda: self.listed,
            openers=(opener,),
            transport=transport,
        )
        self.events: list[Any] = []
        self.session.subscribe(self.events.append)

    async def project(self, name: str = "Site") -> str:
        return (await self.raw.create_project(name))["id"]

    async def open(self, name: str = "Site") -> str:
        project_id = await self.project(name)
        await self.session.open(project_id)
        return project_id

    def of(self, kind: type) -> list[Any]:
        return [e for e in self.events if isinstance(e, kind)]
