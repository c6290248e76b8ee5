"""Acceptance probes: each acceptance criterion of a task, written by Ralph as
steps the preview can run, and what the preview saw when it ran them.

A probe is one JSON file under ``.ralph/checks/`` (one criterion each)::

    {"criterion": "An added to-do shows in the list and stays after a reload",
     "page": "index.html",
     "steps": [
       {"type": "Milk", "into": {"role": "textbox", "name": "New to-do"}},
       {"click": {"role": "button", "name": "Add"}},
       {"expect": {"selector": "#list li"}, "count": 1},
       {"expect_stored": "todos", "contains": "Milk"},
       {"open": "index.html"},
       {"expect_text": "Milk"},
       {"no_errors": true}]}

Why JSON, one file per criterion: the model writes JSON reliably, the stdlib
reads it in Pyodide with nothing to vendor (a YAML subset would be a parser of
our own, with its own surprises), and pydantic's errors name the field
(``steps[2].count``); one file per criterion means a malformed one fails alone
and its name says which criterion it is.

Each step names what it does by its one action key; an element is found by
``role`` (with its accessible ``name``), by visible ``text``, or by CSS
``selector``.  The browser only finds and acts (``injected/probe.js``); what a
step's observation (:class:`Seen`) means, pass or fail, is decided here
(:func:`judge`), so the rules are tested under CPython against a fake page.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from typing import Any, Literal, Protocol

from pydantic import BaseModel, ConfigDict, Field, ValidationError, model_validator

from wiggum.fs import FileStore, FileStoreError

__all__ = [
    "CHECKS_DIR",
    "FORMAT",
    "MAX_STEPS",
    "Probe",
    "ProbeError",
    "ProbePage",
    "ProbeResult",
    "Seen",
    "Target",
    "describe_step",
    "judge",
    "load_probes",
    "parse_probe",
    "run_probe",
]

#: Where Ralph writes his probes, one JSON file per acceptance criterion.
CHECKS_DIR = ".ralph/checks"
#: Steps one probe may have (a probe checks one criterion, not the whole site).
MAX_STEPS = 40

_STRICT = ConfigDict(extra="forbid")


class Target(BaseModel):
    """An element: by ``role`` (and accessible ``name``), visible ``text``, or ``selector``."""

    model_config = _STRICT
    role: str | None = None
    name: str | None = None
    text: str | None = None
    selector: str | None = None

    @model_validator(mode="after")
    def _one_way(self) -> Target:
        if sum(bool(way) for way in (self.role, self.text, self.selector)) != 1:
            raise ValueError("give exactly one of role, text or selector")
        if self.name is not None and not self.role:
            raise ValueError("name goes with role")
        return self

    def __str__(self) -> str:
        if self.role:
            return f'the {self.role} "{self.name}"' if self.name else f"a {self.role}"
        if self.text:
            return f'the element with text "{self.text}"'
        return f"`{self.selector}`"


class OpenStep(BaseModel):
    model_config = _STRICT
    open: str = Field(min_length=1)


class ClickStep(BaseModel):
    model_config = _STRICT
    click: Target


class TypeStep(BaseModel):
    model_config = _STRICT
    type: str
    into: Target


class ExpectStep(BaseModel):
    """Elements matching ``expect``: at least one, or exactly ``count``; the first's
    text containing ``text`` when given."""

    model_config = _STRICT
    expect: Target
    count: int | None = Field(default=None, ge=0)
    text: str | None = None


class ExpectTextStep(BaseModel):
    model_config = _STRICT
    expect_text: str = Field(min_length=1)


class StoredStep(BaseModel):
    """The value the page stored under ``expect_stored`` (localStorage, or sessionStorage)."""

    model_config = _STRICT
    expect_stored: str = Field(min_length=1)
    equals: str | None = None
    contains: str | None = None
    area: Literal["local", "session"] = "local"


class NoErrorsStep(BaseModel):
    model_config = _STRICT
    no_errors: Literal[True]


Step = OpenStep | ClickStep | TypeStep | ExpectStep | ExpectTextStep | StoredStep | NoErrorsStep
#: Each step's action key, and its model.
_STEPS: dict[str, type[BaseModel]] = {
    "open": OpenStep,
    "click": ClickStep,
    "type": TypeStep,
    "expect": ExpectStep,
    "expect_text": ExpectTextStep,
    "expect_stored": StoredStep,
    "no_errors": NoErrorsStep,
}


class Probe(BaseModel):
    """One acceptance criterion and the steps that show it holds."""

    criterion: str = Field(min_length=1)
    #: The page the probe opens first.
    page: str = "index.html"
    steps: list[Step] = Field(min_length=1, max_length=MAX_STEPS)
    #: The file it was read from.
    file: str = ""


class ProbeError(ValueError):
    """A probe file that cannot be run: which file, which field, what to write."""


FORMAT = """\
A probe is one JSON file per acceptance criterion under .ralph/checks/ (e.g.
.ralph/checks/add-todo.json): {"criterion": "<the criterion, word for word>",
"page": "index.html", "steps": [...]}. Each step is one object with one action:
  {"open": "about.html"}                       load a page (storage is kept)
  {"click": TARGET}                            click an element
  {"type": "Milk", "into": TARGET}             type into a field
  {"expect": TARGET}                           at least one such element
  {"expect": TARGET, "count": 3}               exactly 3 of them
  {"expect": TARGET, "text": "Milk"}           the first one's text contains Milk
  {"expect_text": "Milk"}                      the page's text contains Milk
  {"expect_stored": "todos", "contains": "Milk"}   localStorage["todos"] contains
       Milk ("equals" for the whole value; "area": "session" for sessionStorage)
  {"no_errors": true}                          the page threw no error so far
