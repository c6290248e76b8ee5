"""The Settings dialog's provider form: which provider, its name, kind, URL, key, proxy box.

It only draws a :class:`~wiggum.ui.settings.ProviderSettings` and reads the
form back as :class:`~wiggum.session.settings.ProviderFields`; what the
fields mean is the dialog's editor (``wiggum.session.settings``).  The model
field and Test connection sit between its two halves (:attr:`head` and
:attr:`tail`), drawn by ``model_picker`` and ``connection_test``.
"""

from __future__ import annotations

from wiggum.session.settings import ProviderFields
from wiggum.ui.provider_form import KINDS, KeyField, settings_key_field
from wiggum.ui.settings import PRESETS, ProviderSettings

from ...dom import button, el
from ..forms import checkbox, error_line, field, hint, link, options, text_input
from ..research_setting import ResearchSetting

__all__ = ["KeyInput", "ProviderForm"]


class KeyInput:
    """An API key field: its label, the password input, a hint ending in "Make a key at …"."""

    def __init__(self, id_: str, testid: str, link_testid: str, hint_text: str) -> None:
        self.input = text_input(id_, testid, type_="password")
        self.label = el("label", None, "API key", for_=id_)
        self.link = link(link_testid)
        self.error = error_line("api-key-error")
        self.el = el("div", "field", self.label, self.input, hint(hint_text, self.link))

    def show(self, key: KeyField) -> None:
        self.el.hidden = not key.shown
        self.label.textContent = key.label
        self.input.placeholder = key.placeholder
        self.link.hidden = key.link is None
        if key.link is not None:
            self.link.href, self.link.textContent = key.link


class ProviderForm:
    def __init__(self) -> None:
        self.provider_select = el("select", None, testid="provider-select", id="set-provider")
        self.add_select = el(
            "select",
            None,
            options([("", "Add a provider…"), *((p.id, p.name) for p in PRESETS)]),
            testid="add-provider",
            id="set-add",
            aria_label="Add a provider",
        )
        self.remove_btn = button(
            "Remove",
            action="remove-provider",
            testid="remove-provider",
            cls="btn btn-small btn-quiet",
        )
        self.name = text_input("set-name", "provider-name", spellcheck=None)
        self.kind = el("select", None, options(KINDS), testid="provider-kind", id="set-kind")
        self.base_url = text_input(
            "set-base-url",
            "provider-base-url",
            type_="url",
            placeholder="https://api.example.com/v1",
        )
        self.base_url_error = error_line("base-url-error")
        self.key = KeyInput(
            "set-api-key",
            "provider-api-key",
            "key-link",
            "Stored on this device only and sent only to this provider "
            "(through the proxy if you turn it on). ",
        )
        self.key.el.append(self.key.error)
        self.api_key = self.key.input
        self.proxy, proxy_row = checkbox(
            "set-proxy", "provider-proxy", "Send this provider's requests through the CORS proxy"
        )
        self.proxy_check_error = error_line("proxy-check-error")
        self.research = ResearchSetting()
        #: Above the model field: which provider, and how to reach it.
        self.head = [
            el(
                "div",
                "provider-row",
                el("label", "sr-only", "Provider", for_="set-provider"),
                self.provider_select,
                self.add_select,
                self.remove_btn,
            ),
            hint("Chief uses the provider shown here when you save."),
            field("Name", self.name, for_id="set-name"),
            field(
                "Kind",
                self.kind,
                for_id="set-kind",
                hint=hint("The API it speaks. Most services are OpenAI-compatible."),
            ),
            field("Base URL", self.base_url, for_id="set-base-url", error=self.base_url_error),
            self.key.el,
        ]
        #: Under Test connection: the proxy box and web search.
        self.tail = [proxy_row, self.proxy_check_error, self.research.el]

    def fill_select(self, providers: list[ProviderSettings], current: str | None) -> None:
        self.provider_select.replaceChildren(
            *[
                el("option", None, value=p.id, text=p.label, selected=p.id == current)
                for p in providers
            ]
        )
        self.provider_select.value = current or ""
        self.remove_btn.disabled = len(providers) <= 1

    def load(self, p: ProviderSettings) -> None:
        self.name.value = p.name
        self.kind.value = p.kind
        self.base_url.value = p.base_url
        self.api_key.value = p.key
        self.proxy.checked = p.proxy
        self.research.load(p)
        self.key.show(settings_key_field(p))

    def read(self, model: str) -> ProviderFields:
        return ProviderFields(
            name=str(self.name.value),
            kind=str(self.kind.value),
            base_url=str(self.base_url.value),
            api_key=str(self.api_key.value),
            model=model,
            proxy=bool(self.proxy.checked),
            web_search=self.research.value(),
        )
