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


#: The question "Start fresh" asks, hidden until it is clicked.
_ASK = {
    "testid": "ralph-fresh-confirm",
    "role": "alertdialog",
    "aria_label": "Start fresh",
    "hidden": True,
    "ref": "confirm",
}


#: The note's box: one line that grows as the person types (``resize``).
_NOTE = {
    "id": "ralph-continue-note",
    "testid": "ralph-continue-note",
    "ref": "note",
    "rows": "1",
    "placeholder": "e.g. The menu page matters most; skip the map.",
}


def _small(label: str, action: str, *, primary: bool = False, danger: bool = False, **kw) -> El:
    """A small button whose test id is its action."""
    kind = " btn-primary" if primary else (" btn-danger" if danger else "")
    return btn(label, action=action, testid=action, cls=f"btn btn-small{kind}", **kw)


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
    note = e("textarea", "continue-note", **_NOTE)
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
        e("div", "banner-actions", _small("Continue", "ralph-continue-button", primary=True)),
        testid="ralph-continue",
        role="group",
        aria_label="Continue Ralph's run",
        hidden=True,
    )


def fresh() -> El:
    """ "Start fresh…", and the question it asks before anything is deleted."""
    yes = _small("Delete his memory", "ralph-fresh-yes", danger=True)
    answers = e("div", "banner-actions", yes, _small("Keep it", "ralph-fresh-no"))
    ask = e(
        "div", "ralph-fresh-confirm", e("p", "banner-text", text=FRESH_CONFIRM), answers, **_ASK
    )
    start = _small("Start fresh…", "ralph-fresh", ref="button")
    return e("div", "ralph-fresh", start, ask, testid="ralph-fresh-box", hidden=True)
