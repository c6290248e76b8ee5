"""The Settings dialog's provider form: which provider, its name, kind, URL, key,
proxy box and web search.

It only draws a :class:`~wiggum.ui.settings.ProviderSettings` and reads the
form back as :class:`~wiggum.session.settings.ProviderFields`; what the
fields mean is the dialog's editor (``wiggum.session.settings``), its markup
``wiggum.ui.markup.settings``.
"""

from __future__ import annotations

from wiggum.session.settings import ProviderFields
from wiggum.ui.markup.settings import provider_options, web_search_text
from wiggum.ui.provider_form import KeyField, settings_key_field
from wiggum.ui.settings import ProviderSettings

from ...dom import Parts, mount_all

__all__ = ["ProviderForm", "show_key"]


def show_key(f: Parts, key: KeyField) -> None:
    """Word the key field (``markup.settings.key_field``) for a provider."""
    f.key_field.hidden = not key.shown
    f.key_label.textContent = key.label
    f.api_key.placeholder = key.placeholder
    f.key_link.hidden = key.link is None
    if key.link is not None:
        f.key_link.href, f.key_link.textContent = key.link


class ProviderForm:
    def __init__(self, parts: Parts) -> None:
        #: The dialog's parts: ``name``, ``kind``, ``base_url``, ``api_key``, ``proxy``…
        self.f = parts

    def fill_select(self, providers: list[ProviderSettings], current: str | None) -> None:
        options = provider_options((p.id, p.label) for p in providers)
        self.f.provider_select.replaceChildren(*mount_all(options))
        self.f.provider_select.value = current or ""
        self.f.remove.disabled = len(providers) <= 1

    def load(self, p: ProviderSettings) -> None:
        f = self.f
        f.name.value = p.name
        f.kind.value = p.kind
        f.base_url.value = p.base_url
        f.api_key.value = p.key
        f.proxy.checked = p.proxy
        self.load_web_search(p)
        show_key(f, settings_key_field(p))

    def load_web_search(self, p: ProviderSettings) -> None:
        """Off by default, disabled (with the reason beside it) where ``p`` cannot search."""
        available = p.research_available
        self.f.web_search.disabled = not available
        self.f.web_search.checked = bool(p.web_search) and available
        self.f.web_search_hint.textContent = web_search_text(available)

    def read(self, model: str) -> ProviderFields:
        f = self.f
        return ProviderFields(
            name=str(f.name.value),
            kind=str(f.kind.value),
            base_url=str(f.base_url.value),
            api_key=str(f.api_key.value),
            model=model,
            proxy=bool(f.proxy.checked),
            web_search=bool(f.web_search.checked) and not bool(f.web_search.disabled),
        )
