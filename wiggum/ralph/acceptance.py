"""The task's acceptance criteria, their probes' results, and when a run may end done.

Chief's hand-off carries the criteria the person agreed to; the loop keeps
them in :data:`ACCEPTANCE` (JSON, beside the task) and lists them in the task
Ralph reads.  After each iteration the preview runs every probe
(``wiggum.ralph.probes``); a run ends done only when every probe passes and
every criterion has one, or Ralph's completion says why one cannot be probed
(``RalphCompletion.unprobed``: a criterion and the reason, shown to the
person).  :func:`unmet` decides that; :func:`probe_feedback` says it to Ralph.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Sequence

from wiggum.fs import FileStore, FileStoreError

from .probes import (
    CHECKS_DIR,
    FORMAT,
    Probe,
    ProbeError,
    ProbePage,
    ProbeResult,
    broken,
    load_probes,
)
from .probes import run_probe as _run_one

__all__ = [
    "ACCEPTANCE",
    "criteria_section",
    "has_probes",
    "probe_feedback",
    "read_criteria",
    "run_probes",
    "unmet",
    "write_criteria",
]

#: The run's acceptance criteria, as Chief handed them over (a JSON list of strings).
ACCEPTANCE = ".ralph/acceptance.json"


def _key(text: str) -> str:
    return " ".join(text.lower().split()).rstrip(".")


async def read_criteria(fs: FileStore) -> list[str]:
    try:
        data = json.loads(await fs.read_text(ACCEPTANCE))
    except (FileStoreError, ValueError):
        return []
    return [str(c) for c in data if str(c).strip()] if isinstance(data, list) else []


async def write_criteria(fs: FileStore, criteria: Sequence[str]) -> None:
    await fs.write_text(ACCEPTANCE, json.dumps([c.strip() for c in criteria if c.strip()]))


async def has_probes(fs: FileStore) -> bool:
    """Whether Ralph wrote any probe."""
    try:
        return any(p.endswith(".json") for p in await fs.list(CHECKS_DIR, recursive=True))
    except FileStoreError:
        return False


def criteria_section(criteria: Sequence[str]) -> str:
    """The criteria as the task lists them, with what Ralph does with them."""
    if not criteria:
        return ""
    lines = "\n".join(f"- {c}" for c in criteria)
    return (
        f"\n\n## Acceptance criteria\n{lines}\n\nWrite each criterion as a probe "
        f"(the format is in your instructions) under .ralph/checks/.\n"
    )


async def run_probes(
    fs: FileStore, page: Callable[[], ProbePage], first: Iterable[str] = ()
) -> list[ProbeResult]:
    """Run every probe on a fresh ``page()`` each (storage starts empty); those
    whose page is in ``first`` run first."""
    found = await load_probes(fs)
    front = set(first)
    found.sort(key=lambda p: 0 if isinstance(p, Probe) and p.page in front else 1)
    results = []
    for probe in found:
        if isinstance(probe, ProbeError):
            results.append(broken(probe))
        else:
            driven = page()
            try:
                results.append(await _run_one(probe, driven))
            except Exception as exc:  # one probe's failure to run must not hide the others
                results.append(
                    ProbeResult(
                        file=probe.file,
                        criterion=probe.criterion,
                        passed=False,
                        step_text="run the probe",
                        seen=f"the preview could not run it: {type(exc).__name__}: {exc}",
                    )
                )
            finally:
                driven.close()
    return results


def unmet(
    results: Sequence[ProbeResult], criteria: Sequence[str], waived: Iterable[str] = ()
) -> list[str]:
    """What keeps the run from ending done: each failing probe and each criterion
    without a probe, unless Ralph waived its criterion (said why it cannot be probed)."""
    excused = {_key(w) for w in waived}
    probed = {_key(r.criterion) for r in results if r.criterion}
    out = [
        f"{r.file}: {r.criterion or '(unreadable)'} — step {r.step} ({r.step_text}): {r.seen}"
        for r in results
        if not r.passed and _key(r.criterion) not in excused
    ]
    out += [
        f"no probe for: {c}" for c in criteria if _key(c) not in probed and _key(c) not in excused
    ]
    return out


def probe_feedback(
    results: Sequence[ProbeResult], criteria: Sequence[str], *, claimed: bool = False
) -> str:
    """The probes' failures for Ralph's next context ("" when all pass)."""
    lines = unmet(results, criteria)
    if not lines:
        return ""
    head = (
        "# Acceptance probes failed: the run is not done"
        if claimed
        else "# Acceptance probes after your last iteration"
    )
    how = (
        "The preview ran your probes in .ralph/checks/. Fix the site (or a probe that is "
        "wrong) until each passes. If a criterion truly cannot be probed, say so in your "
        'completion JSON: "unprobed": [{"criterion": "...", "reason": "..."}].'
    )
    body = "\n".join(f"- {line}" for line in lines)
    return f"{head}\n{how}\n{body}\n\n{FORMAT}"
