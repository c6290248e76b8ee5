"""Ralph's tab, the spending parts: the forecast line, Continue, Start fresh.

Draws :mod:`wiggum.ui.markup.ralph_budget` under the tab's bar and fills it from
the Coordinator's state (:mod:`wiggum.ui.ralph_budget` decides what shows);
Continue and Start fresh go to :class:`BudgetActions`.  A form that cannot be
read says why under it and keeps what was typed.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any, Protocol

from wiggum.coordinator.state import CoordinatorState
from wiggum.ui.markup import ralph_budget as markup
from wiggum.ui.ralph_budget import (
    ContinueFields,
    ContinueRequest,
    continue_offer,
    continue_request,
)

from ...dom import Listeners, dispatch, mount, say, spawn

__all__ = ["BudgetActions", "BudgetView"]


class BudgetActions(Protocol):
    """What these parts ask of Ralph's session (``wiggum.session.ralph.RalphSession``)."""

    async def continue_run(self, request: ContinueRequest) -> None: ...

    async def start_fresh(self) -> None: ...

    def refuse(self) -> bool: ...

    def iterations(self) -> int:
        """The settings' iteration limit: how many more Continue offers."""
        ...


class BudgetView:
    def __init__(self, actions: BudgetActions) -> None:
        self.actions = actions
        self.listeners = Listeners()
        self.forecast = mount(markup.forecast()).el
        self.cont = mount(markup.continue_panel())
        self.fresh = mount(markup.fresh())
        #: The offer the form was last filled from: a redraw keeps what is typed.
        self._offered: Any = None
        self._clicks: dict[str, Callable[[], None]] = {
            "ralph-continue-button": self._continue,
            "ralph-fresh": lambda: setattr(self.fresh.confirm, "hidden", False),
            "ralph-fresh-no": lambda: setattr(self.fresh.confirm, "hidden", True),
            "ralph-fresh-yes": self._start_fresh,
        }
        for part in (self.cont.el, self.fresh.el):
            self.listeners.on(part, "click", lambda event: dispatch(event, self._clicks))

    def place(self, banner: Any, runs: Any) -> None:
        """Put the parts in the tab: the forecast and Continue after its resume
        ``banner``, Start fresh after its run list ``runs``."""
        banner.after(self.forecast, self.cont.el)
        runs.after(self.fresh.el)

    def show(self, state: CoordinatorState, *, running: bool, elsewhere: bool) -> None:
        say(self.forecast, state.forecast if state.forecast else None)
        offer = None if running or elsewhere else continue_offer(state, self.actions.iterations())
        if offer is not None and offer != self._offered:
            c = self.cont
            c.text.textContent = offer.text
            c.more.value = str(offer.more)
            c.cap_usd.value = offer.cap_usd
            c.cap_tokens.value = offer.cap_tokens
            say(c.error, None)
        self._offered = offer
        self.cont.el.hidden = offer is None
        self.fresh.el.hidden = running or elsewhere
        if running or elsewhere:
            self.fresh.confirm.hidden = True
        if running:
            self.cont.note.value = ""  # it went into his task when the run went on

    def close(self) -> None:
        self.listeners.close()

    def _continue(self) -> None:
        c = self.cont
        fields = ContinueFields(
            str(c.more.value), str(c.cap_usd.value), str(c.cap_tokens.value), str(c.note.value)
        )
        request = continue_request(fields)
        if isinstance(request, str):
            say(c.error, request)
            return
        if self.actions.refuse():
            return
        say(c.error, None)
        c.el.hidden = True
        spawn(self._call(self.actions.continue_run(request)), what="continue ralph")

    def _start_fresh(self) -> None:
        self.fresh.confirm.hidden = True
        if self.actions.refuse():
            return
        spawn(self._call(self.actions.start_fresh()), what="start fresh")

    async def _call(self, action: Awaitable[None]) -> None:
        await action
