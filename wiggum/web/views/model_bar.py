"""The model switcher above an agent's tab, with its context meter and cost so far.

One bar per agent (Chief, Ralph).  The list is the provider's own (fetched
through the chat's route, proxy included) annotated with the registry's
window and price; when the list cannot be had, the configured model alone.
A choice is kept per project and agent by the app (``on_pick``).
"""

from __future__ import annotations

from collections.abc import Callable

from wiggum.ui.markup import model_bar as markup
from wiggum.ui.model_choice import Meter, meter_label
from wiggum.ui.models import ModelOption

from ..dom import Listeners, mount, mount_all

__all__ = ["ModelBar", "ModelBars"]


class ModelBar:
    def __init__(self, role: str, title: str, on_pick: Callable[[str, str], None]) -> None:
        self.role = role
        self.on_pick = on_pick
        self.listeners = Listeners()
        parts = mount(markup.bar(role, title))
        self.el, self.select = parts.el, parts.select
        self.meter_bar, self.meter_text = parts.meter, parts.meter_text
        self.listeners.on(self.select, "change", lambda e: self.on_pick(self.role, self.value))
        #: The model ids on offer (the provider's list), for advice naming them.
        self.listed: list[str] = []

    @property
    def value(self) -> str:
        return str(self.select.value)

    def show(self, models: list[ModelOption], current: str, kind: str) -> None:
        """Fill the list (the current model first if the list lacks it) and show the bar."""
        if not current:
            self.el.hidden = True
            return
        self.listed = [m.id for m in models]
        self.select.replaceChildren(*mount_all(markup.options(models, current, kind)))
        self.select.value = current
        self.select.setAttribute("title", markup.chosen_label(models, current, kind))
        self.el.hidden = False

    def set_meter(self, m: Meter | None) -> None:
        """The context meter and cost so far (``None``: no figures yet, as Ralph's
        before his first call in a project)."""
        frac = None if m is None else m.fraction
        self.meter_bar.hidden = frac is None
        if frac is not None:
            self.meter_bar.value = frac
            self.meter_bar.setAttribute("aria-label", meter_label(frac))
        self.meter_text.textContent = "" if m is None else m.text

    def close(self) -> None:
        self.listeners.close()


class ModelBars:
    """Chief's bar and Ralph's, drawn from the model choice's messages."""

    def __init__(self, on_pick: Callable[[str, str], None]) -> None:
        self.bars = {
            role: ModelBar(role, title, on_pick)
            for role, title in (("chief", "Chief"), ("ralph", "Ralph"))
        }
        self.bars["ralph"].set_meter(None)

    def show(self, chosen: dict[str, str], models: list[ModelOption], kind: str) -> None:
        """Each role's model and the list (``chosen`` empty: no usable provider, hidden)."""
        for role, bar in self.bars.items():
            bar.show(models, chosen.get(role, ""), kind)

    def set_meter(self, role: str, meter: Meter | None) -> None:
        self.bars[role].set_meter(meter)

    def close(self) -> None:
        for bar in self.bars.values():
            bar.close()
