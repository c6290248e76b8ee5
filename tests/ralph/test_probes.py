"""Acceptance probes: the format (good and each malformed case, named by file and
field), and what each step means, run against a fake page."""

from __future__ import annotations

import json
from typing import Any

import pytest

from wiggum.fs import MemoryFileStore
from wiggum.ralph.acceptance import run_probes, unmet
from wiggum.ralph.probes import (
    ExpectStep,
    Probe,
    ProbeError,
    Seen,
    StoredStep,
    judge,
    load_probes,
    parse_probe,
    run_probe,
)

GOOD = {
    "page": "index.html",
    "criterion": "A to-do typed and added is listed, and kept after a reload",
    "steps": [
        {"into": {"role": "textbox", "name": "New to-do"}, "type": "Milk"},
        {"click": {"role": "button", "name": "Add"}},
        {"count": 1, "expect": {"selector": "#list li"}},
        {"expect_stored": "todos", "contains": "Milk"},
        {"open": "index.html"},
        {"expect": {"text": "Milk"}},
        {"expect_text": "Milk"},
        {"no_errors": True},
    ],
}
FILE = ".ralph/checks/add.json"


def test_a_good_probe_parses_into_its_steps():
    probe = parse_probe(json.dumps(GOOD), FILE)
    assert probe.file == FILE and probe.page == "index.html"
    assert [type(s).__name__ for s in probe.steps] == [
        "TypeStep",
        "ClickStep",
        "ExpectStep",
        "StoredStep",
        "OpenStep",
        "ExpectStep",
        "ExpectTextStep",
        "NoErrorsStep",
    ]
    assert probe.steps[1].click.name == "Add"


def _with_step(n: int, step: Any) -> str:
    steps = list(GOOD["steps"])
    steps[n] = step
    return json.dumps({**GOOD, "steps": steps})


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("{not json", "add.json: not JSON (line 1, column 2"),
        ("[1, 2]", "add.json: a probe is an object"),
        (json.dumps({**GOOD, "criterion": ""}), "add.json: criterion: String should have"),
        (json.dumps({"page": "index.html", "steps": []}), "add.json: criterion: Field required"),
        (json.dumps({**GOOD, "steps": []}), "add.json: steps: List should have at least 1"),
        (json.dumps({**GOOD, "steps": "click"}), "add.json: steps: Input should be a valid list"),
        (_with_step(0, "click Add"), "add.json: steps[0]: a step is an object"),
        (_with_step(1, {"press": "Add"}), "steps[1]: a step has exactly one action of open"),
        (
            _with_step(1, {"click": {"text": "A"}, "open": "x.html"}),
            "steps[1]: a step has exactly one action",
        ),
        (_with_step(2, {"expect": {"selector": "li"}, "count": "one"}), "steps[2].count: Input"),
        (_with_step(2, {"expect": {"selector": "li"}, "count": -1}), "steps[2].count: Input"),
        (_with_step(2, {"expect": {"selector": "li"}, "many": 2}), "steps[2].many: Extra inputs"),
        (_with_step(1, {"click": {}}), "steps[1].click: Value error, give exactly one of role"),
        (
            _with_step(1, {"click": {"text": "Add", "selector": "#add"}}),
            "steps[1].click: Value error, give exactly one",
        ),
        (_with_step(1, {"click": {"name": "Add"}}), "steps[1].click: Value error"),
        (_with_step(1, {"click": {"text": "Add", "name": "Add"}}), "name goes with role"),
        (_with_step(0, {"type": "Milk"}), "steps[0].into: Field required"),
        (_with_step(3, {"expect_stored": "t", "area": "disk"}), "steps[3].area: Input should be"),
        (_with_step(7, {"no_errors": False}), "steps[7].no_errors: Input should be True"),
    ],
)
def test_a_malformed_probe_names_its_file_and_field(text, says):
    with pytest.raises(ProbeError) as err:
        parse_probe(text, FILE)
    assert str(err.value).startswith(FILE)
    assert says in str(err.value)


async def test_load_reads_each_file_under_checks_a_broken_one_as_its_error():
    fs = MemoryFileStore()
    await fs.write_text(FILE, json.dumps(GOOD))
    await fs.write_text(".ralph/checks/bad.json", "{")
    await fs.write_text(".ralph/checks/notes.txt", "not a probe")
    found = await load_probes(fs)
    assert isinstance(found[0], Probe) and found[0].file == FILE
    assert isinstance(found[1], ProbeError) and str(found[1]).startswith(".ralph/checks/bad.json")
    assert len(found) == 2
    assert await load_probes(MemoryFileStore()) == []


# -- the steps' meaning


def test_judge_says_what_was_seen_when_a_step_fails():
    many = ExpectStep.model_validate({"expect": {"selector": "li"}, "count": 2})
    assert judge(many, Seen(found=2)) is None
    assert judge(many, Seen(found=1)) == "found 1, not 2"
    some = ExpectStep.model_validate({"expect": {"text": "Milk"}})
    assert judge(some, Seen(found=0)) == "found none"
    texted = ExpectStep.model_validate({"expect": {"selector": "h1"}, "text": "Todo"})
    assert judge(texted, Seen(found=1, texts=["My Todos"])) is None
    assert judge(texted, Seen(found=1, texts=["Shopping"])) == 'its text is "Shopping"'
    stored = StoredStep.model_validate({"expect_stored": "todos", "equals": "[]"})
    assert judge(stored, Seen(value=None)) == "nothing is stored under that key"
    assert judge(stored, Seen(value='["x"]')) == 'it holds "["x"]"'
    assert judge(stored, Seen(value="[]")) is None
    assert judge(many, Seen(found=2, problem="bad selector")) == "bad selector"


