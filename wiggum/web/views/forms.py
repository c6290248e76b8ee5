"""What the dialogs and forms do with their elements: say a reason in a line
(or hide it), and run the handler of the ``data-action`` a click was in.

Their markup (fields, hints, error lines, dialogs) is ``wiggum.ui.markup.forms``.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

from ..dom import closest_action

__all__ = ["dispatch", "say"]


def say(element: Any, text: str | None) -> None:
    """Show ``text`` in ``element``, or hide it (``None``)."""
    element.textContent = text or ""
    element.hidden = not text


def dispatch(event: Any, actions: Mapping[str, Callable[[], Any]]) -> None:
    """Run the handler of the ``data-action`` the click happened in, if it has one."""
    target = closest_action(event)
    act = None if target is None else actions.get(str(target.getAttribute("data-action")))
    if act is not None:
        act()
