"""Ralph's transcript: the loop's reports become typed events, stored as the
records people already have, written through a full quota without loss."""

from __future__ import annotations

import copy

from wiggum.fs import StorageFull
from wiggum.llm.types import UsageData
from wiggum.persist import MemoryAppStorage
from wiggum.ralph.transcript import (
    KEEP_OUTPUT,
    Appended,
    IterationEvent,
    PressureEvent,
    RalphTranscript,
    Reloaded,
    ResultEvent,
    ToolEvent,
    WriteRefused,
    parse_event,
)
from wiggum.ralph.types import (
    GateResult,
    RalphCompletion,
    RalphResult,
    RalphStatus,
)
from wiggum.ui.tab_lock import ProjectPaused

PROJECT = "p1"

#: One record of every kind, as the page stored them before events were typed
#: (``RalphView.add`` wrote these dicts to IndexedDB).
OLD_RECORDS = [
    {"kind": "run", "resumed": False, "t": 1764200000.5},
    {"kind": "iteration", "i": 1, "max": 20},
    {"kind": "intent", "i": 1, "text": "Writing the page."},
    {"kind": "reasoning", "i": 1, "text": "The plan asks for one page."},
    {
        "kind": "tool",
        "i": 1,
        "name": "write_file",
        "args": {"path": "index.html", "content": "<h1>Hi</h1>"},
        "output": "Created index.html (1 line)",
        "error": False,
    },
    {
        "kind": "tool",
        "i": 1,
        "name": "shell",
        "args": {"args": "<object>"},
        "output": "x",
        "error": True,
    },
    {
        "kind": "usage",
        "i": 1,
        "call": UsageData(
            prompt_tokens=500, completion_tokens=100, total_tokens=600, cost=0.0001
        ).model_dump(mode="json"),
        "total": UsageData(prompt_tokens=900, completion_tokens=140, total_tokens=1040).model_dump(
            mode="json"
        ),
    },
    {"kind": "stall", "count": 3},
    {"kind": "pressure", "i": 1, "estimated": 120000, "window": 128000, "headroom": 0.0625},
    {
        "kind": "gates",
        "i": 1,
        "results": [
            GateResult(gate="entry_page", passed=True).model_dump(mode="json"),
            GateResult(gate="local_refs", passed=False, message="missing.js").model_dump(
                mode="json"
            ),
        ],
    },
    {
        "kind": "result",
        "status": "complete",
        "error": None,
        "summary": "Built it.",
        "iterations": 2,
        "usage": UsageData(total_tokens=1040, cost=0.0002).model_dump(mode="json"),
        "files": ["index.html", "style.css"],
    },
    {"kind": "run", "resumed": True, "t": 1764200100.0},
    # A run that ended before a result existed: status and error only.
    {"kind": "result", "status": "error", "error": "The provider refused the key."},
]


class Storage(MemoryAppStorage):
    """Memory storage that refuses Ralph's writes on demand and records their order."""

    def __init__(self) -> None:
        super().__init__()
        self.refuse: BaseException | None = None
        self.written: list[int] = []

    async def put_message(self, project_id, agent, seq, record):
        if self.refuse is not None:
            raise self.refuse
        self.written.append(seq)
        await super().put_message(project_id, agent, seq, record)

    async def stored(self) -> list[dict]:
        return await self.load_messages(PROJECT, "ralph")


async def seeded(records: list) -> tuple[Storage, RalphTranscript]:
    storage = Storage()
    for seq, record in enumerate(records):
        await MemoryAppStorage.put_message(storage, PROJECT, "ralph", seq, copy.deepcopy(record))
    transcript = RalphTranscript(storage, PROJECT, clock=lambda: 1234.5)
    await transcript.load()
    return storage, transcript


def heard(transcript: RalphTranscript) -> list:
    changes: list = []
    transcript.subscribe(changes.append)
    return changes


