"""The app's own state: settings kept for every tab, the model choice and its
lists, Chief's meter, the project's debug log."""

from __future__ import annotations

import asyncio

import pytest
from fakes import FakeHost, ProjectRig, sim_settings
from pydantic import SecretStr

from tests.sim import Turn
from wiggum.persist import MemoryAppStorage
from wiggum.session import events as ev
from wiggum.session.debug_log import DebugLog
from wiggum.session.models import ChiefMeterShown, ModelBarsShown, ModelChoice
from wiggum.session.settings_store import NOT_STORED, SettingsChanged, SettingsStore
from wiggum.ui.debuglog import DebugEntry, ProjectLog
from wiggum.ui.settings import ProviderSettings, Settings

# ------------------------------------------------------------------ settings


class RefusingStorage(MemoryAppStorage):
    async def put_settings(self, data):
        raise OSError("quota")


def keyed(preset: str = "openai", **kw) -> ProviderSettings:
    return ProviderSettings.from_preset(preset, api_key=SecretStr("sk-secret-1234567890"), **kw)


async def test_a_save_is_stored_announced_and_told():
    storage, announced, told = MemoryAppStorage(), [], []
    store = SettingsStore(storage, lambda: announced.append(1))
    store.subscribe(told.append)
    settings = Settings(providers=[keyed()])
    assert await store.save(settings)
    assert store() is settings and announced == [1]
    assert told == [SettingsChanged(settings)]
    assert (await storage.get_settings())["providers"][0]["api_key"] == "sk-secret-1234567890"


async def test_a_refused_save_applies_for_now_and_says_it_will_be_lost(caplog):
    store = SettingsStore(RefusingStorage(), lambda: None)
    told = []
    store.subscribe(told.append)
    settings = Settings(providers=[keyed()])
    assert not await store.save(settings)
    assert store.settings is settings and told[-1] is NOT_STORED
    assert "sk-secret" not in caplog.text and "OSError" in caplog.text


async def test_settings_saved_in_another_tab_are_read_again():
    storage = MemoryAppStorage()
    other = SettingsStore(storage, lambda: None)
    await other.save(Settings(providers=[keyed()], proxy_template="https://p.example/?u={href}"))
    here = SettingsStore(storage, lambda: None)
    told = []
    here.subscribe(told.append)
    settings = await here.reload()
    assert settings.proxy_template == "https://p.example/?u={href}"
    assert told == [SettingsChanged(settings, elsewhere=True)]


def test_the_stored_record_is_read_when_the_store_is_made():
    record = Settings(providers=[keyed()], active_provider=None).to_storage()
    assert SettingsStore(MemoryAppStorage(), lambda: None, record)().providers[0].key


async def test_onboard_saves():
    store = SettingsStore(MemoryAppStorage(), lambda: None)
    await store.onboard(keyed("anthropic"), "")
    assert store.settings.active().preset == "anthropic"


# ------------------------------------------------------------------ the model choice


class Models:
    def __init__(self, rig: ProjectRig) -> None:
        self.store = SettingsStore(MemoryAppStorage(), lambda: None)
        self.store.settings = rig.settings
        rig.session._settings = self.store
        self.choice = ModelChoice(rig.host, self.store, rig.session)
        self.events: list = []
        self.choice.subscribe(self.events.append)

    def bars(self) -> list[ModelBarsShown]:
        return [e for e in self.events if isinstance(e, ModelBarsShown)]


async def test_without_a_usable_provider_the_bars_hide():
    rig = ProjectRig()
    await rig.open()
    m = Models(rig)
    m.choice.show()
    assert m.bars() == [ModelBarsShown({}, [], "")]
    assert rig.host.tasks == []


async def test_the_bars_show_each_roles_model_and_the_list_is_fetched_once(sim, transport):
    sim.set_models(["gpt-4o-mini", "gpt-4o"])
    rig = ProjectRig(sim_settings(sim), transport=transport)
    await rig.open()
    m = Models(rig)
    m.choice.show()
    assert m.bars()[0].chosen == {"chief": "gpt-4o-mini", "ralph": "gpt-4o-mini"}
    await rig.host.settle()
    m.choice.show()
    await rig.host.settle()
    assert rig.host.spawned().count("list models") == 1
    assert {o.id for o in m.bars()[-1].models} >= {"gpt-4o"}
    assert "gpt-4o" in m.choice.listed()


async def test_a_list_that_cannot_be_had_leaves_the_configured_model_alone(sim, transport):
    from tests.sim import http_error

    rig = ProjectRig(sim_settings(sim), transport=transport)
    await rig.open()
    sim.models_fault = http_error(500)
    m = Models(rig)
    m.choice.show()
    await rig.host.settle()
    assert m.bars()[-1].models == [] and m.bars()[-1].chosen["chief"] == "gpt-4o-mini"


async def test_picking_a_model_saves_it_for_this_project_and_role(sim, transport):
    rig = ProjectRig(sim_settings(sim), transport=transport)
    pid = await rig.open()
    m = Models(rig)
    m.choice.pick("ralph", "gpt-4o")
    await rig.host.settle()
    assert m.store.settings.project_models == {f"{pid}:ralph": "gpt-4o"}


async def test_a_paused_tab_does_not_change_the_projects_model(sim, transport):
    rig = ProjectRig(sim_settings(sim), owner=False, transport=transport)
    await rig.open()
    m = Models(rig)
    m.choice.pick("chief", "gpt-4o")
    await rig.host.settle()
    assert m.store.settings.project_models == {}
    assert rig.of(ev.ActionRefused) and m.bars()  # the bar shows the choice in force


