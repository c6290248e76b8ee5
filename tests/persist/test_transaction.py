"""A transaction's body, driven step by step without a browser: it runs on with
each answer, its first failure aborts it, and the error it ends with is the one
that explains it."""

from __future__ import annotations

from typing import Any

from wiggum.persist.schema import Fence
from wiggum.persist.transaction import BodyRun


class Run:
    """A :class:`BodyRun` whose requests and aborts are written down."""

    def __init__(self) -> None:
        self.wired: list[Any] = []
        self.aborts = 0
        self.run = BodyRun(wire=self.wired.append, abort=self.abort)

    def abort(self) -> None:
        self.aborts += 1


def test_a_generator_body_runs_on_with_each_answer_and_returns_the_result():
    seen: list[Any] = []

    def body() -> Any:
        seen.append((yield "get a"))
        seen.append((yield "get b"))
        return "done"

    r = Run()
    r.run.start(body)
    assert r.wired == ["get a"] and r.run.result is None
    r.run.resume(1)
    r.run.resume(2)
    assert r.wired == ["get a", "get b"] and seen == [1, 2]
    assert (r.run.result, r.run.error, r.aborts) == ("done", None, 0)


def test_a_plain_body_is_its_result_at_once():
    r = Run()
    r.run.start(lambda: 42)
    assert (r.run.result, r.wired, r.aborts) == (42, [], 0)


def test_a_body_that_raises_aborts_and_its_error_wins():
    def body() -> Any:
        yield "get"
        raise FileNotFoundError("a.txt")

    r = Run()
    r.run.start(body)
    r.run.request_failed(OSError("a later request"))
    r.run.resume(None)
    assert isinstance(r.run.error, FileNotFoundError) and r.aborts == 1
    assert r.run.failure(OSError("AbortError")) is r.run.error
    r2 = Run()
    r2.run.start(lambda: 1 / 0)
    assert isinstance(r2.run.error, ZeroDivisionError) and r2.aborts == 1


def test_a_fence_that_does_not_hold_refuses_the_write_and_stops_the_body():
    class Paused(Exception):
        pass

    fence = Fence("meta", "fence:p1", 3, Paused)

    def body() -> Any:
        yield "put"
        yield "put again"

    held = Run()
    held.run.fence_read(fence, 3)
    held.run.start(body)
    assert held.run.error is None and held.wired == ["put"]
    moved = Run()
    moved.run.fence_read(fence, 4)  # another tab took the project over
    moved.run.start(body)
    moved.run.resume(None)
    assert isinstance(moved.run.error, Paused) and moved.aborts == 1
    assert moved.wired == []  # nothing of the body runs once it failed


def test_the_first_failed_request_explains_an_abort_else_the_transaction_does():
    r = Run()
    r.run.start(lambda: (yield "put"))
    first, second, aborted = OSError("QuotaExceededError"), OSError("later"), OSError("Abort")
    r.run.request_failed(first)
    r.run.request_failed(second)
    assert r.run.failure(aborted) is first and r.aborts == 0  # it aborts by itself
    assert Run().run.failure(aborted) is aborted