# ---------------------------------------------------------------- the stored form


def test_every_old_record_reads_as_its_event_and_is_stored_back_unchanged():
    for record in OLD_RECORDS:
        event = parse_event(copy.deepcopy(record))
        assert event is not None and event.kind == record["kind"]
        assert event.to_record() == record


def test_records_of_the_first_versions_read_too():
    run = {"kind": "run", "resumed": False}  # before runs had their start
    event = parse_event(run)
    assert event.started is None and event.to_record() == run
    usage = parse_event({"kind": "usage", "i": 2, "call": {"prompt_tokens": 3}, "total": {}})
    assert usage.call.prompt_tokens == 3 and usage.total.cost is None


def test_a_tool_record_without_arguments_or_with_odd_ones_still_reads():
    base = {"kind": "tool", "i": 1, "name": "shell", "output": "", "error": False}
    assert parse_event({**base, "args": None}).args == {}
    assert parse_event({**base, "args": ["ls", "-la"]}).args == {"args": "['ls', '-la']"}
    assert parse_event(base).args == {}


async def test_a_transcript_people_have_loads_whole_and_goes_on_after_it():
    storage, transcript = await seeded(OLD_RECORDS)
    assert [e.to_record() for e in transcript.events] == OLD_RECORDS
    transcript.callbacks().on_intent(3, "Next.")
    await transcript.flush()
    stored = await storage.stored()
    assert stored[:-1] == OLD_RECORDS  # nothing it read was rewritten
    assert stored[-1] == {"kind": "intent", "i": 3, "text": "Next."}


async def test_an_unreadable_record_is_skipped_and_never_overwritten():
    broken = {"kind": "tool", "i": "not a number"}
    storage, transcript = await seeded(
        [OLD_RECORDS[0], broken, {"kind": "mystery"}, OLD_RECORDS[1]]
    )
    assert [e.kind for e in transcript.events] == ["run", "iteration"]
    transcript.run_started(False)
    await transcript.flush()
    assert storage.written == [4]  # after every record read, the broken ones included
    assert (await storage.stored())[1] == broken


# ---------------------------------------------------------------- the loop's reports


class Opaque:
    """Arguments that are not JSON (the loop passes on what the model sent)."""

    def __str__(self) -> str:
        return "<object>"


async def test_the_loops_reports_are_stored_as_the_records_the_page_always_stored():
    storage = Storage()
    starts = iter([1764200000.5, 1764200100.0])
    transcript = RalphTranscript(storage, PROJECT, clock=lambda: next(starts))
    cb = transcript.callbacks()
    call = UsageData(prompt_tokens=500, completion_tokens=100, total_tokens=600, cost=0.0001)
    total = UsageData(prompt_tokens=900, completion_tokens=140, total_tokens=1040)
    transcript.run_started(resumed=False)
    cb.on_iteration_start(1, 20)
    cb.on_intent(1, "Writing the page.")
    cb.on_reasoning(1, "The plan asks for one page.")
    content = {"path": "index.html", "content": "<h1>Hi</h1>"}
    cb.on_tool_call(1, "write_file", content, "Created index.html (1 line)", False)
    cb.on_tool_call(1, "shell", Opaque(), "x", True)
    cb.on_usage(1, call, total)
    total.total_tokens = 9999  # the loop goes on adding to its running total
    cb.on_stall(3, "signature")
    cb.on_context_pressure(120000, 128000, 0.0625)
    gates = [GateResult(gate="entry_page", passed=True)]
    cb.on_gates(1, [*gates, GateResult(gate="local_refs", passed=False, message="missing.js")])
    completion = RalphCompletion(
        status="complete", summary="Built it.", files_created=["style.css", "index.html"]
    )
    usage = UsageData(total_tokens=1040, cost=0.0002)
    result = RalphResult(
        status=RalphStatus.COMPLETE,
        iterations=2,
        summary="Built it.",
        usage=usage,
        completion=completion,
    )
    transcript.run_finished(result, RalphStatus.COMPLETE, None)
    transcript.run_started(resumed=True)
    transcript.run_finished(None, RalphStatus.ERROR, "The provider refused the key.")
    await transcript.flush()
    assert await storage.stored() == OLD_RECORDS
    assert [e.to_record() for e in transcript.events] == OLD_RECORDS


