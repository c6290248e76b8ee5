"""The Publish dialog as markup: the header's Publish button, the form (token,
repository, GitHub Enterprise's API address), the files to publish, the steps
as they happen and the live URL.

``wiggum.web.views.publish`` mounts these and draws
:class:`wiggum.session.publish.PublishSession`'s view into them.
"""

from __future__ import annotations

from ...deploy.github import PERMISSIONS, TOKEN_PAGE
from ..markdown import El
from ..tree import btn, e
from .forms import field, heading, hint, link, modal, submit, text_input

__all__ = [
    "PULL_CHOOSE",
    "dialog",
    "file_row",
    "open_button",
    "pull_view",
    "result",
    "result_class",
    "step",
]


def open_button() -> El:
    """The header's button that opens the dialog."""
    return btn(
        "Publish",
        testid="publish-button",
        cls="btn btn-small publish-btn",
        aria_haspopup="dialog",
        title="Publish this project to GitHub Pages",
    )


def dialog() -> El:
    """The dialog; refs ``form``, ``token``, ``repo``, ``repo_hint``, ``api``,
    ``summary_head``, ``summary``, ``steps``, ``error``, ``result``, ``close``, ``go``."""
    token_link = link("publish-token-link", "Make a fine-grained token on GitHub", href=TOKEN_PAGE)
    token = field(
        "GitHub token",
        text_input(
            "pub-token", "publish-token", type_="password", placeholder="github_pat_…", ref="token"
        ),
        hint(
            token_link,
            f" with access to your repositories and these permissions: {PERMISSIONS}. "
            "It stays in this browser, like your provider keys.",
        ),
        for_id="pub-token",
    )
    advanced = e(
        "details",
        "publish-advanced",
        e("summary", None, "GitHub Enterprise"),
        field(
            "API address",
            text_input("pub-api", "publish-api", type_="url", ref="api", spellcheck=None),
            hint("For GitHub Enterprise Server: https://HOST/api/v3"),
            for_id="pub-api",
        ),
    )
    form = e(
        "form",
        "settings-form publish-form",
        heading("dialog-head", "Publish to GitHub Pages", "publish-title"),
        e(
            "section",
            "dialog-section",
            token,
            field(
                "Repository name",
                text_input("pub-repo", "publish-repo", ref="repo"),
                hint(testid="publish-repo-hint", ref="repo_hint"),
                for_id="pub-repo",
            ),
            advanced,
        ),
        e(
            "section",
            "dialog-section",
            e("h3", None, "What will be published"),
            e("p", "publish-count", testid="publish-count", ref="summary_head"),
            e("ul", "publish-files", testid="publish-summary", ref="summary"),
            e("ol", "publish-steps", testid="publish-steps", ref="steps", hidden=True),
            e("p", "publish-error", testid="publish-error", ref="error", role="alert", hidden=True),
            e("div", "publish-result", testid="publish-result", ref="result", hidden=True),
            e(
                "div",
                "publish-pull",
                testid="pull-result",
                ref="pull_box",
                role="status",
                hidden=True,
            ),
        ),
        e(
            "footer",
            "dialog-foot",
            btn("Close", action="close", testid="publish-close", ref="close"),
            btn("Pull from GitHub", action="pull", testid="publish-pull", ref="pull", data_pull=""),
            submit("Publish", "publish-go", ref="go"),
        ),
        ref="form",
        method="dialog",
    )
    return modal("settings-dialog publish-dialog", "publish-dialog", "publish-title", form)


def file_row(path: str, text: str, *, added: bool) -> El:
    """One file to publish: its path and size (``added``: Wiggum adds it)."""
    return e(
        "li",
        None,
        e("span", "publish-path", path),
        e("span", "publish-size" + (" publish-added" if added else ""), text),
    )


def step(name: str, state: str, text: str) -> El:
    """One step of a publish, marked by its state (``pending``, ``done``, ``failed``…)."""
    return e(
        "li",
        f"step step-{state}",
        e("span", "step-mark", aria_hidden="true"),
        e("span", None, text),
        data_state=state,
        data_step=name,
    )


def result_class(failed: bool) -> str:
    return "publish-result" + (" publish-result-failed" if failed else "")


def result(text: str, url: str, run_url: str = "") -> list[El]:
    """The outcome: GitHub's build status, the live URL and the workflow run, each a
    link only when given (the session passes https addresses only)."""
    out = [e("p", "publish-status", text, testid="publish-status")]
    if url:
        out.append(link("publish-url", url, href=url, cls="publish-url"))
    if run_url:
        out.append(
            link(
                "publish-run", "The build's workflow run on GitHub", href=run_url, cls="publish-run"
            )
        )
    return out


#: The action of a conflict's choice buttons (``data-path``, ``data-choice``).
PULL_CHOOSE = "pull-choose"
#: What each choice for a file both sides changed says.
CHOICES = {"mine": "Keep mine", "theirs": "Take GitHub's", "both": "Open both in the editor"}


def pull_view(text: str, conflicts: list[tuple[str, str]], failed: bool = False) -> list[El]:
    """What a pull said, and each file both sides changed with its three choices (the one
    made pressed)."""
    rows = [
        e(
            "li",
            "pull-conflict",
            e("code", None, path),
            *(
                btn(
                    label,
                    action=PULL_CHOOSE,
                    testid=f"pull-{choice}",
                    cls="btn btn-small",
                    data_path=path,
                    data_choice=choice,
                    data_pull="",
                    aria_pressed=str(choice == chosen).lower(),
                )
                for choice, label in CHOICES.items()
            ),
            testid="pull-conflict",
            data_path=path,
        )
        for path, chosen in conflicts
    ]
    out = [e("p", "publish-error" if failed else None, text, testid="pull-text")]
    if rows:
        out.append(e("ul", "pull-conflicts", rows))
    return out
