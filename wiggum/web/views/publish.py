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
from wiggum.session.pulling import PullSession
from wiggum.ui.markup import publish as markup

from ..dom import Listeners, is_null, mount, mount_all, say, spawn

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
        self.parts = p = mount(markup.dialog())
        self.el = p.el
        self.listeners.on(self.button, "click", lambda e: spawn(self.open(), what="open publish"))
        self.listeners.on(p.form, "submit", self._on_submit)
        self.listeners.on(self.parts.close, "click", lambda e: self.close())
        self.listeners.on(self.parts.repo, "input", lambda e: self._show_repo_hint())
        # Pull from GitHub: its words, and each conflict's choices, below the result.
        self.source = source
        self.pull = PullSession(self.session, lambda: source.history, self._open_file)
        self.listeners.on(self.el, "click", self._on_pull)

    def _on_pull(self, event: Any) -> None:
        target = event.target.closest("[data-pull]")
        if not is_null(target):
            p = self.parts
            going = self.pull.act(target.getAttribute, str(p.token.value), str(p.api.value))
            spawn(self._pulled(going), what="pull")

    def _open_file(self, path: str) -> None:
        self.close()  # the editor in front of the dialog
        self.source.open_file(path)

    async def _pulled(self, going: Any) -> None:
        view = await going
        box = self.parts.pull_box
        box.hidden = False
        box.replaceChildren(*mount_all(markup.pull_view(view.text, view.conflicts, view.failed)))

    # ------------------------------------------------------------ open / close

    async def open(self) -> None:
        form = await self.session.open()
        p = self.parts
        p.token.value = form.token
        p.api.value = form.api
        p.repo.value = form.repo
        self._show_repo_hint()
        if not self.el.open:
            self.el.showModal()
        (p.repo if p.token.value else p.token).focus()

    def close(self) -> None:
        # (Escape closes it too; a publish under way carries on.)
        if self.el.open:
            self.el.close()

    # ------------------------------------------------------------ showing

    def _show_repo_hint(self) -> None:
        self.parts.repo_hint.textContent = self.session.repo_hint(str(self.parts.repo.value))

    def _render(self, reveal: str | None) -> None:
        view = self.session.view()
        if (view.summary_head, view.rows) != self._summary:
            self._summary = (view.summary_head, view.rows)
            self.parts.summary_head.textContent = view.summary_head
            self.parts.summary.replaceChildren(
                *mount_all(markup.file_row(r.path, r.text, added=r.added) for r in view.rows)
            )
        self.parts.steps.hidden = view.steps is None
        self.parts.steps.replaceChildren(
            *mount_all(markup.step(s.step, s.state, s.text) for s in view.steps or [])
        )
        waiting = view.wait_left is not None
        if waiting and not self._waiting and self.el.open:
            # A wait for GitHub's limit: its countdown in view, not below the fold.
            active = self.parts.steps.querySelector("[data-state=active]")
            if not is_null(active):
                active.scrollIntoView(False)
        self._waiting = waiting
        say(self.parts.error, view.error)
        self._show_result(view.result)
        self.parts.go.textContent = view.go_label
        self.parts.go.disabled = not view.go_enabled
        if reveal == "error":  # on a phone the dialog scrolls: show the outcome
            self.parts.error.scrollIntoView(False)
        elif reveal == "result" and self.el.open:
            self.parts.result.scrollIntoView(False)  # the URL, not the file list, ends in view

    def _show_result(self, result: ResultView | None) -> None:
        self.parts.result.hidden = result is None
        if result is None:
            return
        self.parts.result.className = markup.result_class(result.failed)
        shown = markup.result(result.text, result.url, result.run_url)
        self.parts.result.replaceChildren(*mount_all(shown))

    # ------------------------------------------------------------ publishing

    def _on_submit(self, event: Any) -> None:
        event.preventDefault()
        # Busy at once, so a second click or Enter cannot start a second publish.
        if self.session.start():
            spawn(self._publish(), what="publish")

    async def _publish(self) -> None:
        p = self.parts
        if not await self.session.run(str(p.token.value), str(p.repo.value), str(p.api.value)):
            p.token.focus()
        self._show_repo_hint()
        # Finished publishes, counted: what a test (or a script) can wait for.
        runs = int(self.el.getAttribute("data-runs") or 0)
        self.el.setAttribute("data-runs", str(runs + 1))
