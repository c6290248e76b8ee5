"""First run in Chief's tab: provider → key → Test connection → model → start.

Shown instead of the empty chat while no provider works.  The test goes
through :func:`wiggum.ui.connection.check_connection`, the same route (and
proxy) the chat will use, and names the cause and its fix when it fails.
What the form decides ("Start chatting" only after a passed test, what a
failed one turns on) is :class:`wiggum.session.onboarding.FirstRun`, its
markup ``wiggum.ui.markup.onboarding``; the key field's words and the test's
line are shared with Settings.  Above it, the ways in without a key to paste
(:class:`~wiggum.session.onboarding.QuickStart`): Connect with OpenRouter,
the demo, and the model servers found on this computer
(:class:`~wiggum.session.onboarding.LocalList` decides when to look and what
"Use" keeps).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Coroutine
from typing import Any

from wiggum.session.local_servers import LOOKING
from wiggum.session.onboarding import (
    FirstRun,
    FirstRunFields,
    LocalList,
    QuickStart,
    prefill,
    proxy_offered,
)
from wiggum.session.providers import Chip, chip_after_test
from wiggum.ui.connection import Diagnosis
from wiggum.ui.markup import onboarding as markup
from wiggum.ui.presets import preset
from wiggum.ui.provider_form import onboarding_key_field
from wiggum.ui.settings import ProviderSettings

from ..dom import Listeners, dispatch, mount, mount_all, on_action, say, spawn
from .settings.provider_form import ConnectionTest, show_key, show_models

__all__ = ["Onboarding"]

OnDone = Callable[[ProviderSettings, str], Awaitable[None]]
#: The chip to show once a test passed (``None``: the form changed since, the settings' own).
OnTested = Callable[[Chip | None], None]


class Onboarding:
    def __init__(
        self,
        on_done: OnDone,
        *,
        origin: str,
        open_settings: Callable[[], None],
        quick: QuickStart,
        on_tested: OnTested = lambda chip: None,
    ) -> None:
        self.on_done = on_done
        self.on_tested = on_tested
        self.open_settings = open_settings
        self.state = FirstRun(origin)
        self.local = LocalList(origin, quick.find_local)
        self._looked = False
        self.listeners = Listeners()
        self.parts = f = mount(markup.form())
        self.el, self.provider, self.base_url, self.key = f.el, f.provider, f.base_url, f.api_key
        self.proxy, self.proxy_row, self.proxy_url = f.proxy, f.proxy_row, f.proxy_url
        self.model, self.models, self.model_row = f.model, f.models, f.model_row
        self.test = ConnectionTest(f)
        #: What each ``data-action`` in the form does.
        self._actions: dict[str, Callable[[], Any]] = {
            "onb-test": self._test,
            "onb-start": lambda: spawn(self._start(), what="finish onboarding"),
            "onb-settings": self.open_settings,
            "onb-openrouter": quick.connect_openrouter,
            "onb-demo": quick.demo,
            "onb-find-local": self._look,
        }
        self.listeners.on(self.el, "click", lambda e: dispatch(e, self._actions))
        self.listeners.on(
            self.el, "click", lambda e: on_action(e, {"onb-use-local": self._use_local})
        )
        self.listeners.on(self.provider, "change", lambda e: self._pick())
        self.listeners.on(self.proxy, "change", lambda e: self._proxy_shown())
        for control in (self.key, self.base_url, self.proxy_url, self.proxy):
            self.listeners.on(control, "input", lambda e: self._changed())
        self._pick()

    # ------------------------------------------------------------ state

    def prefill(self, p: ProviderSettings | None, proxy_template: str) -> None:
        """Start from what the person has already (a half-set-up provider)."""
        start = prefill(p, proxy_template)
        if start is None:
            return
        self.provider.value = start.preset_id
        self._pick()
        for control, value in (
            (self.base_url, start.base_url),
            (self.key, start.api_key),
            (self.model, start.model),
            (self.proxy_url, start.proxy_url),
        ):
            if value is not None:
                control.value = value
        self.proxy.checked = start.proxy
        self._proxy_shown()

    def shown(self) -> None:
        """The form is on screen: look for local servers once, where that asks nothing."""
        if self.local.on_open and not self._looked:
            self._look()

    def _look(self) -> None:
        self._looked = True
        say(self.parts.local_status, LOOKING)
        spawn(self._show_local(), what="look for local model servers")

    async def _show_local(self) -> None:
        shown = await self.local.look()
        if shown is not None:
            text, rows = shown
            say(self.parts.local_status, text)
            self.parts.local_list.replaceChildren(*mount_all(markup.local_rows(rows)))

    def _use_local(self, button: Any) -> None:
        chosen = self.local.chosen(str(button.getAttribute("data-index")))
        if chosen is not None:
            spawn(self.on_done(chosen, ""), what="use a local model server")

    def _pick(self) -> None:
        pr = preset(str(self.provider.value))
        self.base_url.value = pr.base_url
        show_key(self.parts, onboarding_key_field(pr))
        self.model.value = pr.model
        offered = proxy_offered(pr.id)
        self.proxy.parentElement.hidden = not offered
        self.proxy.checked = pr.proxy and offered
        self._proxy_shown()
        self._changed()

    def _proxy_shown(self) -> None:
        self.proxy_row.hidden = not self.proxy.checked

    def _changed(self) -> None:
        was_tested = self.state.tested
        self.state.changed()
        self.model_row.hidden = True
        if was_tested:
            self.on_tested(None)

    def show_notice(self, text: str | None) -> None:
        """A line at the card's top (why an action waits for it); ``None`` clears it."""
        self.parts.notice.textContent = text or ""
        self.parts.notice.hidden = text is None

    def _fields(self) -> FirstRunFields:
        return FirstRunFields(
            str(self.provider.value),
            str(self.base_url.value),
            str(self.key.value),
            str(self.model.value),
            bool(self.proxy.checked),
            str(self.proxy_url.value),
        )

    # ------------------------------------------------------------ actions

    def _test(self) -> None:
        # Marked at once, so an earlier result is never read as this one's.
        self.test.pending()
        spawn(self._run_test(self.state.test(self._fields())), what="test connection")

    async def _run_test(self, test: Coroutine[Any, Any, Diagnosis | None]) -> None:
        d = await self.test.run(test)
        if d is None:
            return
        then = self.state.follow_up(d, str(self.model.value))
        if then.offer_models:
            self.show_notice(None)  # what it asked for is done: the model is what is left
            self.on_tested(chip_after_test(preset(str(self.provider.value)).name))
            show_models(self.models, then.models)
            if then.model is not None:
                self.model.value = then.model
            self.model_row.hidden = False
            self.model.focus()
        elif then.turn_on_proxy:
            self.proxy.checked = True
            self._proxy_shown()

    async def _start(self) -> None:
        chosen = self.state.start(self._fields())
        if chosen == "model":
            self.model.focus()
        elif chosen is not None:
            await self.on_done(chosen.provider, chosen.template)

    def close(self) -> None:
        self.listeners.close()
