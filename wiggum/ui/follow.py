"""Whether the reader follows the end of Chief's conversation, from what they did.

The person who reads the end keeps reading it as a reply streams, the message
box grows or the window resizes; the person who scrolled up stays where they
are, and a "New messages ↓" pill says more arrived.  Whether they follow is
kept from scroll events (``wiggum.web.views.chat.scroll`` measures and scrolls;
nothing here reads layout), so a streaming reply reads none per chunk.
"""

from __future__ import annotations

__all__ = ["NEAR_END", "EndFollower", "near_end"]

#: Pixels from the bottom that still count as "at the end".
NEAR_END = 80


def near_end(scroll_height: float, scroll_top: float, client_height: float) -> bool:
    """Whether a scroller this tall, scrolled this far, shows (about) its end."""
    return scroll_height - scroll_top - client_height < NEAR_END


class EndFollower:
    """Whether the reader follows the end (:attr:`at_end`)."""

    def __init__(self) -> None:
        self.at_end = True
        self._put_at = -1.0  # where the page last scrolled to

    def put_at_end(self, top: float) -> None:
        """The page scrolled to the end, now at ``top``."""
        self.at_end = True
        self._put_at = top

    def scrolled(self, top: float, near: bool) -> None:
        """The list is scrolled to ``top`` (``near``: near its end).

        Near the end, the reader follows again.  Moved away from where the page
        put it, the reader scrolled up: they no longer follow.  Left where the
        page put it, the text may just have grown below: they still do."""
        if near:
            self.at_end = True
        elif top != self._put_at:
            self.at_end = False
