"""The debug log: records to scrubbed entries, the flush-on-error trail, per-project storage."""

from __future__ import annotations

import logging

import pytest

from wiggum.llm.observability import FingersCrossedHandler, log_event
from wiggum.persist import MemoryAppStorage
from wiggum.ui.debuglog import (
    LOG_AGENT,
    REDACTED,
    DebugEntry,
    DebugSink,
    ProjectLog,
    entry_from_record,
    format_entries,
    format_entry,
    format_fields,
    redact,
)

KEY = "sk-proj-THISISTHEREALKEY0123456789"


def _record(msg: str = "llm:error", level: int = logging.ERROR, **extra) -> logging.LogRecord:
    record = logging.LogRecord("wiggum.llm", level, __file__, 1, msg, (), None)
    record.created = 1_764_000_000.25
    for key, value in extra.items():
        setattr(record, key, value)
    return record


@pytest.fixture
def logger():
    log = logging.getLogger("wiggum.test-debuglog")
    log.setLevel(logging.DEBUG)
    log.propagate = False
    yield log
    log.handlers.clear()


# ------------------------------------------------------------------ redaction


def test_redact_known_secret_anywhere_in_text():
    assert redact(f"bad key {KEY}!", [KEY]) == f"bad key {REDACTED}!"


def test_redact_shapes_of_keys_without_knowing_them():
    text = "Authorization: Bearer abcdefghijklmnop and sk-or-v1-0123456789abcdef"
    out = redact(text)
    assert "abcdefghijklmnop" not in out and "0123456789abcdef" not in out
    assert out == f"Authorization: Bearer {REDACTED} and sk-{REDACTED}"


def test_redact_ignores_empty_and_tiny_secrets():
    # An empty key would otherwise match everywhere; a 2-letter one would shred words.
    assert redact("model gpt-4o status 401", ["", "4o"]) == "model gpt-4o status 401"


def test_redact_longer_secret_first():
    short, long_ = "abcdef1", "abcdef1234567"
    assert redact(f"x {long_} y {short}", [short, long_]) == f"x {REDACTED} y {REDACTED}"


# ------------------------------------------------------------------ records -> entries


def test_entry_keeps_category_level_and_llm_fields():
    record = _record(llm={"provider": "p-1", "status": 401, "retryable": False})
    entry = entry_from_record(record)
    assert entry.level == "ERROR" and entry.logger == "wiggum.llm"
    assert entry.message == "llm:error"
    assert entry.fields == {"provider": "p-1", "status": 401, "retryable": False}
    assert entry.time == 1_764_000_000.25
    assert entry.is_problem


def test_entry_scrubs_fields_message_and_traceback():
    try:
        raise RuntimeError(f"failed with {KEY}")
    except RuntimeError:
        import sys

        exc_info = sys.exc_info()
    record = _record(
        "call failed for %s",
        llm={"error": f"key {KEY} rejected", "api_key": "whatever", "nested": {"token": "t0k3n"}},
    )
    record.args = (KEY,)
    record.exc_info = exc_info
    entry = entry_from_record(record, [KEY])
    dumped = entry.model_dump_json()
    assert KEY not in dumped and "whatever" not in dumped and "t0k3n" not in dumped
    assert entry.fields["api_key"] == REDACTED
    assert entry.fields["nested"] == {"token": REDACTED}
    assert entry.message == f"call failed for {REDACTED}"
    assert "RuntimeError: failed with [redacted]" in entry.exception


def test_entry_makes_odd_field_values_json_safe_and_short():
    class Odd:
        def __repr__(self) -> str:
            return "<odd>"

    record = _record(llm={"obj": Odd(), "items": ("a", 1), "long": "x" * 10_000})
    entry = entry_from_record(record)
    assert entry.fields["obj"] == "<odd>" and entry.fields["items"] == ["a", 1]
    assert len(entry.fields["long"]) < 4100 and entry.fields["long"].endswith("more]")
    DebugEntry.model_validate_json(entry.model_dump_json())  # round-trips


def test_entry_survives_bad_format_args():
    record = _record("%d items", llm=None)
    record.args = ("not a number",)
    entry = entry_from_record(record)
    assert "%d items" in entry.message and entry.fields == {}


def test_format_entry_is_one_greppable_line():
    entry = DebugEntry(
        time=0.5,
        level="ERROR",
        logger="wiggum.llm",
        message="llm:error",
        fields={"status": 401, "model": "gpt-4o", "message": "Invalid key", "ids": [1, 2]},
    )
    assert format_entry(entry) == (
        "1970-01-01T00:00:00.500Z ERROR   wiggum.llm llm:error "
        "status=401 model=gpt-4o message='Invalid key' ids=[1,2]"
    )
    assert format_fields({"empty": ""}) == "empty=''"
    assert format_fields({"cost": 0.00024269999999999996, "t": 2.0}) == "cost=0.0002427 t=2"


def test_format_entries_indents_tracebacks():
    entry = DebugEntry(time=0, level="ERROR", logger="x", message="m", exception="Tb\n  line")
    assert format_entries([entry, entry]).splitlines()[1:3] == ["    Tb", "      line"]


# ------------------------------------------------------------------ the handler chain


