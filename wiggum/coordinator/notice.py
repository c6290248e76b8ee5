"""Post-build awareness: what Chief is told when Ralph stops, without being asked.

The Coordinator records a :class:`BuildReport` (plain data, kept in
``.chief/notice.json`` until Chief has seen it) and turns it into text with
:func:`post_build_notice_text`.  The text is addressed to Chief, not to the
person: it says what happened and what to do with it, so the next reply can
open with the news instead of waiting for "how did it go?".

It sits with the Coordinator, which records and consumes the notice, below
Chief, who reads it; it imports only the run contract.
"""

from __future__ import annotations

from pydantic import BaseModel, Field

from .contract import GateResult, RalphReflection, RalphResult, RalphStatus

__all__ = [
    "FEEDBACK_LIMIT",
    "BuildReport",
    "notice_banner",
    "post_build_notice_text",
    "reflection_summary",
]

#: Characters of ``.ralph/feedback.md`` quoted in the notice; the rest stays one
#: ``read_file`` away, so a long gate log cannot crowd Chief's context.
FEEDBACK_LIMIT = 3000

_OUTCOME = {
    RalphStatus.COMPLETE: "Ralph finished the build",
    RalphStatus.BLOCKED: "Ralph stopped because he needs something from the person",
    RalphStatus.MAX_ITERATIONS: "Ralph ran out of iterations before finishing",
    RalphStatus.STALLED: "Ralph got stuck repeating the same step, so the run was stopped",
    RalphStatus.ERROR: "Ralph's run failed with an error",
    RalphStatus.CANCELLED: "Ralph's run was stopped before it finished",
    RalphStatus.BUDGET_SPENT: "Ralph stopped at the run's spending cap",
}

_BANNER = {
    RalphStatus.COMPLETE: "Ralph finished building ✓ — ask me about the results",
    RalphStatus.BLOCKED: "Ralph needs your input — ask me what he's stuck on",
    RalphStatus.MAX_ITERATIONS: "Ralph ran out of iterations — ask me what's left",
    RalphStatus.STALLED: "Ralph got stuck — ask me what happened",
    RalphStatus.ERROR: "Ralph's build failed — ask me what went wrong",
    RalphStatus.CANCELLED: "Ralph's build was stopped",
    RalphStatus.BUDGET_SPENT: "Ralph reached the spending cap — ask me what's left",
}


class BuildReport(BaseModel):
    """How one run ended, as far as Chief needs to know."""

    run_id: str = ""
    status: RalphStatus
    iterations: int = 0
    max_iterations: int = 0
    summary: str = ""
    files_created: list[str] = Field(default_factory=list)
    files_modified: list[str] = Field(default_factory=list)
    gate_failures: list[GateResult] = Field(default_factory=list)
    gates_run: int = 0
    #: The text of ``.ralph/feedback.md`` when the run ended (may be empty).
    feedback: str = ""
    error: str | None = None
    cost: float | None = None
    finished_at: float = 0.0
    #: His look back at the run (``.ralph/reflections.md``).
    reflection: RalphReflection | None = None
    unknown_commands: list[str] = Field(default_factory=list)

    @classmethod
    def from_result(
        cls,
        result: RalphResult,
        *,
        run_id: str,
        max_iterations: int,
        feedback: str,
        finished_at: float,
    ) -> BuildReport:
        completion = result.completion
        summary = result.summary or (completion.summary if completion else "")
        return cls(
            run_id=run_id,
            status=result.status,
            iterations=result.iterations,
            max_iterations=max_iterations,
            summary=summary.strip(),
            files_created=list(completion.files_created) if completion else [],
            files_modified=list(completion.files_modified) if completion else [],
            gate_failures=[g for g in result.gate_results if not g.passed],
            gates_run=len(result.gate_results),
            feedback=feedback.strip(),
            error=result.error,
            cost=result.usage.cost if result.usage else None,
            finished_at=finished_at,
            reflection=result.reflection,
            unknown_commands=list(result.unknown_commands),
        )


def _iterations(report: BuildReport) -> str:
    if not report.iterations:
        return ""
    of = f" of {report.max_iterations}" if report.max_iterations else ""
    noun = "iteration" if report.iterations == 1 and not of else "iterations"
    return f" after {report.iterations}{of} {noun}"


def _files(label: str, paths: list[str]) -> str:
    shown = ", ".join(paths[:12])
    more = f" and {len(paths) - 12} more" if len(paths) > 12 else ""
    return f"{label}: {shown}{more}"


def post_build_notice_text(report: BuildReport) -> str:
    """The one-shot message that tells Chief how Ralph's run ended."""
    lines = [
        "[Build update — the person has not been told yet]",
        f"{_OUTCOME.get(report.status, f'Ralph stopped ({report.status})')}{_iterations(report)}.",
    ]
    if report.summary:
        lines.append(f"Ralph's summary: {report.summary}")
    if report.error and report.status != RalphStatus.COMPLETE:
        lines.append(f"Reason: {report.error}")
    if report.files_created:
        lines.append(_files("Files created", report.files_created))
    if report.files_modified:
        lines.append(_files("Files changed", report.files_modified))
    if report.gate_failures:
        lines.append(f"Quality gates: {len(report.gate_failures)} of {report.gates_run} failed:")
        lines += [f"- {g.gate}: {g.message or 'failed'}" for g in report.gate_failures]
    elif report.gates_run:
        lines.append(f"Quality gates: all {report.gates_run} passed.")
    if report.feedback:
        quoted = report.feedback[:FEEDBACK_LIMIT]
        cut = len(report.feedback) > FEEDBACK_LIMIT
        lines.append("Feedback Ralph left in .ralph/feedback.md:")
        lines.append(
            quoted + ("\n[…cut; read_file .ralph/feedback.md for the rest]" if cut else "")
        )
    reflected = reflection_summary(report.reflection)
    if reflected:
        lines.append("What Ralph learned (.ralph/reflections.md):")
        lines.append(reflected)
    if report.unknown_commands:
        lines.append(
            "Commands he tried that the shell does not have: " + ", ".join(report.unknown_commands)
        )
    if report.status == RalphStatus.COMPLETE and not report.gate_failures:
        ask = "what Ralph built and ask what they would like to change next"
    elif report.status == RalphStatus.BLOCKED:
        ask = "what Ralph needs, and ask them for it"
    else:
        ask = "what happened in plain words, what is left to do, and ask how to proceed"
    lines.append(
        f"Next: in two or three sentences, tell the person {ask}. Ask ONE question. "
        "Read files (.ralph/summary.md, the project) if you need detail. Do not send "
        "anything to Ralph until the person says so."
    )
    return "\n".join(lines)


def reflection_summary(reflection: RalphReflection | None) -> str:
    """A few lines of his reflection, for Chief's notice."""
    if reflection is None:
        return ""
    lines = []
    for label, items in (
        ("worked", reflection.worked),
        ("failed", reflection.failed),
        ("to try next", reflection.try_next),
    ):
        if items:
            lines.append(f"- {label}: " + "; ".join(" ".join(i.split()) for i in items[:3]))
    return "\n".join(lines)


def notice_banner(report: BuildReport) -> str:
    """A short line for the page (e.g. a banner on Chief's tab)."""
    return _BANNER.get(report.status, f"Ralph stopped ({report.status})")
