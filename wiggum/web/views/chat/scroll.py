"""Following the end of Chief's conversation while it grows.

The person who reads the end keeps reading it as a reply streams, the
composer grows or the window resizes; the person who scrolled up stays where
they are, and a "New messages ↓" pill says more arrived.  Whether they follow
is kept from scroll events, so a streaming reply reads no layout per chunk:
the end is followed once a frame (``follow_soon``), and resize callbacks run
after layout, when reading sizes is free.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_once_callable, create_proxy  # type: ignore[import-not-found]

from ...dom import Listeners, is_null
from ...guard import guarded

__all__ = ["ScrollFollower"]

#: Pixels from the bottom that still count as "at the end".
NEAR_END = 80


class ScrollFollower:
    """Keeps ``scroller`` at its end while the person follows it.

    ``view`` is the element whose being hidden (another tab) stops the pill;
    ``empty`` the empty-chat welcome, read from its top."""

    def __init__(self, scroller: Any, view: Any, empty: Any, pill: Any, watched: Any) -> None:
        self.scroller, self.view, self.empty, self.pill = scroller, view, empty, pill
        #: The person follows the conversation's end.
        self.at_end = True
        self._auto_top = -1.0  # where this last scrolled to
        self._frame = False
        self.listeners = Listeners()
        self.listeners.on(scroller, "scroll", self._on_scroll)
        self._resized = create_proxy(guarded(self._on_resize, "keep the end in view"))
        self._observer = js.ResizeObserver.new(self._resized)
        self._observer.observe(watched)
        self._observer.observe(scroller)

    @property
    def shown(self) -> bool:
        return is_null(self.view.closest("[hidden]"))

    def near_end(self) -> bool:
        s = self.scroller
        return s.scrollHeight - s.scrollTop - s.clientHeight < NEAR_END

    def keeping_end(self, change: Callable[[], None]) -> None:
        """Run ``change`` (the composer grows or shrinks); a conversation read
        to its end stays at its end."""
        near = self.near_end()
        change()
        if near:
            self.to_end(force=True)

    def to_end(self, *, force: bool = False) -> None:
        if not self.empty.hidden:
            # An empty chat is read from its top: the welcome, then setup or the ideas.
            self.scroller.scrollTop = 0
            return
        if force or self.near_end():
            self.scroller.scrollTop = self.scroller.scrollHeight
            self.pill.hidden = True
            self.at_end = True
            self._auto_top = self.scroller.scrollTop

    def follow_soon(self) -> None:
        """A reply's text grew (a render slice): follow its end at the next
        frame, if the person follows it.  Once a frame, never per chunk."""
        if not self._frame:
            self._frame = True
            js.requestAnimationFrame(
                create_once_callable(guarded(self._follow, "follow the reply"))
            )

    def _follow(self, *_: Any) -> None:
        self._frame = False
        if self.at_end:
            self.to_end(force=True)
        elif self.shown:
            self.pill.hidden = False

    def after_change(self, follow: bool, *, added: bool) -> None:
        """The list changed: to the end if ``follow``, else the pill for what was added."""
        if follow:
            self.to_end(force=True)
        elif added and self.shown:
            self.pill.hidden = False

    def _on_resize(self, *_: Any) -> None:
        if self.at_end and self.shown:
            self.to_end(force=True)

    def _on_scroll(self, event: Any) -> None:
        near = self.near_end()
        if near:
            self.at_end = True
        elif self.scroller.scrollTop != self._auto_top:
            # Moved away from where this put it (the person scrolled): the end
            # is followed again once they are back near it.  Left where this
            # put it, the text may just have grown below.
            self.at_end = False
        if not self.pill.hidden and near:
            self.pill.hidden = True

    def close(self) -> None:
        self.listeners.close()
        self._observer.disconnect()
        self._resized.destroy()
