"""Why the app will not do what the person asked, in their words, with the fix.

Two reasons stop an action before it starts: the provider is not set up (the
fix is in Settings), or another tab owns the project (the fix is "Use here").
Both are said where the person acted and lose nothing they typed.  Plain
dataclasses: the first screen imports this before pydantic has loaded.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = ["NOT_CHANGED", "NOT_SENT", "NOT_STARTED", "Refusal", "paused", "setup"]

Fix = Literal["settings", "use-here"]

#: How each kind of action says it did not happen.
NOT_SENT, NOT_CHANGED, NOT_STARTED = "Not sent.", "Not changed.", "Not started."


@dataclass(frozen=True, slots=True)
class Refusal:
    title: str
    message: str
    #: Where the person fixes it: Settings, or "Use here" on the tab-lock banner.
    fix: Fix

    @property
    def text(self) -> str:
        return f"{self.title} {self.message}"


def setup(title: str, message: str) -> Refusal:
    return Refusal(title, message, "settings")


def paused(title: str, message: str) -> Refusal:
    """Another tab owns the project: ``message`` is the tab lock's own words."""
    return Refusal(title, message, "use-here")
