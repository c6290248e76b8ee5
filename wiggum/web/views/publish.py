"""The Publish dialog: put the project's site on GitHub Pages, on the person's click.

Token (kept in the settings record like provider keys, never shown back in
full, never logged), repository name, the last-chance list of files, then
the steps as they happen and the live URL with GitHub's build status.  What
the dialog shows and does is :class:`wiggum.session.publish.PublishSession`,
which asks the app through :class:`~wiggum.session.publish.PublishSource`;
this only gathers what was typed and draws the session's view.
"""

from __future__ import annotations

from typing import Any

from wiggum.deploy.github import PERMISSIONS, TOKEN_PAGE
from wiggum.llm.transport import Transport
from wiggum.session.publish import PublishSession, PublishSource, ResultView, SummaryRow

from ..dom import Listeners, button, el, spawn
from .forms import field, heading, hint, link, modal, submit, text_input

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
        self.button = button(
            "Publish",
            testid="publish-button",
            cls="btn btn-small publish-btn",
            aria_haspopup="dialog",
            title="Publish this project to GitHub Pages",
        )
        self.token = text_input(
            "pub-token", "publish-token", type_="password", placeholder="github_pat_…"
        )
        self.api = text_input("pub-api", "publish-api", type_="url", spellcheck=None)
        self.repo = text_input("pub-repo", "publish-repo")
        self.repo_hint = el("p", "field-hint", testid="publish-repo-hint")
        self.summary_head = el("p", "publish-count", testid="publish-count")
        self.summary = el("ul", "publish-files", testid="publish-summary")
        self.steps = el("ol", "publish-steps", testid="publish-steps", hidden=True)
        self.error = el("p", "publish-error", testid="publish-error", role="alert", hidden=True)
        self.result = el("div", "publish-result", testid="publish-result", hidden=True)
        self.go_btn = submit("Publish", "publish-go")
        self.close_btn = button("Close", action="close", testid="publish-close")
        token_link = link(
            "publish-token-link", "Make a fine-grained token on GitHub", href=TOKEN_PAGE
        )
        self.form = el(
            "form",
            "settings-form publish-form",
            heading("dialog-head", "Publish to GitHub Pages", "publish-title"),
            el(
                "section",
                "dialog-section",
                field(
                    "GitHub token",
                    self.token,
                    for_id="pub-token",
                    hint=hint(
                        token_link,
                        f" with access to your repositories and these permissions: {PERMISSIONS}. "
                        "It stays in this browser, like your provider keys.",
                    ),
                ),
                field("Repository name", self.repo, for_id="pub-repo", hint=self.repo_hint),
                el(
                    "details",
                    "publish-advanced",
                    el("summary", None, "GitHub Enterprise"),
                    field(
                        "API address",
                        self.api,
                        for_id="pub-api",
                        hint=hint("For GitHub Enterprise Server: https://HOST/api/v3"),
                    ),
                ),
            ),
            el(
                "section",
                "dialog-section",
                el("h3", None, "What will be published"),
                [self.summary_head, self.summary, self.steps, self.error, self.result],
            ),
            el("footer", "dialog-foot", self.close_btn, self.go_btn),
            method="dialog",
        )
        self.el = modal(
            "settings-dialog publish-dialog", "publish-dialog", "publish-title", self.form
        )
        self.listeners.on(self.button, "click", lambda e: spawn(self.open(), what="open publish"))
        self.listeners.on(self.form, "submit", self._on_submit)
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
                *[
                    el(
                        "li",
                        None,
                        el("span", "publish-path", row.path),
                        el(
                            "span",
                            "publish-size" + (" publish-added" if row.added else ""),
                            row.text,
                        ),
                    )
                    for row in view.rows
                ]
            )
        self.steps.hidden = view.steps is None
        self.steps.replaceChildren(
            *[
                el(
                    "li",
                    f"step step-{s.state}",
                    el("span", "step-mark", aria_hidden="true"),
                    el("span", None, s.text),
                    data_state=s.state,
                    data_step=s.step,
                )
                for s in view.steps or []
            ]
        )
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
        self.result.className = "publish-result" + (
            " publish-result-failed" if result.failed else ""
        )
        self.result.replaceChildren(
            el("p", "publish-status", result.text, testid="publish-status"),
            link("publish-url", result.url, href=result.url, cls="publish-url"),
        )

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
