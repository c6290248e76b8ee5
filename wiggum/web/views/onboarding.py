"""First run in Chief's tab: provider → key → Test connection → model → start.

Shown instead of the empty chat while no provider works.  The test goes
through :func:`wiggum.ui.connection.check_connection`, the same route (and
proxy) the chat will use, and names the cause and its fix when it fails.
"Start chatting" only appears after a test passed, so what is saved works.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

from pydantic import SecretStr

from wiggum.ui.connection import Diagnosis, check_connection, proxy_template_from_worker
from wiggum.ui.presets import PRESETS, preset
from wiggum.ui.settings import ProviderSettings

from ..dom import Listeners, closest_action, h, spawn

__all__ = ["Onboarding"]

OnDone = Callable[[ProviderSettings, str], Awaitable[None]]


def _input(id_: str, type_: str, testid: str, placeholder: str = "") -> Any:
    return h(
        "input",
        {
            "id": id_,
            "type": type_,
            "data-testid": testid,
            "placeholder": placeholder,
            "autocomplete": "off",
            "spellcheck": "false",
        },
    )


class Onboarding:
    def __init__(self, on_done: OnDone, *, origin: str, open_settings: Callable[[], None]) -> None:
        self.on_done = on_done
        self.origin = origin
        self.open_settings = open_settings
        self.proxy_template = ""
        self._gen = 0
        self._ok_for: str | None = None
        self.listeners = Listeners()

        self.provider = h(
            "select",
            {"id": "onb-provider", "data-testid": "onb-provider"},
            [h("option", {"value": p.id, "text": p.name}) for p in PRESETS],
        )
        self.base_url = _input("onb-base-url", "url", "onb-base-url", "https://…")
        self.base_row = h(
            "div",
            {"class": "field"},
            h("label", {"for": "onb-base-url", "text": "Server address"}),
            self.base_url,
        )
        self.key_label = h("label", {"for": "onb-key", "text": "API key"})
        self.key = _input("onb-key", "password", "onb-key")
        self.key_link = h(
            "a", {"target": "_blank", "rel": "noopener noreferrer", "data-testid": "onb-key-link"}
        )
        self.key_row = h(
            "div",
            {"class": "field"},
            self.key_label,
            self.key,
            h("p", {"class": "field-hint"}, "Kept in this browser only. ", self.key_link),
        )
        self.proxy = h("input", {"id": "onb-proxy", "type": "checkbox", "data-testid": "onb-proxy"})
        self.proxy_url = _input(
            "onb-proxy-url", "url", "onb-proxy-url", "https://wiggum-cors-proxy.you.workers.dev"
        )
        self.proxy_row = h(
            "div",
            {"class": "field", "hidden": True},
            h("label", {"for": "onb-proxy-url", "text": "Your proxy's URL"}),
            self.proxy_url,
            h(
                "p",
                {"class": "field-hint"},
                "The worker address (or a template with {href}). How to run one: Settings → "
                "Run your own proxy.",
            ),
        )
        self.test_btn = h(
            "button",
            {
                "type": "button",
                "class": "btn btn-primary",
                "data-action": "onb-test",
                "data-testid": "onb-test",
            },
            "Test connection",
        )
        self.result = h(
            "div", {"class": "conn-result", "data-testid": "onb-result", "role": "status"}
        )
        self.models = h("datalist", {"id": "onb-models"})
        self.model = _input("onb-model", "text", "onb-model")
        self.model.setAttribute("list", "onb-models")
        self.start_btn = h(
            "button",
            {
                "type": "button",
                "class": "btn btn-primary",
                "data-action": "onb-start",
                "data-testid": "onb-start",
            },
            "Start chatting",
        )
        self.model_row = h(
            "div",
            {"class": "field", "hidden": True},
            h("label", {"for": "onb-model", "text": "Model"}),
            h("div", {"class": "model-row"}, self.model, self.start_btn),
            self.models,
        )
        self.el = h(
            "section",
            {"class": "onboarding", "data-testid": "onboarding", "aria-labelledby": "onb-title"},
            h("h3", {"id": "onb-title", "text": "Connect a model provider"}),
            h(
                "p",
                {"class": "field-hint"},
                "Chief needs a model to talk with you. Choose a provider, paste your key, "
                "and test the connection.",
            ),
            h(
                "div",
                {"class": "field"},
                h("label", {"for": "onb-provider", "text": "Provider"}),
                self.provider,
            ),
            self.base_row,
            self.key_row,
            h(
                "div",
                {"class": "field field-check"},
                self.proxy,
                h("label", {"for": "onb-proxy", "text": "Send requests through my CORS proxy"}),
            ),
            self.proxy_row,
            h("div", {"class": "conn-row"}, self.test_btn, self.result),
            self.model_row,
            h(
                "p",
                {"class": "field-hint"},
                h(
                    "button",
                    {
                        "type": "button",
                        "class": "btn-link",
                        "data-action": "onb-settings",
                        "text": "More settings",
                    },
                ),
            ),
        )
        self.listeners.on(self.el, "click", self._on_click)
        self.listeners.on(self.provider, "change", lambda e: self._pick())
        self.listeners.on(self.proxy, "change", lambda e: self._proxy_shown())
        for el in (self.key, self.base_url, self.proxy_url, self.proxy):
            self.listeners.on(el, "input", lambda e: self._stale())
        self._pick()

    # ------------------------------------------------------------ state

    def prefill(self, p: ProviderSettings | None, proxy_template: str) -> None:
        """Start from what the person has already (a half-set-up provider)."""
        self.proxy_template = proxy_template
        if p is None:
            return
        self.provider.value = preset(p.preset).id
        self._pick()
        if p.base_url:
            self.base_url.value = p.base_url
        if p.key:
            self.key.value = p.key
        if p.model:
            self.model.value = p.model
        self.proxy.checked = p.proxy
        if proxy_template:
            self.proxy_url.value = proxy_template
        self._proxy_shown()

    def _pick(self) -> None:
        pr = preset(str(self.provider.value))
        self.base_url.value = pr.base_url
        self.key_row.hidden = not pr.needs_key and pr.id != "custom"
        self.key_label.textContent = f"{pr.name} API key" if pr.id != "custom" else "API key"
        self.key.placeholder = "Paste your key" if pr.needs_key else "Only if your server needs one"
        self.key_link.hidden = not pr.key_url
        if pr.key_url:
            self.key_link.href = pr.key_url
            self.key_link.textContent = f"Make a key at {pr.key_url.split('://')[1]}"
        self.model.value = pr.model
        self.proxy.checked = pr.proxy
        self._proxy_shown()
        self._stale()

    def _proxy_shown(self) -> None:
        self.proxy_row.hidden = not self.proxy.checked

    def _stale(self) -> None:
        """A change after a passed test asks for a new one."""
        self._ok_for = None
        self.model_row.hidden = True

    def _draft(self) -> tuple[ProviderSettings, str]:
        pr = preset(str(self.provider.value))
        raw = str(self.proxy_url.value).strip()
        template = (proxy_template_from_worker(raw) or raw) if raw else ""
        p = ProviderSettings.from_preset(
            pr.id,
            base_url=str(self.base_url.value).strip(),
            api_key=SecretStr(str(self.key.value).strip()),
            model=str(self.model.value).strip(),
            proxy=bool(self.proxy.checked),
        )
        return p, template

    # ------------------------------------------------------------ actions

    def _on_click(self, event: Any) -> None:
        target = closest_action(event)
        if target is None:
            return
        action = target.getAttribute("data-action")
        if action == "onb-test":
            # Marked at once, so an earlier result is never read as this one's.
            self.result.setAttribute("data-cause", "pending")
            self._gen += 1
            spawn(self._test(self._gen), what="test connection")
        elif action == "onb-start":
            spawn(self._start(), what="finish onboarding")
        elif action == "onb-settings":
            self.open_settings()

    async def _test(self, gen: int) -> None:
        p, template = self._draft()
        self.test_btn.disabled = True
        self.result.className = "conn-result"
        self.result.setAttribute("data-cause", "pending")
        self.result.textContent = "Testing…"
        try:
            d = await check_connection(p, proxy_template=template, origin=self.origin)
        finally:
            self.test_btn.disabled = False
        if gen != self._gen:
            return
        self._show(d)
        if d.ok or d.cause == "model_missing":
            self._ok_for = p.preset
            self.models.replaceChildren(
                *[h("option", {"value": m.id, "label": m.label}) for m in d.models]
            )
            if d.models and not any(m.id == self.model.value for m in d.models):
                self.model.value = d.models[0].id
            self.model_row.hidden = False
            self.model.focus()
        elif d.field == "proxy":
            self.proxy.checked = True
            self._proxy_shown()

    def _show(self, d: Diagnosis) -> None:
        self.result.className = "conn-result " + ("conn-ok" if d.ok else "conn-bad")
        self.result.setAttribute("data-cause", d.cause)
        self.result.replaceChildren(
            h("strong", {"text": d.title + ". "}), h("span", {"text": d.message})
        )

    async def _start(self) -> None:
        p, template = self._draft()
        if self._ok_for is None:
            return
        if not p.model:
            self.model.focus()
            return
        await self.on_done(p, template)

    def close(self) -> None:
        self.listeners.close()
