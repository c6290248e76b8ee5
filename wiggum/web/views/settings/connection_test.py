"""Test connection: the button and the line that names the cause and its fix.

Shared by the Settings dialog and the first-run form.  The test itself (one
cheap call through the chat's own route, and what its failure means) is
``wiggum.ui.connection``; which answer counts (the latest) is the caller's
session object, which hands over the test as a coroutine that gives ``None``
when a later test replaced it.  The result carries ``data-cause`` (``pending``
from the click on, so an earlier result is never read as this one's).
"""

from __future__ import annotations

from collections.abc import Coroutine
from typing import Any

from wiggum.ui.connection import Diagnosis
from wiggum.ui.provider_form import diagnosis_class

from ...dom import button, el

__all__ = ["ConnectionTest"]


class ConnectionTest:
    def __init__(self, *, action: str, testid: str, result_testid: str, cls: str = "btn") -> None:
        self.button = button("Test connection", action=action, testid=testid, cls=cls)
        self.result = el("div", "conn-result", testid=result_testid, role="status")
        self.el = el("div", "conn-row", self.button, self.result)

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
        self.result.replaceChildren(el("strong", None, d.title + ". "), el("span", None, d.message))
