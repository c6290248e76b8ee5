"""The one list of listeners every changing part keeps (``wiggum._listeners``)."""

from __future__ import annotations

import logging

from wiggum._listeners import Listeners

log = logging.getLogger("tests.listeners")


def test_a_failing_listener_is_logged_and_the_others_still_hear(caplog):
    listeners: Listeners[[str, int]] = Listeners(log, "chief: listener")
    heard: list[tuple[str, int]] = []

    def broken(event: str, n: int) -> None:
        raise RuntimeError("a view's bug")

    listeners.subscribe(broken)
    listeners.subscribe(lambda event, n: heard.append((event, n)))
    listeners.emit("added", 3)
    assert heard == [("added", 3)]
    assert "chief: listener failed on added" in caplog.text


def test_an_object_change_is_named_by_its_type(caplog):
    class Changed:
        pass

    listeners: Listeners[[Changed]] = Listeners(log)
    listeners.subscribe(lambda change: 1 / 0)
    listeners.emit(Changed())
    assert "listener failed on Changed" in caplog.text


def test_unsubscribing_stops_it_and_may_happen_twice_or_while_telling():
    listeners: Listeners[[int]] = Listeners(log)
    heard: list[int] = []
    stop_first = listeners.subscribe(lambda n: (heard.append(n), stop_first()))
    listeners.subscribe(heard.append)
    listeners.emit(1)  # the first stops itself while being told; the second still hears
    listeners.emit(2)
    stop_first()
    assert heard == [1, 1, 2]