async def test_chiefs_meter_counts_what_the_next_request_carries(sim, transport):
    rig = ProjectRig(sim_settings(sim), transport=transport)
    await rig.open()
    m = Models(rig)
    m.choice.update_meter()
    empty = [e for e in m.events if isinstance(e, ChiefMeterShown)][-1].meter
    sim.script([Turn("A long answer " * 50)])
    rig.chief.send("Tell me a lot")
    await rig.host.settle()
    m.choice.update_meter()
    after = [e for e in m.events if isinstance(e, ChiefMeterShown)][-1].meter
    assert after.tokens > empty.tokens > 0


async def test_no_meter_without_a_conversation():
    rig = ProjectRig(Settings(providers=[keyed()]))
    m = Models(rig)
    m.choice.update_meter()
    assert m.events == []


# ------------------------------------------------------------------ the debug log


class Log:
    def __init__(self, storage=None, settings: Settings | None = None) -> None:
        self.host = FakeHost()
        self.storage = storage or MemoryAppStorage()
        self.shown: list[list[DebugEntry]] = []
        self.added: list[DebugEntry] = []
        self.console: list[str] = []
        self.settings = settings or Settings()
        self.log = DebugLog(
            self.host,
            self.storage,
            lambda: self.settings,
            show=self.shown.append,
            add=self.added.append,
            console=self.console.append,
        )


def entry(message: str, **fields) -> DebugEntry:
    return DebugEntry(time=1.0, level="ERROR", logger="wiggum.llm", message=message, fields=fields)


async def test_entries_logged_before_the_project_opened_are_kept_with_it():
    log = Log()
    pid = (await log.storage.create_project("P"))["id"]
    log.log.entry(entry("early"))
    await log.log.open(pid)
    assert [e.message for e in log.shown[-1]] == ["early"]
    assert [e.message for e in await ProjectLog(log.storage, pid).load()] == ["early"]


async def test_an_entry_is_shown_and_stored_once_the_log_is_open():
    log = Log()
    pid = (await log.storage.create_project("P"))["id"]
    await log.log.open(pid)
    log.log.entry(entry("later"))
    await log.host.settle()
    assert [e.message for e in log.added] == ["later"]
    assert [e.message for e in await ProjectLog(log.storage, pid).load()] == ["later"]


async def test_the_provider_is_named_as_the_person_named_it():
    p = keyed()
    log = Log(settings=Settings(providers=[p]))
    log.log.entry(entry("x", provider=p.id))
    assert log.added[0].fields["provider"] == p.label


async def test_an_entry_that_cannot_be_stored_goes_to_the_console_not_the_log():
    class Refusing(MemoryAppStorage):
        async def put_message(self, *a):
            raise OSError("quota")

    log = Log(Refusing())
    pid = (await log.storage.create_project("P"))["id"]
    await log.log.open(pid)
    log.log.entry(entry("x"))
    await log.host.settle()
    assert log.console == ["wiggum: debug entry not stored: OSError"]
    assert len(log.added) == 1  # not logged again


async def test_an_unreadable_log_opens_empty_and_says_so_in_the_console():
    class Unreadable(MemoryAppStorage):
        async def load_messages(self, *a):
            raise OSError("broken")

    log = Log(Unreadable())
    await log.log.open("p")
    assert log.shown == [[]] and log.console == ["wiggum: debug log could not be read: OSError"]


async def test_a_line_said_in_the_log_is_an_entry_of_its_own():
    log = Log()
    log.log.say("No Web Locks here.")
    assert log.added[0].message == "No Web Locks here." and log.added[0].level == "WARNING"


async def test_clearing_the_log_empties_the_stored_copy():
    log = Log()
    pid = (await log.storage.create_project("P"))["id"]
    await log.log.open(pid)
    log.log.entry(entry("x"))
    await log.host.settle()
    await log.log.clear()
    assert await ProjectLog(log.storage, pid).load() == []


@pytest.mark.parametrize("paused", [True])
async def test_a_paused_tab_keeps_entries_on_screen_only(paused):
    rig = ProjectRig(owner=False)
    pid = await rig.open()
    log = Log(rig.storage)
    await log.log.open(pid)
    log.log.entry(entry("x"))
    await log.host.settle()
    assert log.console == [] and len(log.added) == 1


async def test_chiefs_meter_follows_a_streaming_reply_at_most_once_a_period(sim, transport):
    import asyncio

    from wiggum.session.models import METER_EVERY

    rig = ProjectRig(sim_settings(sim), transport=transport)
    m = Models(rig)
    await rig.open()
    meters = lambda: [e for e in m.events if isinstance(e, ChiefMeterShown)]  # noqa: E731
    bound = len(meters())
    assert bound >= 1  # the conversation shown is counted at once
    period = asyncio.Event()  # the period ends when the test says so, not by the clock

    async def one_period(seconds: float) -> None:
        rig.host.slept.append(seconds)
        await period.wait()

    rig.host.sleep = one_period
    sim.script([Turn("word " * 300, chunks=60)])
    rig.chief.send("Tell me a lot")
    await asyncio.wait_for(_reply_done(rig), 10)
    # Sixty deltas inside one period: one count waits, none more is asked for.
    assert rig.host.spawned().count("update the context meter") == 1
    assert rig.host.slept == [METER_EVERY]
    assert meters()[-1].meter.cost is not None  # the reply's end is counted at once
    counted = len(meters())
    period.set()
    await rig.host.settle()
    assert len(meters()) == counted  # nothing is left due when the period ends


async def _reply_done(rig) -> None:
    while not (rig.session.chat.records and not rig.session.chat.busy):
        await asyncio.sleep(0.01)
