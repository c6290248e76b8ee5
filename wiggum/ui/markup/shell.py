"""The page's frame as markup: the header's controls (with the settings gear),
the Chief | Ralph tabs and their panels, the banner of a tab whose project
another tab owns, the notice of a new version, the error line a failed
handler shows, and the app-ready marker.  ``wiggum.web.shell``, ``wiggum.web.views.lock_banner``,
``wiggum.web.guard`` and ``wiggum.web.boot`` mount these.

The first screen is built from this module, before pydantic has loaded: it
imports only the tree and the tab lock's texts.

The gear is an inline SVG (``wiggum.web.dom.mount`` makes ``svg`` and what is
in it in the SVG namespace) rather than a file under ``static/``: drawn with
``currentColor`` it takes the button's colour (an ``<img>`` would not), and
the page's policy allows it as it allows any element Wiggum builds.
"""

from __future__ import annotations

from collections.abc import Mapping

from ..markdown import El
from ..tab_lock import BUTTON_TEXT
from ..tree import btn, e
from ..update import RELOAD_TEXT, UPDATE_TEXT

__all__ = [
    "GEAR_PATH",
    "TABS",
    "chip",
    "failure_line",
    "frame",
    "gear",
    "header_controls",
    "lock_banner",
    "ready_marker",
    "update_banner",
]

#: The tabs, in their order: the name each goes by, and its label.
TABS = (("chief", "Chief"), ("ralph", "Ralph"))

#: The gear's outline (24×24, stroked).
GEAR_PATH = (
    "M19.4 15a1.65 1.65 0 0 0 .33 1.82l.06.06a2 2 0 1 1-2.83 2.83l-.06-.06a1.65 1.65 0 0 0-1.82"
    "-.33 1.65 1.65 0 0 0-1 1.51V21a2 2 0 1 1-4 0v-.09A1.65 1.65 0 0 0 9 19.4a1.65 1.65 0 0 0-"
    "1.82.33l-.06.06a2 2 0 1 1-2.83-2.83l.06-.06A1.65 1.65 0 0 0 4.6 15a1.65 1.65 0 0 0-1.51-1"
    "H3a2 2 0 1 1 0-4h.09A1.65 1.65 0 0 0 4.6 9a1.65 1.65 0 0 0-.33-1.82l-.06-.06a2 2 0 1 1 2."
    "83-2.83l.06.06A1.65 1.65 0 0 0 9 4.6a1.65 1.65 0 0 0 1-1.51V3a2 2 0 1 1 4 0v.09a1.65 1.65"
    " 0 0 0 1 1.51 1.65 1.65 0 0 0 1.82-.33l.06-.06a2 2 0 1 1 2.83 2.83l-.06.06A1.65 1.65 0 0 "
    "0 19.4 9c.26.6.85 1 1.51 1H21a2 2 0 1 1 0 4h-.09a1.65 1.65 0 0 0-1.51 1z"
)


def gear() -> El:
    """The settings icon: decorative (its button is labelled), in the text's colour."""
    return e(
        "svg",
        None,
        e("circle", cx="12", cy="12", r="3"),
        e("path", d=GEAR_PATH),
        viewBox="0 0 24 24",
        width="20",
        height="20",
        aria_hidden="true",
        focusable="false",
        fill="none",
        stroke="currentColor",
        stroke_width="1.8",
        stroke_linecap="round",
        stroke_linejoin="round",
    )


def header_controls() -> El:
    """What the header holds right of the project switcher (which the shell puts
    first): the provider chip, the Log button's slot, Settings."""
    return e(
        "div",
        "header-controls",
        e("div", "header-spacer"),
        btn(
            "Model provider",
            testid="active-provider",
            cls="provider-chip",
            title="Model provider (open settings)",
            # Named by what it shows (its title adds "open settings"): a name of its own
            # would not contain the words a speech user reads on it.
            ref="provider_chip",
        ),
        # The debug log's button goes here once the app has loaded.
        e("span", "debug-slot", ref="debug_slot"),
        btn(
            gear(),
            testid="settings-button",
            cls="icon-btn settings-btn",
            aria_label="Settings",
            title="Settings",
            aria_haspopup="dialog",
            ref="settings",
        ),
    )


def chip(name: str, model: str) -> list[El]:
    """The provider chip's words: the provider's name and Chief's model."""
    return [e("span", "chip-name", text=name), e("span", "chip-model", text=model)]


def _tab(name: str, label: str, *, selected: bool) -> El:
    return btn(
        label,
        testid=f"tab-{name}",
        cls="tab",
        role="tab",
        id=f"tab-{name}",
        aria_controls=f"panel-{name}",
        aria_selected="true" if selected else "false",
        # Arrow keys move between the tabs: only the selected one is in the Tab order.
        tabindex=None if selected else "-1",
        ref=f"tab_{name}",
    )


def frame() -> El:
    """The tabs and their panels; Chief's is shown, Ralph's says it is loading
    (and is busy) until the app behind the first screen has arrived."""
    tabs = e(
        "div",
        "tabs",
        [_tab(name, label, selected=n == 0) for n, (name, label) in enumerate(TABS)],
        role="tablist",
        aria_label="Agents",
        ref="tabs",
    )
    chief = e(
        "section",
        "panel",
        role="tabpanel",
        id="panel-chief",
        aria_labelledby="tab-chief",
        ref="panel_chief",
    )
    ralph = e(
        "section",
        "panel panel-ralph",
        e("p", "panel-loading", text="Ralph's tab is loading…"),
        role="tabpanel",
        id="panel-ralph",
        aria_labelledby="tab-ralph",
        aria_busy="true",
        hidden=True,
        tabindex="0",
        ref="panel_ralph",
    )
    return e("div", "shell", tabs, chief, ralph, testid="app-shell")


def lock_banner() -> El:
    """At the top of a tab whose project another tab owns: what the tab lock
    says, and "Use here"."""
    return e(
        "div",
        "tab-lock-banner",
        e("span", "tab-lock-text", testid="tab-lock-text", ref="text"),
        btn(BUTTON_TEXT, testid="tab-lock-use-here", cls="btn btn-small btn-primary", ref="button"),
        testid="tab-lock-banner",
        role="status",
        hidden=True,
    )


def update_banner() -> El:
    """At the top of the page when a new build is ready: the notice and Reload
    (what it says: ``wiggum.ui.update``)."""
    return e(
        "div",
        "update-banner",
        e("span", "update-text", UPDATE_TEXT, testid="update-text", ref="text"),
        btn(RELOAD_TEXT, testid="update-reload", cls="btn btn-small btn-primary", ref="button"),
        testid="update-banner",
        role="status",
        hidden=True,
    )


def failure_line() -> El:
    """The line at the foot of the page when a handler or a task failed: what
    failed (``.view-error-text``), the way to the Log, and Dismiss."""
    return e(
        "div",
        "view-error",
        e("span", "view-error-text"),
        btn("Open the Log", testid="view-error-log", cls="view-error-log"),
        btn("×", testid="view-error-close", cls="view-error-close", aria_label="Dismiss"),
        testid="view-error",
        id="view-error",
        role="alert",
    )


def ready_marker(info: Mapping[str, str]) -> El:
    """``[data-testid="app-ready"]``: the first screen is up; ``info`` (versions,
    how Python started) as ``data-*`` attributes."""
    return e(
        "span",
        "app-ready",
        testid="app-ready",
        **{f"data_{key}": value for key, value in info.items()},
    )
