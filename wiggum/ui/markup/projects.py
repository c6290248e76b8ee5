"""The projects' markup: the switcher in the header, the small dialog that names
a new or renamed project, and the projects dialog with its rows, the question
before a delete and an import's outcome.

``wiggum.web.views.project_switcher`` and ``projects_dialog`` mount these;
what the rows and lines say is ``wiggum.ui.projects``.  Light: the switcher
is on the first screen (no pydantic).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from ..markdown import El
from ..projects import StorageView, delete_question, imported_text, row_actions
from ..tree import btn, e
from .forms import field, heading, hint, modal, submit, text_input

if TYPE_CHECKING:
    from wiggum.project.importing import ImportResult

__all__ = [
    "NEW",
    "delete_confirm",
    "github_form",
    "import_result",
    "name_dialog",
    "name_words",
    "project_options",
    "project_row",
    "projects_dialog",
    "switcher",
    "without_history_offer",
]

#: The switcher's value for "+ New project…".
NEW = "__new__"


def _icon(text: str, action: str, testid: str, label: str, **attrs: Any) -> El:
    return btn(
        text, action=action, testid=testid, cls="icon-btn", aria_label=label, title=label, **attrs
    )


def switcher() -> El:
    """The select of projects (``select``), ✎ rename, ⤓ download, ☰ the projects dialog."""
    return e(
        "div",
        "project-switcher",
        e(
            "select",
            "project-select",
            testid="project-switcher",
            ref="select",
            aria_label="Project",
        ),
        _icon("✎", "rename-project", "project-rename", "Rename project"),
        _icon("⤓", "download-project", "project-download", "Download this project as a .zip"),
        _icon(
            "☰",
            "manage-projects",
            "project-manage",
            "Projects: download, import, duplicate, delete",
            aria_haspopup="dialog",
        ),
    )


def project_options(projects: Iterable[tuple[str, str]]) -> list[El]:
    """The switcher's options from ``(id, name)`` pairs, "+ New project…" last."""
    rows = [e("option", None, value=pid, text=name) for pid, name in projects]
    return [*rows, e("option", None, value=NEW, text="+ New project…")]


def name_words(renaming: bool) -> tuple[str, str]:
    """The name dialog's title and its button, for a new project or a rename."""
    return ("Rename project", "Rename") if renaming else ("New project", "Create")


def name_dialog() -> El:
    """Asks for a project's name (refs ``form``, ``title``, ``name``, ``ok``)."""
    title, ok = name_words(False)
    form = e(
        "form",
        "project-form",
        e("h2", None, title, ref="title", id="project-dialog-title"),
        e("label", None, "Name", for_="project-name"),
        text_input(
            "project-name",
            "project-name",
            ref="name",
            spellcheck=None,
            required=True,
            maxlength="80",
        ),
        e(
            "footer",
            "dialog-foot",
            btn("Cancel", action="cancel"),
            submit(ok, "project-save", ref="ok"),
        ),
        ref="form",
        method="dialog",
    )
    return modal("project-dialog", "project-dialog", "project-dialog-title", form)


def projects_dialog() -> El:
    """Every project, the browser's storage, import (refs: ``storage`` (drawn by
    :func:`storage`), ``error``, ``result``, ``confirm``, ``rows``, ``include``,
    ``hint``, ``file_input``, ``dir_input``, and :func:`github_form`'s)."""
    include = e(
        "input", None, testid="zip-internal", ref="include", type="checkbox", id="zip-internal"
    )
    body = e(
        "div",
        "projects-body",
        heading("projects-head", "Projects", "projects-title", close="close", label="Close"),
        e("div", "storage", storage(StorageView("")), ref="storage"),
        e("p", "projects-error", testid="projects-error", ref="error", role="alert", hidden=True),
        e("div", "import-result", testid="import-result", ref="result", role="status", hidden=True),
        e("div", "delete-confirm", testid="delete-confirm", ref="confirm", hidden=True),
        e("ul", "project-rows", testid="project-rows", ref="rows"),
        e(
            "label",
            "zip-option",
            include,
            " Downloads include Ralph's and Chief's notes and the history "
            "(.ralph/, .chief/, .git/)",
            for_="zip-internal",
        ),
        e(
            "div",
            "import-bar",
            btn("Import .zip or files…", action="import-files", testid="import-zip"),
            btn("Import folder…", action="import-folder", testid="import-folder"),
            e("span", "import-hint", testid="import-hint", ref="hint"),
            testid="import-drop",
        ),
        github_form(),
        e(
            "input",
            None,
            testid="import-files",
            ref="file_input",
            type="file",
            multiple=True,
            hidden=True,
        ),
        # The webkitdirectory input in every browser (showDirectoryPicker is
        # Chromium-only and gives nothing more for a one-time copy).
        e(
            "input",
            None,
            testid="import-folder-input",
            ref="dir_input",
            type="file",
            hidden=True,
            webkitdirectory=True,
        ),
    )
    return modal("projects-dialog", "projects-dialog", "projects-title", body)


