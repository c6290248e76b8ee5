"""wiggum.ui.slices: work in steps, a time slice at a time; chunks coalesced by refill."""

from __future__ import annotations

import pytest

from wiggum.ui.slices import Slices


class Clock:
    """Each step of a job advances it by the step's cost."""

    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def job(clock: Clock, name: str, costs: list[float], log: list[str]):
    for i, cost in enumerate(costs):
        clock.t += cost
        log.append(f"{name}{i}")
        yield


def test_a_slice_stops_once_its_budget_is_spent_and_the_next_goes_on():
    clock, log = Clock(), []
    s = Slices(budget=0.005, clock=clock)
    s.add(job(clock, "a", [0.002] * 6, log))
    assert s.run() is True
    assert log == ["a0", "a1", "a2"]  # 6 ms > 5 ms: the slice ends after the third step
    assert s.run() is True
    assert log[3:] == ["a3", "a4", "a5"]
    assert s.run() is False  # the job's end is found: nothing left
    assert not s


def test_a_step_longer_than_the_budget_runs_alone():
    clock, log = Clock(), []
    s = Slices(budget=0.005, clock=clock)
    s.add(job(clock, "a", [0.020, 0.001], log))
    s.run()
    assert log == ["a0"] and s.steps == 1


def test_urgent_jobs_before_refill_before_later_ones():
    clock, log = Clock(), []
    texts = ["new text"]

    def refill():
        if not texts:
            return None
        texts.pop()
        return job(clock, "r", [0.001], log)

    s = Slices(budget=1.0, clock=clock, refill=refill)
    s.add(job(clock, "colour", [0.001, 0.001], log), urgent=False)
    s.add(job(clock, "u", [0.001], log))
    assert s.run() is False
    assert log == ["u0", "r0", "colour0", "colour1"]


def test_refill_coalesces_what_arrived_before_the_slice():
    """Three chunks before a slice: one render, of the latest text."""
    clock, rendered = Clock(), []
    latest: list[str] = []

    def refill():
        if not latest:
            return None
        text = latest[-1]
        latest.clear()

        def render():
            clock.t += 0.001
            rendered.append(text)
            yield

        return render()

    s = Slices(budget=0.005, clock=clock, refill=refill)
    for text in ("a", "ab", "abc"):
        latest.append(text)
    s.run()
    assert rendered == ["abc"]
    latest.append("abcd")
    s.run()
    assert rendered == ["abc", "abcd"]


def test_drain_finishes_urgent_work_at_once_and_leaves_later_work():
    clock, log = Clock(), []
    s = Slices(budget=0.001, clock=clock, refill=lambda: job(clock, "r", [0.0], log))
    s.add(job(clock, "u", [0.002] * 4, log))
    s.add(job(clock, "c", [0.002], log), urgent=False)
    s.drain()
    assert log == ["u0", "u1", "u2", "u3"]  # refill is not asked
    assert s.later and not s.urgent
    s.drain(urgent_only=False)
    assert log[-1] == "c0" and not s


def test_the_pacer_renders_the_latest_text_at_most_once_an_interval():
    from wiggum.ui.slices import Pacer

    now = [10.0]
    pace = Pacer(0.016, clock=lambda: now[0])
    assert pace.next() is None  # nothing fed
    pace.latest = "He"
    pace.latest = "Hello"  # chunks before the next render coalesce
    assert pace.next() == "Hello" and pace.latest is None
    pace.latest = "Hello, wor"
    now[0] += 0.006
    wait = pace.next()  # too soon after the last render: wait out the interval
    assert wait == pytest.approx(0.010) and pace.waiting and not pace.ready
    pace.latest = "Hello, world"
    assert pace.next() is None  # the timer brings it
    now[0] += 0.010
    assert pace.woke() and pace.next() == "Hello, world"
    now[0] += 1
    assert not pace.woke() and pace.next() is None  # woke with nothing new
