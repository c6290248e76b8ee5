"""The Publish dialog: put the project's site on GitHub Pages, on the person's click.

Token (kept in the settings record like provider keys, never shown back in
full, never logged), repository name, the last-chance list of files, then
the steps as they happen and the live URL with GitHub's build status.  What
the dialog shows and does is :class:`wiggum.session.publish.PublishSession`,
which asks the app through :class:`~wiggum.session.publish.PublishSource`;
this only gathers what was typed and draws the session's view into the
markup of ``wiggum.ui.markup.publish``.
"""

from __future__ import annotations

from typing import Any

from wiggum.llm.transport import Transport
from wiggum.session.publish import PublishSession, PublishSource, ResultView, SummaryRow
from wiggum.ui.markup import publish as markup

from ..dom import Listeners, mount, mount_all, spawn

__all__ = ["PublishPanel"]


def _fetch_transport() -> Transport:
    from ..fetch_transport import FetchTransport

    return FetchTransport()


class PublishPanel:
    def __init__(self, source: PublishSource) -> None:
        self.session = PublishSession(source, _fetch_transport)
        self.session.on_change = self._render
        self.listeners = Listeners()
        #: The summary drawn last (redrawn only when it changed).
        self._summary: tuple[str, list[SummaryRow]] | None = None
        #: A rate-limit countdown is showing (scrolled into view when it starts).
        self._waiting = False
        self.button = mount(markup.open_button()).el
        p = mount(markup.dialog())
        self.el, self.token, self.api, self.repo, self.repo_hint = (
            p.el,
            p.token,
            p.api,
            p.repo,
            p.repo_hint,
        )
        self.summary_head, self.summary, self.steps = p.summary_head, p.summary, p.steps
        self.error, self.result, self.go_btn, self.close_btn = p.error, p.result, p.go, p.close
        self.listeners.on(self.button, "click", lambda e: spawn(self.open(), what="open publish"))
        self.listeners.on(p.form, "submit", self._on_submit)
        self.listeners.on(self.close_btn, "click", lambda e: self.close())
        self.listeners.on(self.repo, "input", lambda e: self._show_repo_hint())

    # ------------------------------------------------------------ open / close

    async def open(self) -> None:
        form = await self.session.open()
        self.token.value = form.token
        self.api.value = form.api
        self.repo.value = form.repo
        self._show_repo_hint()
        if not self.el.open:
            self.el.showModal()
        (self.repo if self.token.value else self.token).focus()

    def close(self) -> None:
        # (Escape closes it too; a publish under way carries on.)
        if self.el.open:
            self.el.close()

    # ------------------------------------------------------------ showing

    def _show_repo_hint(self) -> None:
        self.repo_hint.textContent = self.session.repo_hint(str(self.repo.value))

    def _render(self, reveal: str | None) -> None:
        view = self.session.view()
        if (view.summary_head, view.rows) != self._summary:
            self._summary = (view.summary_head, view.rows)
            self.summary_head.textContent = view.summary_head
            self.summary.replaceChildren(
                *mount_all(markup.file_row(r.path, r.text, added=r.added) for r in view.rows)
            )
        self.steps.hidden = view.steps is None
        self.steps.replaceChildren(
            *mount_all(markup.step(s.step, s.state, s.text) for s in view.steps or [])
        )
        waiting = view.wait_left is not None
        if waiting and not self._waiting and self.el.open:
            # A wait for GitHub's limit: its countdown in view, not below the fold.
            active = self.steps.querySelector("[data-state=active]")
            if active is not None:
                active.scrollIntoView(False)
        self._waiting = waiting
        self.error.textContent = view.error or ""
        self.error.hidden = view.error is None
        self._show_result(view.result)
        self.go_btn.textContent = view.go_label
        self.go_btn.disabled = not view.go_enabled
        if reveal == "error":
            self.error.scrollIntoView(False)  # on a phone the dialog scrolls: show the outcome
        elif reveal == "result" and self.el.open:
            self.result.scrollIntoView(False)  # the URL, not the file list, ends in view

    def _show_result(self, result: ResultView | None) -> None:
        self.result.hidden = result is None
        if result is None:
            return
        self.result.className = markup.result_class(result.failed)
        shown = markup.result(result.text, result.url, result.run_url)
        self.result.replaceChildren(*mount_all(shown))

    # ------------------------------------------------------------ publishing

    def _on_submit(self, event: Any) -> None:
        event.preventDefault()
        # Busy at once, so a second click or Enter cannot start a second publish.
        if self.session.start():
            spawn(self._publish(), what="publish")

    async def _publish(self) -> None:
        token, repo, api = str(self.token.value), str(self.repo.value), str(self.api.value)
        if not await self.session.run(token, repo, api):
            self.token.focus()
        self._show_repo_hint()
        # Finished publishes, counted: what a test (or a script) can wait for.
        runs = int(self.el.getAttribute("data-runs") or 0)
        self.el.setAttribute("data-runs", str(runs + 1))
