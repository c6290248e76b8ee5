"""Test connection: the button and the line that names the cause and its fix.

Shared by the Settings dialog and the first-run form, which mount it
(``wiggum.ui.markup.settings.conn_row``: refs ``test`` and ``test_result``).
The test itself (one cheap call through the chat's own route, and what its
failure means) is ``wiggum.ui.connection``; which answer counts (the latest)
is the caller's session object, which hands over the test as a coroutine that
gives ``None`` when a later test replaced it.  The result carries
``data-cause`` (``pending`` from the click on, so an earlier result is never
read as this one's).
"""

from __future__ import annotations

from collections.abc import Coroutine
from typing import Any

from wiggum.ui.connection import Diagnosis
from wiggum.ui.markup.settings import diagnosis
from wiggum.ui.provider_form import diagnosis_class

from ...dom import Parts, mount_all

__all__ = ["ConnectionTest"]


class ConnectionTest:
    def __init__(self, parts: Parts) -> None:
        self.button, self.result = parts.test, parts.test_result

    def pending(self) -> None:
        self.result.setAttribute("data-cause", "pending")

    def clear(self) -> None:
        self.result.textContent = ""
        self.result.removeAttribute("data-cause")

    async def run(self, test: Coroutine[Any, Any, Diagnosis | None]) -> Diagnosis | None:
        """Show "Testing…" while ``test`` runs, then its diagnosis (unless replaced)."""
        self.button.disabled = True
        self.result.className = diagnosis_class(None)
        self.pending()
        self.result.textContent = "Testing…"
        try:
            d = await test
        finally:
            self.button.disabled = False
        if d is not None:
            self.show(d)
        return d

    def show(self, d: Diagnosis) -> None:
        self.result.className = diagnosis_class(d)
        self.result.setAttribute("data-cause", d.cause)
        self.result.replaceChildren(*mount_all(diagnosis(d.title, d.message)))
