"""The preview's Checks panel as markup: its head (what the last round found,
Run checks) and one row per issue, with its file and line and **Fix**.
``wiggum.web.views.site_panels`` mounts these; the checks are
``wiggum.ralph.site_checks``', which rows are shown
:mod:`wiggum.session.site_panels`'.
"""

from __future__ import annotations

from wiggum.ralph.types import GateIssue

from ..markdown import El
from ..tree import e
from .problems import panel as problems_panel
from .problems import tool

__all__ = ["CHECKING", "LABELS", "NOT_RUN", "issue", "panel", "summary"]

NOT_RUN = "Not run yet: they run after each of Ralph's iterations, or now with Run checks."
CHECKING = "Checking…"
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
    """The panel: a head (title, ``summary``, Run checks) and the ``list``."""
    what = "Check the site now (links, files, page basics, phone width, accessibility)"
    return problems_panel("checks", "Checks", NOT_RUN, tool("Run checks", "checks-run", what))


def summary(failed: int, issues: int, checks: int) -> str:
    if not failed:
        return f"All {checks} checks passed."
    return f"{issues} problem{'s' if issues != 1 else ''} in {failed} of {checks} checks."


def issue(check: str, item: GateIssue, index: int) -> El:
    """One issue: its check, what it says, where, Fix, and what to do when the check knows."""
    where = f"{item.path}:{item.line}" if item.line else item.path
    fix = "Ask Ralph to fix this (a one-off task with the problem and its code)"
    return e(
        "li",
        "checks-issue",
        e("span", "checks-name", text=LABELS.get(check, check)),
        e("span", "checks-text", text=item.message, testid="checks-text"),
        e("code", "checks-where", text=where, testid="checks-where"),
        tool("Fix", "checks-fix", fix, index),
        e("span", "checks-hint", text=item.hint) if item.hint else None,
        testid="checks-issue",
        data_check=check,
    )
