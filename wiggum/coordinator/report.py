"""Ralph's run in words: for Chief's ``check_ralph_status`` tool and the page."""

from __future__ import annotations

from wiggum.llm import UsageData

from .contract import RalphStatus
from .notice import BuildReport, notice_banner
from .state import CoordinatorState

__all__ = ["busy_message", "recovery_message", "status_report", "usage_line"]


def recovery_message(s: CoordinatorState, notice: BuildReport | None) -> str:
    """One sentence after a reload: an interrupted run, else the pending notice."""
    if s.interrupted:
        at = f" at iteration {s.iteration}" if s.iteration else ""
        of = f" of {s.max_iterations}" if s.iteration and s.max_iterations else ""
        return (
            f"Ralph was interrupted{at}{of} when the page closed. "
            "His work so far is saved; you can resume the run."
        )
    if notice is not None:
        return notice_banner(notice)
    return ""


def busy_message(s: CoordinatorState) -> str:
    where = f" (iteration {s.iteration} of {s.max_iterations})" if s.max_iterations else ""
    return (
        f"Ralph is already working on run {s.run_id}{where}. "
        "Wait for him to finish, or stop him first."
    )


def status_report(
    s: CoordinatorState, *, notice: BuildReport | None, feedback: str, now: float
) -> str:
    """Ralph's status as a few lines a person (or Chief) can read."""
    if s.interrupted:
        return recovery_message(s, notice)
    if s.status == RalphStatus.IDLE:
        return "Ralph is idle: nothing has been sent to him yet."
    if s.running:
        of = f" of {s.max_iterations}" if s.max_iterations else ""
        lines = [
            f"Ralph is running (run {s.run_id}): iteration {s.iteration}{of}"
            f"{_ago(s.started_at, ', started ', now)}."
        ]
        if s.last_error:
            lines.append(f"Last problem reported: {s.last_error}")
    else:
        result = s.last_result
        lines = [
            f"Ralph's last run ({s.run_id}) ended: {s.status.value}"
            f" after {s.iteration} iteration{'s' if s.iteration != 1 else ''}"
            f"{_ago(s.finished_at, ', ', now)}."
        ]
        summary = ""
        if result is not None:
            summary = result.summary or (result.completion.summary if result.completion else "")
        if summary:
            lines.append(f"Summary: {summary.strip()}")
        if s.last_error:
            lines.append(f"Reason: {s.last_error}")
        if s.resumable:
            lines.append("The run can be resumed.")
    failed = [g for g in s.gate_results if not g.passed]
    if failed:
        lines.append(f"Quality gates failed ({len(failed)} of {len(s.gate_results)}):")
        lines += [f"- {g.gate}: {g.message or 'failed'}" for g in failed]
    elif s.gate_results:
        lines.append(f"Quality gates: all {len(s.gate_results)} passed.")
    if feedback and not s.running:
        cut = feedback[:1500]
        more = " […]" if len(feedback) > 1500 else ""
        lines.append(f"Feedback (.ralph/feedback.md):\n{cut}{more}")
    if s.usage is not None:
        lines.append(usage_line(s.usage))
    return "\n".join(lines)


def _ago(when: float | None, prefix: str, now: float) -> str:
    if when is None:
        return ""
    secs = max(0, int(now - when))
    if secs < 60:
        return f"{prefix}{secs}s ago"
    if secs < 3600:
        return f"{prefix}{secs // 60} min ago"
    return f"{prefix}{secs // 3600} h ago"


def usage_line(usage: UsageData) -> str:
    cost = f", cost ${usage.cost:.4f}" if usage.cost is not None else ""
    return (
        f"Usage: {usage.total_tokens:,} tokens (prompt {usage.prompt_tokens:,}, "
        f"completion {usage.completion_tokens:,}){cost}."
    )
