"""Why the app will not do what the person asked, in their words, with the fix.

Two reasons stop an action before it starts: the provider is not set up (the
fix is in Settings), or another tab owns the project (the fix is "Use here").
Both are said where the person acted and lose nothing they typed.  Plain
dataclasses: the first screen imports this before pydantic has loaded.

While no provider works, the first-run card is in front of the person in
Chief's tab: the message box waits (disabled, saying why in
:data:`SETUP_FIRST`, its draft kept), and a setup refusal that still comes
(a message queued before the app had loaded) is said on that card
(:func:`card_notice`), not in a banner pointing to Settings, which would
take the card's room and send the person away from the form they are filling.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

__all__ = [
    "NOT_CHANGED",
    "NOT_SENT",
    "NOT_STARTED",
    "SETUP_FIRST",
    "Refusal",
    "card_notice",
    "paused",
    "setup",
]

Fix = Literal["settings", "use-here"]

#: How each kind of action says it did not happen.
NOT_SENT, NOT_CHANGED, NOT_STARTED = "Not sent.", "Not changed.", "Not started."

#: The waiting message box's placeholder while no provider works.
SETUP_FIRST = "Connect a provider above to message Chief."


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


def card_notice(refusal: Refusal, card_shown: bool) -> str | None:
    """What the first-run card says of ``refusal`` while it is shown (``None``:
    the refusal is not a setup one, or there is no card: a banner says it)."""
    if refusal.fix != "settings" or not card_shown:
        return None
    return (
        f"{NOT_SENT} Connect a provider with this form first (paste your key, then Test "
        "connection); your message waits in the box below."
    )
