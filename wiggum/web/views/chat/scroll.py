"""Following the end of Chief's conversation while it grows.

Whether the reader follows it is :class:`wiggum.ui.follow.EndFollower`'s,
kept from scroll events, so a streaming reply reads no layout per chunk: the
end is followed once a frame (``follow_soon``), and resize callbacks run after
layout, when reading sizes is free.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_once_callable, create_proxy  # type: ignore[import-not-found]

from wiggum.ui.follow import EndFollower, near_end

from ...dom import Listeners, is_null
from ...guard import guarded

__all__ = ["ScrollFollower"]


class ScrollFollower:
    """Keeps ``scroller`` at its end while the person follows it.

    ``view`` is the element whose being hidden (another tab) stops the pill;
    ``empty`` the empty-chat welcome, read from its top."""

    def __init__(self, scroller: Any, view: Any, empty: Any, pill: Any, watched: Any) -> None:
        self.scroller, self.view, self.empty, self.pill = scroller, view, empty, pill
        self.follower = EndFollower()
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

    @property
    def at_end(self) -> bool:
        """The person follows the conversation's end."""
        return self.follower.at_end

    def near_end(self) -> bool:
        s = self.scroller
        return near_end(s.scrollHeight, s.scrollTop, s.clientHeight)

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
            self.follower.put_at_end(self.scroller.scrollTop)

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
        self.follower.scrolled(self.scroller.scrollTop, near)
        if near:  # what the pill points to is in view
            self.pill.hidden = True

    def close(self) -> None:
        self.listeners.close()
        self._observer.disconnect()
        self._resized.destroy()
