"""The Publish dialog: put the project's site on GitHub Pages, on the person's click.

Token (kept in the settings record like provider keys, never shown back in
full, never logged), repository name, the last-chance list of files, then
the steps as they happen and the live URL with GitHub's build status.  The
work itself is ``wiggum.deploy.publish``; this only gathers and shows.

What was chosen (owner/repo/branch, blobs already uploaded) is kept per
project in the meta store under ``publish:<project id>``: no token in it.
"""

from __future__ import annotations

import logging
from typing import Any

from pydantic import SecretStr

from wiggum.deploy.github import DEFAULT_API, PERMISSIONS, TOKEN_PAGE, GitHub, GitHubError
from wiggum.deploy.publish import (
    PRIVATE_DIRS,
    STEPS,
    PublishResult,
    PublishState,
    added_by_wiggum,
    publish,
    repo_name,
    summary,
)
from wiggum.fs.sizes import format_size

from ..dom import Listeners, h, is_null, spawn

__all__ = ["PublishPanel"]

log = logging.getLogger("wiggum.web.publish")

_STEP_LABELS = {
    "account": "Check the token",
    "repository": "Find or create the repository",
    "files": "Upload the files",
    "commit": "Write one commit",
    "pages": "Turn on GitHub Pages",
    "build": "Wait for the Pages build",
}


def state_key(project_id: str) -> str:
    return f"publish:{project_id}"