TARGET is {"role": "button", "name": "Add"} (role and accessible name), or
{"text": "Add"} (visible text), or {"selector": "#list li"} (CSS).
"""


def _field(loc: Sequence[Any]) -> str:
    out = ""
    for part in loc:
        out += f"[{part}]" if isinstance(part, int) else (f".{part}" if out else str(part))
    return out or "(the file)"


def _step(raw: Any, index: int, file: str) -> Step:
    where = f"steps[{index}]"
    if not isinstance(raw, dict):
        raise ProbeError(f'{file}: {where}: a step is an object like {{"click": ...}}')
    actions = [key for key in raw if key in _STEPS]
    if len(actions) != 1:
        known = ", ".join(_STEPS)
        found = ", ".join(map(str, raw)) or "nothing"
        raise ProbeError(
            f"{file}: {where}: a step has exactly one action of {known} (found: {found})"
        )
    try:
        return _STEPS[actions[0]].model_validate(raw)  # type: ignore[return-value]
    except ValidationError as err:
        first = err.errors()[0]
        raise ProbeError(f"{file}: {where}.{_field(first['loc'])}: {first['msg']}") from None


def parse_probe(text: str, file: str) -> Probe:
    """The probe in ``text`` (the file ``file``); :class:`ProbeError` names the file and field."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as err:
        raise ProbeError(
            f"{file}: not JSON (line {err.lineno}, column {err.colno}: {err.msg})"
        ) from None
    if not isinstance(data, dict):
        raise ProbeError(f"{file}: a probe is an object with criterion, page and steps")
    raw_steps = data.get("steps")
    if isinstance(raw_steps, list):
        data = {**data, "steps": [_step(s, n, file) for n, s in enumerate(raw_steps)]}
    try:
        probe = Probe.model_validate({**data, "file": file})
    except ValidationError as err:
        first = err.errors()[0]
        raise ProbeError(f"{file}: {_field(first['loc'])}: {first['msg']}") from None
    return probe


async def load_probes(fs: FileStore) -> list[Probe | ProbeError]:
    """Every probe under :data:`CHECKS_DIR`, by file name; a malformed one as its error."""
    try:
        paths = await fs.list(CHECKS_DIR, recursive=True)
    except FileStoreError:
        return []
    found: list[Probe | ProbeError] = []
    for path in sorted(p for p in paths if p.endswith(".json")):
        full = path if path.startswith(CHECKS_DIR) else f"{CHECKS_DIR}/{path}"
        try:
            found.append(parse_probe(await fs.read_text(full), full))
        except ProbeError as err:
            found.append(err)
        except FileStoreError as err:
            found.append(ProbeError(f"{full}: could not be read ({err})"))
    return found


class Seen(BaseModel):
    """What the page saw doing one step (``injected/probe.js`` posts it)."""

    #: Elements the step's target matched.
    found: int = 0
    #: The text of the first few of them.
    texts: list[str] = Field(default_factory=list)
    #: The stored value (``None``: no such key).
    value: str | None = None
    #: The page's visible text (the start of it).
    page_text: str = ""
    #: The errors the page threw since it was opened.
    errors: list[str] = Field(default_factory=list)
    #: The step could not be done at all (the page did not answer, a bad selector).
    problem: str = ""