async def test_a_long_tool_output_is_clipped_and_odd_arguments_kept_as_text():
    storage, transcript = await seeded([])
    transcript.callbacks().on_tool_call(1, "shell", {"x": object()}, "y" * (KEEP_OUTPUT + 7), True)
    event = transcript.events[0]
    assert isinstance(event, ToolEvent) and event.is_error
    assert event.output == "y" * KEEP_OUTPUT + "\n… (7 more characters)"
    assert list(event.args) == ["args"]
    assert event.args["args"].startswith("{'x': <object object")
    short = RalphTranscript(storage, PROJECT)
    short.callbacks().on_tool_call(1, "shell", {}, "y" * KEEP_OUTPUT, False)
    assert short.events[0].output == "y" * KEEP_OUTPUT


async def test_context_pressure_is_noted_once_per_iteration():
    _storage, transcript = await seeded([])
    cb = transcript.callbacks()
    cb.on_context_pressure(100, 1000, 0.1)  # before any iteration
    transcript.run_started(False)
    cb.on_iteration_start(1, 20)
    cb.on_context_pressure(900, 1000, 0.123456)
    cb.on_tool_call(1, "read_file", {"path": "a"}, "ok", False)
    cb.on_context_pressure(950, 1000, 0.05)  # the same iteration: not again
    cb.on_iteration_start(2, 20)
    cb.on_context_pressure(960, 1000, 0.04)
    notes = [e for e in transcript.events if isinstance(e, PressureEvent)]
    assert [(n.iteration, n.estimated, n.headroom) for n in notes] == [
        (0, 100, 0.1),
        (1, 900, 0.1235),
        (2, 960, 0.04),
    ]


async def test_a_new_run_has_its_own_pressure_note_before_its_first_iteration():
    _storage, transcript = await seeded([])
    cb = transcript.callbacks()
    cb.on_context_pressure(100, 1000, 0.1)
    transcript.run_started(True)
    cb.on_context_pressure(100, 1000, 0.1)
    assert [e.kind for e in transcript.events] == ["pressure", "run", "pressure"]


async def test_a_runs_end_keeps_its_summary_usage_and_the_files_it_changed():
    storage, transcript = await seeded([])
    result = RalphResult(
        status=RalphStatus.COMPLETE,
        iterations=2,
        summary="Built it.",
        usage=UsageData(total_tokens=40, cost=0.5),
        completion=RalphCompletion(
            status="complete",
            summary="Built it.",
            files_created=["b.html", "a.html"],
            files_modified=["a.html", "c.css"],
        ),
    )
    transcript.run_finished(result, RalphStatus.COMPLETE, None)
    transcript.run_finished(
        RalphResult(status=RalphStatus.STALLED, iterations=1), "stalled", "Stuck."
    )
    transcript.run_finished(None, RalphStatus.ERROR, "The key was refused.")
    await transcript.flush()
    assert await storage.stored() == [
        {
            "kind": "result",
            "status": "complete",
            "error": None,
            "summary": "Built it.",
            "iterations": 2,
            "usage": UsageData(total_tokens=40, cost=0.5).model_dump(mode="json"),
            "files": ["a.html", "b.html", "c.css"],
        },
        {"kind": "result", "status": "stalled", "error": "Stuck.", "summary": "", "iterations": 1},
        {"kind": "result", "status": "error", "error": "The key was refused."},
    ]
    assert isinstance(transcript.events[2], ResultEvent)


# ---------------------------------------------------------------- subscribers


