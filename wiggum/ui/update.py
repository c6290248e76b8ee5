"""A new version of the app is ready: what the notice says, and whether Reload may
reload now.

The service worker (``sw.template.js``) installs a new build beside the running
one and waits; the page shows the notice, and Reload takes the new build only
when nothing would be cut short by it: never while Ralph runs (an iteration
would stop half-way) or while Chief's turn is under way (a reply would end
mid-sentence).  Then Reload says why it waits and how to go on, and the notice
stays.  Plain functions: the first screen may import this before pydantic.
"""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["RELOAD_TEXT", "UPDATE_TEXT", "Busy", "reload_refusal"]

UPDATE_TEXT = "A new version is ready —"
RELOAD_TEXT = "Reload"


@dataclass(frozen=True, slots=True)
class Busy:
    """What is running in this tab now."""

    ralph_running: bool = False
    chief_busy: bool = False


def reload_refusal(busy: Busy) -> str | None:
    """``None`` when Reload may reload now; else why not, with the way on."""
    if busy.ralph_running:
        return (
            "Ralph is building: reloading now would stop him mid-iteration. "
            "Reload once he has finished, or press Stop in Ralph's tab first."
        )
    if busy.chief_busy:
        return (
            "Chief is replying: reloading now would cut his reply short. "
            "Reload once it has ended, or press Stop first."
        )
    return None