class ProbePage(Protocol):
    """A page the probe drives: the preview's sandboxed frame, or a fake in tests."""

    async def open(self, page: str) -> str | None:
        """Load ``page`` (storage kept from before); why it could not, or ``None``."""
        ...

    async def do(self, step: dict[str, Any]) -> Seen:
        """Do ``step`` (a step as JSON) and say what was seen."""
        ...

    def close(self) -> None:
        """The probe is over: let the page go."""
        ...


class ProbeResult(BaseModel):
    """A probe run: passed, or the step that failed (1-based) and what was seen."""

    file: str
    criterion: str = ""
    passed: bool
    step: int = 0
    step_text: str = ""
    seen: str = ""


def describe_step(step: Step) -> str:
    """A step in words, as the person and Ralph read it."""
    if isinstance(step, OpenStep):
        return f"open {step.open}"
    if isinstance(step, ClickStep):
        return f"click {step.click}"
    if isinstance(step, TypeStep):
        return f'type "{step.type}" into {step.into}'
    if isinstance(step, ExpectStep):
        many = "at least one" if step.count is None else f"exactly {step.count}"
        text = f' with text "{step.text}"' if step.text is not None else ""
        return f"expect {many} of {step.expect}{text}"
    if isinstance(step, ExpectTextStep):
        return f'expect the page to say "{step.expect_text}"'
    if isinstance(step, StoredStep):
        store = "localStorage" if step.area == "local" else "sessionStorage"
        want = (
            f'= "{step.equals}"'
            if step.equals is not None
            else (f'containing "{step.contains}"' if step.contains is not None else "set")
        )
        return f'expect {store}["{step.expect_stored}"] {want}'
    return "expect no errors"


def _short(text: str, most: int = 120) -> str:
    text = " ".join(text.split())
    return text if len(text) <= most else text[: most - 1] + "…"


def judge(step: Step, seen: Seen) -> str | None:
    """Why ``step`` failed, given what the page saw (``None``: it passed)."""
    if seen.problem:
        return seen.problem
    if isinstance(step, ClickStep | TypeStep):
        target = step.click if isinstance(step, ClickStep) else step.into
        return None if seen.found else f"no element is {target}"
    if isinstance(step, ExpectStep):
        if step.count is not None and seen.found != step.count:
            return f"found {seen.found}, not {step.count}"
        if step.count is None and not seen.found:
            return "found none"
        if step.text is not None and seen.found:
            first = seen.texts[0] if seen.texts else ""
            if step.text not in first:
                return f'its text is "{_short(first)}"'
        return None
    if isinstance(step, ExpectTextStep):
        if step.expect_text in seen.page_text:
            return None
        return f'the page says "{_short(seen.page_text)}"'
    if isinstance(step, StoredStep):
        if seen.value is None:
            return "nothing is stored under that key"
        if step.equals is not None and seen.value != step.equals:
            return f'it holds "{_short(seen.value)}"'
        if step.contains is not None and step.contains not in seen.value:
            return f'it holds "{_short(seen.value)}"'
        return None
    if isinstance(step, NoErrorsStep):
        return f"the page threw: {_short(seen.errors[0], 200)}" if seen.errors else None
    return None


async def run_probe(probe: Probe, page: ProbePage) -> ProbeResult:
    """Open the probe's page, then each step in order until one fails."""
    result = ProbeResult(file=probe.file, criterion=probe.criterion, passed=False)
    why = await page.open(probe.page)
    if why is not None:
        return result.model_copy(update={"step": 0, "step_text": f"open {probe.page}", "seen": why})
    for n, step in enumerate(probe.steps, 1):
        if isinstance(step, OpenStep):
            why = await page.open(step.open)
        else:
            why = judge(step, await page.do(step.model_dump(exclude_none=True)))
        if why is not None:
            return result.model_copy(
                update={"step": n, "step_text": describe_step(step), "seen": why}
            )
    return result.model_copy(update={"passed": True})


def broken(error: ProbeError) -> ProbeResult:
    """A malformed probe as a failed result (its message names the file and field)."""
    file = str(error).split(":", 1)[0]
    return ProbeResult(file=file, passed=False, step_text="read the probe", seen=str(error))
