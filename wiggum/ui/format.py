"""Small display formats: the token and cost line under a reply, a view's failure line."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

__all__ = ["failure_text", "format_cost", "format_tokens", "usage_line"]


def _get(usage: Any, name: str) -> Any:
    if isinstance(usage, Mapping):
        return usage.get(name)
    return getattr(usage, name, None)


def format_tokens(n: int) -> str:
    return f"{n:,} token" + ("" if n == 1 else "s")


def format_cost(cost: float | None) -> str:
    """``$0.0012``, ``$1.25``, ``free``; ``cost unknown`` for ``None`` (never ``$0.00``)."""
    if cost is None:
        return "cost unknown"
    if cost == 0:
        return "free"
    if cost < 0.0001:
        return "< $0.0001"
    if cost < 1:
        return f"${cost:.4f}"
    return f"${cost:,.2f}"


#: Said under a finished reply whose provider reported no usage (some
#: OpenAI-compatible servers never do; a stopped stream ends before it).
USAGE_NOT_REPORTED = "tokens not reported · cost unknown"


def usage_line(usage: Any, *, missing: str = "") -> str:
    """``1,234 tokens · $0.0012`` for a ``UsageData`` (or its dict); ``missing`` without one."""
    if usage is None:
        return missing
    total = _get(usage, "total_tokens") or (
        (_get(usage, "prompt_tokens") or 0) + (_get(usage, "completion_tokens") or 0)
    )
    return f"{format_tokens(int(total))} · {format_cost(_get(usage, 'cost'))}"


def failure_text(what: str, exc: BaseException) -> str:
    """The error line at the foot of the page when a part of it failed (the rest works)."""
    return (
        f"Something went wrong: {what} failed ({type(exc).__name__}). "
        "The rest of Wiggum still works; the Log has the details."
    )