class PublishPanel:
    def __init__(self, app: Any) -> None:
        self.app = app
        self.listeners = Listeners()
        self.files: dict[str, bytes] = {}
        self.state = PublishState()
        self.running = False
        self._step_text: dict[str, str] = {}
        self._current: str | None = None
        self.button = h(
            "button",
            {
                "type": "button",
                "class": "btn btn-small publish-btn",
                "data-testid": "publish-button",
                "aria-haspopup": "dialog",
                "title": "Publish this project to GitHub Pages",
            },
            "Publish",
        )
        self.token = h(
            "input",
            {
                "id": "pub-token",
                "type": "password",
                "autocomplete": "off",
                "spellcheck": "false",
                "placeholder": "github_pat_…",
                "data-testid": "publish-token",
            },
        )
        self.api = h(
            "input",
            {
                "id": "pub-api",
                "type": "url",
                "autocomplete": "off",
                "data-testid": "publish-api",
            },
        )
        self.repo = h(
            "input",
            {
                "id": "pub-repo",
                "type": "text",
                "autocomplete": "off",
                "spellcheck": "false",
                "data-testid": "publish-repo",
            },
        )
        self.repo_hint = h("p", {"class": "field-hint", "data-testid": "publish-repo-hint"})
        self.summary_head = h("p", {"class": "publish-count", "data-testid": "publish-count"})
        self.summary = h("ul", {"class": "publish-files", "data-testid": "publish-summary"})
        self.steps = h(
            "ol", {"class": "publish-steps", "data-testid": "publish-steps", "hidden": True}
        )
        self.error = h(
            "p",
            {
                "class": "publish-error",
                "role": "alert",
                "data-testid": "publish-error",
                "hidden": True,
            },
        )
        self.result = h(
            "div",
            {"class": "publish-result", "data-testid": "publish-result", "hidden": True},
        )
        self.go_btn = h(
            "button",
            {"type": "submit", "class": "btn btn-primary", "data-testid": "publish-go"},
            "Publish",
        )
        self.close_btn = h(
            "button",
            {
                "type": "button",
                "class": "btn",
                "data-action": "close",
                "data-testid": "publish-close",
            },
            "Close",
        )
        link = h(
            "a",
            {
                "href": TOKEN_PAGE,
                "target": "_blank",
                "rel": "noopener noreferrer",
                "data-testid": "publish-token-link",
            },
            "Make a fine-grained token on GitHub",
        )
        form = h(
            "form",
            {"method": "dialog", "class": "settings-form publish-form"},
            h(
                "header",
                {"class": "dialog-head"},
                h("h2", {"id": "publish-title", "text": "Publish to GitHub Pages"}),
            ),
            h(
                "section",
                {"class": "dialog-section"},
                h(
                    "div",
                    {"class": "field"},
                    h("label", {"for": "pub-token", "text": "GitHub token"}),
                    self.token,
                    h(
                        "p",
                        {"class": "field-hint"},
                        link,
                        f" with access to your repositories and these permissions: {PERMISSIONS}. "
                        "It stays in this browser, like your provider keys.",
                    ),
                ),
                h(
                    "div",
                    {"class": "field"},
                    h("label", {"for": "pub-repo", "text": "Repository name"}),
                    self.repo,
                    self.repo_hint,
                ),
                h(
                    "details",
                    {"class": "publish-advanced"},
                    h("summary", {"text": "GitHub Enterprise"}),
                    h(
                        "div",
                        {"class": "field"},
                        h("label", {"for": "pub-api", "text": "API address"}),
                        self.api,
                        h(
                            "p",
                            {
                                "class": "field-hint",
                                "text": "For GitHub Enterprise Server: https://HOST/api/v3",
                            },
                        ),
                    ),
                ),
            ),
            h(
                "section",
                {"class": "dialog-section"},
                h("h3", {"text": "What will be published"}),
                self.summary_head,
                self.summary,
                self.steps,
                self.error,
                self.result,
            ),
            h("footer", {"class": "dialog-foot"}, self.close_btn, self.go_btn),
        )
        self.form = form
        self.el = h(
            "dialog",
            {
                "class": "settings-dialog publish-dialog",
                "data-testid": "publish-dialog",
                "aria-labelledby": "publish-title",
            },
            form,
        )
        self.listeners.on(self.button, "click", lambda e: spawn(self.open(), what="open publish"))
        self.listeners.on(form, "submit", self._on_submit)
        self.listeners.on(self.close_btn, "click", lambda e: self.close())
        self.listeners.on(self.el, "cancel", self._on_cancel)
        self.listeners.on(self.repo, "input", lambda e: self._show_repo_hint())

    # ------------------------------------------------------------ open / close

    async def open(self) -> None:
        app = self.app
        project_id = app.project_id
        settings = app.settings
        self.token.value = settings.github_token.get_secret_value()
        self.api.value = settings.github_api or DEFAULT_API
        self.state = PublishState.model_validate(
            await app.storage.get_meta(state_key(project_id)) or {}
        )
        name = self.state.repo or repo_name(await self._project_name(project_id))
        self.repo.value = name
        self._show_repo_hint()
        self.files = await self._read_files()
        self._show_summary()
        if not self.running:
            self.steps.hidden = True
            self.error.hidden = True
            self.result.hidden = True
            if self.state.url:
                self._show_result_link(
                    self.state.url, "Published before. Publish again to update it."
                )
        if not self.el.open:
            self.el.showModal()
        (self.repo if self.token.value else self.token).focus()

    def close(self) -> None:
        if self.el.open:
            self.el.close()

    def _on_cancel(self, event: Any) -> None:
        # Escape while publishing: the dialog may close, the publish carries on.
        pass

    async def _project_name(self, project_id: str) -> str:
        for p in await self.app.storage.list_projects():
            if p["id"] == project_id:
                return str(p.get("name") or "")
        return ""

    async def _read_files(self) -> dict[str, bytes]:
        coordinator = self.app.coordinator
        if coordinator is None:
            return {}
        fs = coordinator.fs
        out: dict[str, bytes] = {}
        for path in await fs.list(""):
            if any(path.startswith(d) for d in PRIVATE_DIRS):
                continue
            out[path] = await fs.read_bytes(path)
        return out

    # ------------------------------------------------------------ showing

    def _show_repo_hint(self) -> None:
        name = str(self.repo.value).strip()
        if self.state.repo and name == self.state.repo:
            text = f"Updates github.com/{self.state.owner}/{name}, published before."
        elif name:
            text = f"A new public repository called {repo_name(name)} is created in your account."
        else:
            text = "Give the repository a name."
        self.repo_hint.textContent = text

    def _show_summary(self) -> None:
        rows = summary(self.files)
        total = sum(n for _, n in rows)
        if rows:
            self.summary_head.textContent = (
                f"{len(rows)} file{'s' if len(rows) != 1 else ''}, {format_size(total)}. "
                "Wiggum's own notes (.ralph/, .chief/) and the history stay here."
            )
        else:
            self.summary_head.textContent = "The project has no files yet: nothing to publish."
        self.summary.replaceChildren(
            *[
                h(
                    "li",
                    {},
                    h("span", {"class": "publish-path", "text": path}),
                    h(
                        "span",
                        {
                            "class": "publish-size"
                            + (" publish-added" if added_by_wiggum(path, self.files) else ""),
                            "text": "added: GitHub Pages serves your files as they are (no Jekyll)"
                            if added_by_wiggum(path, self.files)
                            else format_size(n),
                        },
                    ),
                )
                for path, n in rows
            ]
        )
        self.go_btn.disabled = self.running or not rows

    def _render_steps(self, current: str | None, failed: bool = False, done: bool = False) -> None:
        self.steps.hidden = False
        items = []
        reached = current is None
        for step in STEPS:
            if step == current:
                state = "done" if done else "failed" if failed else "active"
                reached = True
                text = _STEP_LABELS[step] if done else self._step_text.get(step, _STEP_LABELS[step])
            elif not reached:
                state, text = "done", _STEP_LABELS[step]
            else:
                state, text = "pending", _STEP_LABELS[step]
            items.append(
                h(
                    "li",
                    {"class": f"step step-{state}", "data-state": state, "data-step": step},
                    h("span", {"class": "step-mark", "aria-hidden": "true"}),
                    h("span", {"text": text}),
                )
            )
        self.steps.replaceChildren(*items)

    def _show_result_link(self, url: str, text: str, *, failed: bool = False) -> None:
        self.result.hidden = False
        self.result.className = "publish-result" + (" publish-result-failed" if failed else "")
        self.result.replaceChildren(
            h("p", {"class": "publish-status", "data-testid": "publish-status", "text": text}),
            h(
                "a",
                {
                    "href": url,
                    "target": "_blank",
                    "rel": "noopener noreferrer",
                    "class": "publish-url",
                    "data-testid": "publish-url",
                },
                url,
            ),
        )
        if self.el.open:
            self.result.scrollIntoView(False)  # the URL, not the file list, ends in view

    # ------------------------------------------------------------ publishing

    def _on_submit(self, event: Any) -> None:
        event.preventDefault()
        if not self.running:
            # Busy at once, so a second click or Enter cannot start a second publish.
            self.running = True
            self.go_btn.disabled = True
            spawn(self.run(), what="publish")

    async def run(self) -> None:
        token = str(self.token.value).strip()
        name = repo_name(str(self.repo.value))
        api = str(self.api.value).strip() or DEFAULT_API
        if not token:
            self._fail(None, "Paste a GitHub token first (the link above makes one).")
            self.token.focus()
            self._finished()
            return
        await self._keep_token(token, api)
        self.running = True
        self.go_btn.disabled = True
        self.go_btn.textContent = "Publishing…"
        self.error.hidden = True
        self.result.hidden = True
        self._step_text = {}
        self._current = "account"
        self._render_steps("account")
        project_id = self.app.project_id
        try:
            self.files = await self._read_files()
            self._show_summary()
            gh = GitHub(self._transport(), token, api)
            result = await publish(gh, self.files, self.state, name, progress=self._progress)
        except GitHubError as err:
            self._fail(self._current, err.message)
        except Exception as exc:  # never let a surprise blank the dialog
            log.warning("publish failed: %s", type(exc).__name__)
            self._fail(
                self._current,
                f"Publishing stopped on an unexpected error ({type(exc).__name__}). Nothing "
                "was reported as published; publish again to continue.",
            )
        else:
            self._done(result)
        finally:
            await self._save_state(project_id)
            self._finished()

    def _finished(self) -> None:
        self.running = False
        self._show_repo_hint()
        self.go_btn.textContent = "Publish again" if self.state.commit else "Publish"
        self.go_btn.disabled = not self.files
        # Finished publishes, counted: what a test (or a script) can wait for.
        runs = int(self.el.getAttribute("data-runs") or 0)
        self.el.setAttribute("data-runs", str(runs + 1))

    def _transport(self) -> Any:
        from ..fetch_transport import FetchTransport

        return FetchTransport()

    async def _keep_token(self, token: str, api: str) -> None:
        settings = self.app.settings
        if settings.github_token.get_secret_value() == token and settings.github_api == api:
            return
        updated = settings.model_copy(deep=True)
        updated.github_token = SecretStr(token)
        updated.github_api = api
        await self.app.save_settings(updated)

    async def _save_state(self, project_id: str | None) -> None:
        if not project_id:
            return
        try:
            await self.app.storage.put_meta(state_key(project_id), self.state.model_dump())
        except Exception as exc:
            log.warning("publish state not stored: %s", type(exc).__name__)

    def _progress(self, step: str, text: str) -> None:
        self._current = step
        self._step_text[step] = text
        self._render_steps(step)

    def _fail(self, step: str | None, message: str) -> None:
        if step is not None:
            self._render_steps(step, failed=True)
        self.error.textContent = message
        self.error.hidden = False
        self.error.scrollIntoView(False)  # on a phone the dialog scrolls: show the outcome

    def _done(self, result: PublishResult) -> None:
        self._render_steps("build", done=True)
        if result.status == "built":
            text = (
                f"Live: {len(result.files)} files published. GitHub may take a minute to show it."
            )
            self._show_result_link(result.url, text)
        elif result.status == "errored":
            self._show_result_link(
                result.url,
                "The files are on GitHub, but GitHub Pages could not build the site: "
                f"{result.message or 'no reason given'}. Fix that, then publish again.",
                failed=True,
            )
        else:
            self._show_result_link(
                result.url,
                "The files are on GitHub; GitHub Pages is still building. The address "
                "works once it is done (usually within a few minutes).",
            )

    def destroy(self) -> None:
        self.listeners.close()
        if not is_null(self.el):
            self.el.remove()
