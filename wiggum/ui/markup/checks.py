"""The preview's Checks panel as markup: its head (what the last round found,
Run checks) and one row per issue, with its file and line and **Fix**.
``wiggum.web.views.checks`` mounts these; the checks are
``wiggum.ralph.site_checks``'.
"""

from __future__ import annotations

from wiggum.ralph.types import GateIssue

from ..markdown import El
from ..tree import btn, e

__all__ = ["LABELS", "NOT_RUN", "issue", "panel", "summary"]

NOT_RUN = "Not run yet: they run after each of Ralph's iterations, or now with Run checks."
#: What each check is called on screen.
LABELS = {
    "html_parses": "HTML",
    "local_refs": "Links and files",
    "page_basics": "Page basics",
    "overflow": "Phone width",
    "accessibility": "Accessibility",
    "console": "Errors on load",
}


def panel() -> El:
    head = e(
        "div",
        "checks-head",
        e("strong", "checks-title", text="Checks"),
        e("span", "checks-summary", text=NOT_RUN, testid="checks-summary", ref="summary"),
        btn(
            "Run checks",
            action="checks-run",
            testid="checks-run",
            cls="file-op checks-run",
            title="Check the site now (links, files, page basics, phone width, accessibility)",
        ),
    )
    items = e("ul", "checks-list", testid="checks-list", ref="list")
    return e("section", "site-checks", head, items, testid="preview-checks")


def summary(failed: int, issues: int, checks: int) -> str:
    if not failed:
        return f"All {checks} checks passed."
    return f"{issues} problem{'s' if issues != 1 else ''} in {failed} of {checks} checks."


def issue(check: str, item: GateIssue, index: int) -> El:
    where = f"{item.path}:{item.line}" if item.line else item.path
    return e(
        "li",
        "checks-issue",
        e("span", "checks-name", text=LABELS.get(check, check)),
        e("span", "checks-text", text=item.message, testid="checks-text"),
        e("code", "checks-where", text=where, testid="checks-where"),
        btn(
            "Fix",
            action="checks-fix",
            testid="checks-fix",
            cls="file-op checks-fix",
            data_index=str(index),
            title="Ask Ralph to fix this (a one-off task with the problem and its code)",
        ),
        e("span", "checks-hint", text=item.hint) if item.hint else None,
        testid="checks-issue",
        data_check=check,
    )