def test_fingers_crossed_trail_reaches_the_sink_only_on_error(logger):
    got: list[DebugEntry] = []
    sink = DebugSink(got.append, secrets=lambda: [KEY])
    logger.addHandler(FingersCrossedHandler(sink))

    log_event(logger, "llm:request", provider="p", model="m", messages=3)
    log_event(logger, "llm:retry", attempt=1, delay=0.5)
    assert got == []  # normal operation: silent

    log_event(logger, "llm:error", status=401, error=f"bad key {KEY}")
    assert [e.message for e in got] == ["llm:request", "llm:retry", "llm:error"]
    assert got[-1].fields == {"status": 401, "error": f"bad key {REDACTED}"}

    log_event(logger, "llm:request", provider="p")
    assert len(got) == 3  # buffered again until the next error


def test_drain_hands_over_the_trail_without_an_error(logger):
    got: list[DebugEntry] = []
    handler = FingersCrossedHandler(DebugSink(got.append), capacity=3)
    logger.addHandler(handler)
    for i in range(5):
        log_event(logger, "llm:request", attempt=i)
    assert handler.drain() == 3  # the ring kept the newest three
    assert [e.fields["attempt"] for e in got] == [2, 3, 4]
    assert handler.drain() == 0 and len(got) == 3


def test_sink_asks_for_secrets_at_every_record(logger):
    keys: list[str] = []
    got: list[DebugEntry] = []
    logger.addHandler(DebugSink(got.append, secrets=lambda: keys))
    logger.error("key %s", "sk-late-but-known")
    keys.append("late-but-known")
    logger.error("key %s", "late-but-known")
    assert got[1].message == f"key {REDACTED}"


def test_sink_failure_does_not_raise_into_the_caller(logger, monkeypatch):
    def boom(entry):
        raise RuntimeError("display gone")

    handled: list[logging.LogRecord] = []
    sink = DebugSink(boom)
    monkeypatch.setattr(sink, "handleError", handled.append)
    logger.addHandler(sink)
    logger.error("still fine")
    assert len(handled) == 1


# ------------------------------------------------------------------ storage


def _entry(i: int) -> DebugEntry:
    return DebugEntry(time=float(i), level="INFO", logger="wiggum", message=f"e{i}")


async def test_project_log_round_trips_and_survives_a_new_instance():
    storage = MemoryAppStorage()
    log = ProjectLog(storage, "p1")
    assert await log.load() == []
    for i in range(3):
        await log.append(_entry(i))
    again = ProjectLog(storage, "p1")
    assert [e.message for e in await again.load()] == ["e0", "e1", "e2"]
    await again.append(_entry(3))
    assert [e.message for e in await ProjectLog(storage, "p1").load()][-1] == "e3"
    assert await ProjectLog(storage, "p2").load() == []


async def test_project_log_is_a_ring_of_capacity_entries():
    storage = MemoryAppStorage()
    log = ProjectLog(storage, "p", capacity=4)
    await log.load()
    for i in range(10):
        await log.append(_entry(i))
    assert len(await storage.load_messages("p", LOG_AGENT)) == 4
    assert [e.message for e in await ProjectLog(storage, "p", capacity=4).load()] == [
        "e6",
        "e7",
        "e8",
        "e9",
    ]


async def test_project_log_clear_and_skip_damaged_records():
    storage = MemoryAppStorage()
    log = ProjectLog(storage, "p")
    await log.load()
    await log.append(_entry(0))
    await storage.put_message("p", LOG_AGENT, 7, {"n": "x", "entry": None})
    assert [e.message for e in await log.load()] == ["e0"]
    await log.clear()
    assert await log.load() == []
    await log.append(_entry(1))
    assert [e.message for e in await log.load()] == ["e1"]


async def test_deleting_the_project_deletes_its_log():
    storage = MemoryAppStorage()
    project = await storage.create_project("A")
    log = ProjectLog(storage, project["id"])
    await log.append(_entry(0))
    await storage.delete_project(project["id"])
    assert await ProjectLog(storage, project["id"]).load() == []


def test_the_panels_words():
    from wiggum.ui.debuglog import badge_text, button_label, copied_text, drained_text

    assert [badge_text(n) for n in (1, 99, 100, 250)] == ["1", "99", "99+", "99+"]
    assert button_label(0) == "Debug log"
    assert button_label(1) == "Debug log (1 new problem)"
    assert button_label(3) == "Debug log (3 new problems)"
    assert drained_text(0) == "Nothing new since the last entry"
    assert drained_text(1) == "1 recent entry added"
    assert drained_text(4) == "4 recent entries added"
    assert copied_text(True, 12) == "Copied 12 entries"
    assert copied_text(False, 12).startswith("Copy failed")


def test_the_panel_keeps_the_newest_entries_and_counts_problems_while_closed():
    from wiggum.ui.debuglog import MAX_SHOWN, DebugEntry, LogShown

    def entry(i: int, level: str = "INFO") -> DebugEntry:
        return DebugEntry(time=float(i), level=level, logger="wiggum", message=str(i))

    shown = LogShown()
    shown.replace([entry(i) for i in range(MAX_SHOWN + 5)])
    assert [e.message for e in shown.entries[:1]] == ["5"] and shown.unseen == 0
    assert shown.add(entry(1000, "ERROR"), open_=False)  # the oldest made room
    assert shown.entries[0].message == "6" and len(shown.entries) == MAX_SHOWN
    assert shown.unseen == 1
    shown.add(entry(1001, "WARNING"), open_=False)
    shown.add(entry(1002, "ERROR"), open_=True)  # seen as it came
    shown.add(entry(1003), open_=False)  # not a problem
    assert shown.unseen == 2
    small = LogShown()
    assert not small.add(entry(1), open_=False)
