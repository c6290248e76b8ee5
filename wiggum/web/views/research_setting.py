"""The settings dialog's "Chief may search the web" checkbox for one provider.

Kept apart from the dialog so it stays one small control: off by default,
disabled (with the reason beside it) where the provider cannot search.
"""

from __future__ import annotations

from typing import Any

from wiggum.ui.presets import web_search_hint

from ..dom import h

HINT_ON = (
    "Chief can look things up while planning and lists his sources under his answer. "
    "The provider bills each search."
)
#: Who can search: the vendors that do (``wiggum/llm/vendors/``), by their preset names.
HINT_OFF = web_search_hint()


class ResearchSetting:
    def __init__(self) -> None:
        self.box = h(
            "input", {"id": "set-web-search", "type": "checkbox", "data-testid": "web-search"}
        )
        self.hint = h("p", {"class": "field-hint", "id": "web-search-hint"})
        self.box.setAttribute("aria-describedby", "web-search-hint")
        # The hint goes under the checkbox row, not in it (the row is a flex line).
        self.el = h(
            "div",
            {"class": "research-setting"},
            h(
                "div",
                {"class": "field field-check"},
                self.box,
                h("label", {"for": "set-web-search", "text": "Let Chief search the web"}),
            ),
            self.hint,
        )

    def load(self, provider: Any) -> None:
        available = provider.research_available
        self.box.disabled = not available
        self.box.checked = bool(provider.web_search) and available
        self.hint.textContent = HINT_ON if available else HINT_OFF

    def value(self) -> bool:
        return bool(self.box.checked) and not bool(self.box.disabled)
