"""An answer's bytes as text: invalid UTF-8 replaced as a browser replaces it, and said.

A provider (or a proxy that cut a character in two and lost a byte) can send
bytes that are not UTF-8.  Dropping the event that holds them would lose its
text in silence; failing the whole reply would lose the rest.  So they are
replaced by U+FFFD the way the page's ``TextDecoder`` does (one per maximal
ill-formed subsequence: Python's ``"replace"`` handler follows the same
Unicode rule), and a WARNING ``llm:invalid-utf8`` says that it happened,
once per reply.
"""

from __future__ import annotations

import logging

from .observability import LOGGER_NAME, log_event

__all__ = ["Utf8"]

_logger = logging.getLogger(LOGGER_NAME)


class Utf8:
    """One reply's decoder of event data: warns once, at the first bad byte."""

    __slots__ = ("_label", "warned")

    def __init__(self, label: tuple[str, str]) -> None:
        self._label = label
        self.warned = False

    def decode(self, data: bytes) -> str:
        try:
            return data.decode()
        except UnicodeDecodeError as err:
            if not self.warned:
                self.warned = True
                provider, model = self._label
                log_event(
                    _logger,
                    "llm:invalid-utf8",
                    provider=provider,
                    model=model,
                    at=err.start,
                    replaced="U+FFFD",
                )
            return data.decode("utf-8", "replace")
