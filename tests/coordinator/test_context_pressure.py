"""Ralph's context pressure reaches the Coordinator: logged (numbers only) and passed on to the UI."""

from __future__ import annotations

import logging

from tests.coordinator.helpers import Clock, FakeRunner
from tests.ralph.script import Script, completion, transport
from wiggum.coordinator import Coordinator
from wiggum.fs import MemoryFileStore
from wiggum.llm import ProviderConfig
from wiggum.ralph import RalphConfig, RalphLoop, RalphStatus, make_runner
from wiggum.ralph.context import StateSnapshot
from wiggum.ralph.types import RalphCallbacks

SECRET = "TOP-SECRET-TASK-TEXT"


def pressure_records(caplog) -> list[logging.LogRecord]:
    return [
        r
        for r in caplog.records
        if r.name == "wiggum.coordinator" and "context is nearly full" in r.getMessage()
    ]


async def test_pressure_is_logged_once_per_iteration_and_passed_to_the_ui(caplog):
    caplog.set_level(logging.DEBUG, logger="wiggum")
    seen: list[tuple] = []
    ui = RalphCallbacks(on_context_pressure=lambda *a: seen.append(a))
    runner = FakeRunner(iterations=2, max_iterations=5)
    coord = Coordinator(MemoryFileStore(), ralph_runner=runner, clock=Clock(), callbacks=ui)
    await coord.send_to_ralph(f"Build the page. {SECRET}")
    await runner.started.wait()

    runner.callbacks.on_context_pressure(7300, 8000, 0.05)
    runner.callbacks.on_context_pressure(7400, 8000, 0.04)  # same iteration
    runner.callbacks.on_iteration_start(3, 5)
    runner.callbacks.on_context_pressure(7500, 8000, 0.03)
    runner.release.set()
    await coord.wait()

    assert seen == [(7300, 8000, 0.05), (7400, 8000, 0.04), (7500, 8000, 0.03)]
    records = pressure_records(caplog)
    levels = [(r.levelno, r.getMessage()) for r in records]
    assert [lvl for lvl, _ in levels] == [logging.WARNING, logging.DEBUG, logging.WARNING]
    first, _, third = (m for _, m in levels)
    assert "iteration 2" in first and "~7300 of 8000 tokens" in first and "5.0% left" in first
    assert "iteration 3" in third and "~7500 of 8000 tokens" in third
    assert coord.state.run_id in first
    # Metadata only: nothing of the task (or any content) is logged.
    assert not any(SECRET in r.getMessage() for r in caplog.records)


async def test_a_new_run_logs_pressure_again_at_the_same_iteration(caplog):
    caplog.set_level(logging.DEBUG, logger="wiggum")
    for _ in range(2):
        runner = FakeRunner(iterations=1)
        coord = Coordinator(MemoryFileStore(), ralph_runner=runner, clock=Clock())
        await coord.send_to_ralph("Build.")
        await runner.started.wait()
        runner.callbacks.on_context_pressure(100, 1000, 0.02)
        runner.release.set()
        await coord.wait()
    assert [r.levelno for r in pressure_records(caplog)] == [logging.WARNING] * 2


async def test_the_real_loop_reports_pressure_through_the_coordinator(caplog):
    """Ralph's loop on a tight window: the Coordinator logs it and the UI hears it."""
    caplog.set_level(logging.DEBUG, logger="wiggum")
    provider = ProviderConfig(
        id="tight",
        kind="openai",
        base_url="https://api.openai.com/v1",
        model="gpt-4o",
        api_key="sk-t",
        context_window=8000,
        max_output_tokens=1000,
    )
    config = RalphConfig(max_iterations=1)
    # A task that leaves between 0 and 10% of the window free on the first call.
    probe = RalphLoop(provider, MemoryFileStore(), config=config)
    base = (await probe.builder.build(1, 1, StateSnapshot(task="x"), [])).preflight
    task = "Build it. " + "a" * int(base.budget_remaining * 4 * 0.95)

    s = Script()
    t = transport(s.reply("Nothing to do."), s.reply(completion()))
    fs = MemoryFileStore()
    seen: list[tuple] = []
    ui = RalphCallbacks(on_context_pressure=lambda *a: seen.append(a))
    runner = make_runner(provider, fs, config=config, transport=t, gates=[])
    coord = Coordinator(fs, ralph_runner=runner, clock=Clock(), callbacks=ui)
    await coord.send_to_ralph(task)
    state = await coord.wait()

    assert seen, state.last_error
    estimated, window, headroom = seen[0]
    assert window == 8000 and 0 <= headroom < 0.1
    records = pressure_records(caplog)
    assert records and records[0].levelno == logging.WARNING
    assert f"~{estimated} of 8000 tokens" in records[0].getMessage()
    assert not any("aaaaaaaaaa" in r.getMessage() for r in caplog.records)
    assert state.status == RalphStatus.COMPLETE, state.last_error