class TodoPage:
    """A fake page: a to-do app whose Add button works (or throws, or stores
    nothing), its storage kept across opens as the preview keeps it."""

    def __init__(self, storage: dict[str, str], *, broken: bool = False, keep: bool = True):
        self.storage, self.broken, self.keep = storage, broken, keep
        self.items: list[str] = []
        self.typed = ""
        self.errors: list[str] = []
        self.opened: list[str] = []

    async def open(self, page: str) -> str | None:
        if page != "index.html":
            return f"{page} is not in the project"
        self.opened.append(page)
        self.items = json.loads(self.storage.get("todos", "[]"))
        self.errors = []
        return None

    def _match(self, target: dict[str, Any]) -> list[str]:
        if target.get("role") == "textbox":
            return ["input"]
        if target.get("role") == "button" and "add" in target.get("name", "add").lower():
            return ["Add"]
        if target.get("selector") == "#list li":
            return list(self.items)
        if "text" in target:
            return [i for i in self.items if target["text"] in i]
        return []

    async def do(self, step: dict[str, Any]) -> Seen:
        if "into" in step:
            found = self._match(step["into"])
            if found:
                self.typed = step["type"]
            return Seen(found=len(found), errors=self.errors)
        if "click" in step:
            found = self._match(step["click"])
            if found and self.broken:
                self.errors.append("TypeError: list is null (app.js:3)")
            elif found:
                self.items.append(self.typed)
                if self.keep:
                    self.storage["todos"] = json.dumps(self.items)
            return Seen(found=len(found), errors=self.errors)
        if "expect" in step:
            found = self._match(step["expect"])
            return Seen(found=len(found), texts=found[:5], errors=self.errors)
        if "expect_stored" in step:
            return Seen(value=self.storage.get(step["expect_stored"]), errors=self.errors)
        return Seen(page_text="Todos " + " ".join(self.items), errors=self.errors)

    def close(self) -> None:
        pass


async def test_a_probe_passes_on_a_page_that_does_what_the_criterion_says():
    result = await run_probe(parse_probe(json.dumps(GOOD), FILE), TodoPage({}))
    assert result.passed and result.step == 0 and result.criterion == GOOD["criterion"]


@pytest.mark.parametrize(
    ("page", "step", "step_text", "seen"),
    [
        (
            {"broken": True},
            3,
            "expect exactly 1 of `#list li`",
            "found 0, not 1",
        ),
        (
            {"keep": False},
            4,
            'expect localStorage["todos"] containing "Milk"',
            "nothing is stored under that key",
        ),
    ],
)
async def test_a_probe_fails_at_its_first_failing_step_with_what_was_seen(
    page, step, step_text, seen
):
    result = await run_probe(parse_probe(json.dumps(GOOD), FILE), TodoPage({}, **page))
    assert not result.passed
    assert (result.step, result.step_text, result.seen) == (step, step_text, seen)


async def test_an_error_the_page_threw_fails_no_errors():
    probe = {
        "criterion": "Adding does not break the page",
        "steps": [{"click": {"role": "button", "name": "Add"}}, {"no_errors": True}],
    }
    result = await run_probe(parse_probe(json.dumps(probe), FILE), TodoPage({}, broken=True))
    assert (result.step, result.step_text) == (2, "expect no errors")
    assert result.seen == "the page threw: TypeError: list is null (app.js:3)"


async def test_a_missing_page_fails_at_opening_it():
    probe = {**GOOD, "page": "todo.html"}
    result = await run_probe(parse_probe(json.dumps(probe), FILE), TodoPage({}))
    assert (result.step, result.step_text) == (0, "open todo.html")
    assert result.seen == "todo.html is not in the project"


async def test_each_probe_runs_on_a_fresh_page_and_a_broken_one_is_reported_not_run():
    fs = MemoryFileStore()
    await fs.write_text(FILE, json.dumps(GOOD))
    await fs.write_text(".ralph/checks/b.json", json.dumps({**GOOD, "criterion": "Again"}))
    await fs.write_text(".ralph/checks/c.json", '{"criterion": "x", "steps": [{"press": 1}]}')
    pages: list[TodoPage] = []

    def page() -> TodoPage:
        pages.append(TodoPage({}))
        return pages[-1]

    results = await run_probes(fs, page)
    assert [r.passed for r in results] == [True, True, False]
    assert len(pages) == 2  # each probe starts with empty storage
    assert results[2].file == ".ralph/checks/c.json"
    assert "steps[0]: a step has exactly one action" in results[2].seen
    # What keeps a run from being done: the broken probe, and a criterion with none.
    lines = unmet(results, [GOOD["criterion"], "The page has a footer"])
    assert len(lines) == 2 and lines[1] == "no probe for: The page has a footer"
    assert unmet(results, ["The page has a footer."], waived=["the page has a footer"]) == [
        lines[0]
    ]