async def test_subscribers_hear_each_event_and_a_reread():
    _storage, transcript = await seeded([])
    changes = heard(transcript)
    transcript.callbacks().on_iteration_start(1, 5)
    assert changes == [Appended(IterationEvent(iteration=1, max_iterations=5))]
    await transcript.load()
    assert changes[-1] == Reloaded()


async def test_a_broken_subscriber_neither_stops_the_others_nor_the_write():
    storage, transcript = await seeded([])

    def broken(_change):
        raise RuntimeError("view failed")

    transcript.subscribe(broken)
    changes = heard(transcript)
    transcript.run_started(False)
    await transcript.flush()
    assert len(changes) == 1 and len(await storage.stored()) == 1


async def test_unsubscribed_hears_nothing_more():
    _storage, transcript = await seeded([])
    changes: list = []
    unsubscribe = transcript.subscribe(changes.append)
    unsubscribe()
    unsubscribe()  # twice is harmless
    transcript.run_started(False)
    assert changes == []


# ---------------------------------------------------------------- a refused write


async def test_a_full_quota_keeps_the_event_says_so_once_and_writes_it_after_the_next_success():
    storage, transcript = await seeded([])
    changes = heard(transcript)
    cb = transcript.callbacks()
    storage.refuse = StorageFull(usage=100, quota=100)
    cb.on_intent(1, "one")
    cb.on_intent(1, "two")
    await transcript.flush()
    assert [e.text for e in transcript.events] == ["one", "two"]  # still shown
    refusals = [c for c in changes if isinstance(c, WriteRefused)]
    assert len(refusals) == 1 and refusals[0].error is storage.refuse
    assert transcript.behind and await storage.stored() == []

    storage.refuse = None
    cb.on_intent(1, "three")
    await transcript.flush()
    assert [r["text"] for r in await storage.stored()] == ["one", "two", "three"]
    assert storage.written == [2, 0, 1]  # the new one, then what was held, oldest first
    assert not transcript.behind

    storage.refuse = StorageFull()
    cb.on_intent(1, "four")
    await transcript.flush()
    assert len([c for c in changes if isinstance(c, WriteRefused)]) == 2  # said again


async def test_a_refusal_for_another_reason_is_held_but_not_said():
    storage, transcript = await seeded([])
    changes = heard(transcript)
    storage.refuse = ProjectPaused("another tab has the project")
    transcript.run_started(False)
    await transcript.flush()
    assert transcript.behind
    assert not [c for c in changes if isinstance(c, WriteRefused)]


async def test_reading_again_drops_what_was_held():
    storage, transcript = await seeded([])
    storage.refuse = StorageFull()
    transcript.run_started(False)
    await transcript.flush()
    storage.refuse = None
    await MemoryAppStorage.put_message(storage, PROJECT, "ralph", 0, OLD_RECORDS[1])
    await transcript.load()  # another tab wrote the transcript: storage wins
    assert [e.to_record() for e in transcript.events] == [OLD_RECORDS[1]]
    assert not transcript.behind
    transcript.callbacks().on_intent(1, "next")
    await transcript.flush()
    assert await storage.stored() == [OLD_RECORDS[1], {"kind": "intent", "i": 1, "text": "next"}]


async def test_after_a_reread_a_full_quota_is_said_again():
    storage, transcript = await seeded([])
    changes = heard(transcript)
    storage.refuse = StorageFull()
    transcript.run_started(False)
    await transcript.flush()
    await transcript.load()
    transcript.run_started(False)
    await transcript.flush()
    assert len([c for c in changes if isinstance(c, WriteRefused)]) == 2


async def test_a_transcript_that_cannot_be_read_starts_empty():
    storage, transcript = await seeded([])

    async def unreadable(_project, _agent):
        raise OSError("no database")

    storage.load_messages = unreadable
    transcript.run_started(False)
    await transcript.load()
    assert list(transcript.events) == []
