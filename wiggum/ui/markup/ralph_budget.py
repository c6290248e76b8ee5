"""Ralph's tab, the spending parts: the forecast line, the Continue form after a run
stopped at its limit, a stall or its cap, and "Start fresh" with its question.

``wiggum.web.views.ralph.budget_view`` mounts these under the tab's bar and
drives them; the words and what the fields hold are
:mod:`wiggum.ui.ralph_budget`'s.
"""

from __future__ import annotations

from ..markdown import El
from ..ralph_budget import FRESH_CONFIRM
from ..tree import btn, e
from .forms import error_line, field

__all__ = ["continue_panel", "forecast", "fresh"]


def forecast() -> El:
    """The run's estimated spend (what the provider reports is the total beside it)."""
    return e(
        "p",
        "ralph-forecast usage",
        testid="ralph-forecast",
        role="status",
        hidden=True,
    )


def _number(id_: str, testid: str, ref: str, step: str) -> El:
    return e(
        "input",
        "continue-number",
        id=id_,
        testid=testid,
        ref=ref,
        type="number",
        min="0",
        step=step,
        inputmode="decimal",
    )


def continue_panel() -> El:
    """Continue: the cause, how many more iterations, the cap, a note for Ralph."""
    note = e(
        "textarea",
        "continue-note",
        id="ralph-continue-note",
        testid="ralph-continue-note",
        ref="note",
        rows="1",
        placeholder="e.g. The menu page matters most; skip the map.",
    )
    return e(
        "div",
        "ralph-continue",
        e("p", "banner-text", testid="ralph-continue-text", ref="text"),
        e(
            "div",
            "continue-fields",
            field(
                "More iterations",
                _number("ralph-continue-more", "ralph-continue-more", "more", "1"),
                for_id="ralph-continue-more",
            ),
            field(
                "Cap (US$)",
                _number("ralph-continue-usd", "ralph-continue-usd", "cap_usd", "any"),
                for_id="ralph-continue-usd",
            ),
            field(
                "Cap (tokens)",
                _number("ralph-continue-tokens", "ralph-continue-tokens", "cap_tokens", "any"),
                for_id="ralph-continue-tokens",
            ),
        ),
        field("A note for Ralph (optional)", note, for_id="ralph-continue-note"),
        error_line("ralph-continue-error", "error"),
        e(
            "div",
            "banner-actions",
            btn(
                "Continue",
                action="ralph-continue",
                testid="ralph-continue-button",
                cls="btn btn-primary btn-small",
                ref="button",
            ),
        ),
        testid="ralph-continue",
        role="group",
        aria_label="Continue Ralph's run",
        hidden=True,
    )


def fresh() -> El:
    """ "Start fresh…", and the question it asks before anything is deleted."""
    ask = e(
        "div",
        "ralph-fresh-confirm",
        e("p", "banner-text", text=FRESH_CONFIRM),
        e(
            "div",
            "banner-actions",
            btn(
                "Delete his memory",
                action="ralph-fresh-yes",
                testid="ralph-fresh-yes",
                cls="btn btn-danger btn-small",
            ),
            btn("Keep it", action="ralph-fresh-no", testid="ralph-fresh-no", cls="btn btn-small"),
        ),
        testid="ralph-fresh-confirm",
        role="alertdialog",
        aria_label="Start fresh",
        hidden=True,
        ref="confirm",
    )
    return e(
        "div",
        "ralph-fresh",
        btn(
            "Start fresh…",
            action="ralph-fresh",
            testid="ralph-fresh",
            cls="btn btn-small",
            ref="button",
        ),
        ask,
        testid="ralph-fresh-box",
        hidden=True,
    )
