"""What a 200 answer to a stream request is, told by its first bytes, not only its label.

Servers label bodies wrongly: an SSE stream sent as ``application/json``
(some gateways), a whole JSON reply to a stream request, a web page where an
API was expected (a base URL pointing at a site, a captive portal, a login
page).  :class:`AnswerParser` stands where the dialect's stream parser
stands and decides at the first bytes that are not blank:

- ``<`` or a ``text/html`` label: a web page, :class:`MalformedResponseError`
  at once (it would never hold an event; no retry gets another answer);
- ``{`` or ``[`` from a dialect whose stream is SSE: one whole JSON answer,
  kept until the body ends and read by the dialect's ``parse_body`` (an
  error object in it is raised as the provider's error);
- anything else: the stream, handed to the dialect's stream parser from its
  first byte on.  An NDJSON dialect's stream starts with ``{`` itself, so for
  it only an ``application/json`` label means one whole answer.
"""

from __future__ import annotations

from collections.abc import Callable

from .errors import MalformedResponseError
from .observability import get_logger, log_event

__all__ = ["AnswerParser", "is_web_page"]

_BLANK = b" \t\r\n\xef\xbb\xbf"  # and a UTF-8 byte order mark


def is_web_page(content_type: str | None, head: bytes) -> bool:
    """An HTML page by its label or by its first non-blank byte."""
    if "text/html" in (content_type or "").lower():
        return True
    return head.lstrip(_BLANK)[:1] == b"<"


def web_page_error(label: tuple[str, str]) -> MalformedResponseError:
    provider, model = label
    log_event(get_logger(), "llm:malformed-answer", provider=provider, model=model, read="html")
    return MalformedResponseError(
        "The answer is a web page (HTML), not a reply", *label, detail="a web page"
    )


class AnswerParser:
    """A stream parser that first decides what the body is (see the module)."""

    __slots__ = ("_content_type", "_held", "_label", "_ndjson", "_stream", "_target", "_whole")

    def __init__(
        self,
        stream,
        whole: Callable[[bytes], None],
        *,
        content_type: str | None,
        ndjson: bool,
        label: tuple[str, str],
    ) -> None:
        self._stream = stream
        self._whole = whole
        self._content_type = (content_type or "").lower()
        self._ndjson = ndjson
        self._label = label
        self._held: list[bytes] = []
        #: ``"stream"`` or ``"whole"`` once decided.
        self._target: str | None = None

    def feed(self, chunk: bytes) -> None:
        if self._target == "stream":
            self._stream.feed(chunk)
            return
        self._held.append(chunk)
        if self._target == "whole":
            return
        head = b"".join(self._held)
        first = head.lstrip(_BLANK)[:1]
        if not first:
            return  # only blank so far: wait for a byte that tells
        if is_web_page(self._content_type, head):
            raise web_page_error(self._label)
        whole = "application/json" in self._content_type if self._ndjson else first in (b"{", b"[")
        if whole:
            self._target = "whole"
            return
        self._target = "stream"
        self._held = []
        self._stream.feed(head)

    def close(self) -> None:
        if self._target == "whole":
            body, self._held = b"".join(self._held), []
            self._whole(body)
            return
        if self._target is None and self._held:
            # blank bytes and nothing else: the stream parser finds no event
            self._stream.feed(b"".join(self._held))
            self._held = []
        self._stream.close()