def storage(view: StorageView) -> list[El]:
    """The browser's storage: what the projects use, whether the browser keeps them
    (hidden when it does not say) and a warning when it is nearly full (hidden until then)."""
    persisted = None if view.persisted is None else str(view.persisted).lower()
    return [
        e("p", "storage-usage", text=view.usage, testid="storage-usage"),
        e(
            "p",
            "storage-persist",
            text=view.persist,
            testid="storage-persist",
            hidden=persisted is None,
            data_persisted=persisted,
        ),
        e(
            "p",
            "quota-warning",
            text=view.warning or "",
            testid="quota-warning",
            role="alert",
            hidden=view.warning is None,
        ),
    ]


def github_form() -> El:
    """Open a repository from GitHub (refs ``github_form``, ``github_address``,
    ``github_depth``, ``github_token``)."""
    address = text_input(
        "github-address",
        "github-address",
        ref="github_address",
        placeholder="owner/repository or https://github.com/owner/repository",
        required=True,
    )
    depth = text_input(
        "github-depth", "github-depth", type_="number", ref="github_depth", value="50",
        min="1", max="1000",
    )  # fmt: skip
    token = text_input(
        "github-token", "github-token", type_="password", ref="github_token",
        placeholder="github_pat_… (only for a private repository)",
    )  # fmt: skip
    return e(
        "form",
        "github-open",
        e("h3", None, "Open from GitHub"),
        field("Repository", address, for_id="github-address"),
        field("Commits of history", depth, for_id="github-depth"),
        field(
            "Token",
            token,
            hint(
                "A public repository needs none; for a private one, a fine-grained token "
                "that may read its contents (the one saved for publishing is used if empty)."
            ),
            for_id="github-token",
        ),
        submit("Open from GitHub", "github-open"),
        testid="github-form",
        ref="github_form",
    )


def project_row(pid: str, name: str, meta: str, *, current: bool) -> El:
    """One project: its name, size and last change, and its buttons."""
    buttons = [
        btn(
            a.label,
            action=a.action,
            testid=f"project-{a.action}",
            cls="btn btn-small",
            disabled=a.disabled,
        )
        for a in row_actions(current)
    ]
    return e(
        "li",
        "project-row" + (" current" if current else ""),
        e(
            "div",
            "project-row-text",
            e("strong", "project-row-name", name),
            e("span", "project-row-meta", meta, testid="project-meta"),
        ),
        e("div", "project-row-actions", buttons),
        testid="project-row",
        data_project_id=pid,
    )


def delete_confirm(pid: str, name: str) -> list[El]:
    """The question before a project is deleted, with Keep it and Delete."""
    delete = btn(
        "Delete",
        action="confirm-delete",
        testid="project-delete-confirm",
        cls="btn btn-danger",
        data_id=pid,
    )
    return [
        e("p", None, delete_question(name)),
        e("div", "dialog-foot", btn("Keep it", action="cancel-delete"), delete),
    ]


#: The action (and test id) of importing the same files again without their history.
WITHOUT_HISTORY = "import-without-history"


def without_history_offer() -> El:
    """The button under a refusal of a history too large: the same files, without it."""
    return btn("Import without its history", action=WITHOUT_HISTORY, testid=WITHOUT_HISTORY)


def import_result(name: str | None, result: ImportResult) -> list[El]:
    """What an import made (``name``: the new project, ``None``: none) and what it refused."""
    refused = [
        e("li", None, e("code", None, r.name), f" — {r.reason}", testid="refused-entry")
        for r in result.refused
    ]
    out = [] if name is None else [e("p", None, imported_text(name, result))]
    if refused:
        out.append(e("p", None, f"{len(refused)} entries were refused and left out:"))
        out.append(e("ul", "refused-list", refused, testid="refused-list"))
    return out
