"""The live preview as markup: its bar (Refresh, the page shown, a status),
the sandboxed frame (the console under it is :mod:`~wiggum.ui.markup.console`),
and the toolbar added to the bar (the page path box, the widths, "Open in new
tab").
``wiggum.web.views.preview`` and ``wiggum.web.views.workspace.preview_tools``
mount these; the texts are :mod:`wiggum.ui.preview`'s.

The frame's sandbox lets the site's scripts run (and external links open a
new tab) but never gives it Wiggum's origin: no ``allow-same-origin``.
"""

from __future__ import annotations

from ..markdown import El
from ..preview import WIDTHS, width_title
from ..tree import btn, e

__all__ = [
    "CHECKER_STYLE",
    "SANDBOX",
    "checker_frame",
    "device_scale",
    "frame",
    "open_tab",
    "panel",
    "path_form",
    "widths",
]

#: The frame's sandbox: what a site needs on the web (scripts, forms, alert/confirm/
#: prompt, new tabs for external links, downloads), never same-origin: its origin
#: stays opaque, so it cannot reach Wiggum's storage, keys, DOM or navigation
#: (no ``allow-top-navigation`` either).
SANDBOX = (
    "allow-scripts allow-forms allow-modals allow-popups allow-popups-to-escape-sandbox "
    "allow-downloads"
)


def panel() -> El:
    """The bar (Refresh, ``path``, ``status``) and the ``view``: the ``slot`` the frame
    goes in, and select mode's panel beside or under it (one box, so select mode can
    give the page and the panel one screen together); the console follows."""
    refresh = btn(
        "Refresh",
        action="refresh",
        testid="preview-refresh",
        cls="btn preview-refresh",
        title="Rebuild and reload the preview",
        ref="refresh",
    )
    bar = e(
        "div",
        "preview-bar",
        refresh,
        e("code", "preview-path", testid="preview-path", ref="path"),
        e("span", "preview-status", testid="preview-status", ref="status"),
    )
    view = e("div", "preview-view", e("div", "preview-slot", ref="slot"), ref="view")
    return e("section", "preview", bar, view, testid="preview")


def frame(src: str) -> El:
    """A fresh frame on the host page ``src`` (one per page shown)."""
    return e(
        "iframe",
        "preview-frame",
        testid="preview-frame",
        sandbox=SANDBOX,
        title="Site preview",
        referrerpolicy="no-referrer",
        src=src,
    )


def checker_frame(src: str) -> El:
    """A frame Ralph's checks load a page in, on the host page ``src``: out of
    sight and out of reach (scripts only; not even new tabs)."""
    return e(
        "iframe",
        sandbox="allow-scripts",
        aria_hidden="true",
        tabindex="-1",
        data_wiggum_checker="true",
        src=src,
    )


#: Where a check's frame sits: out of sight, laid out at a desktop's size (set
#: through the CSSOM by the view: the page's CSP refuses a ``style`` attribute).
CHECKER_STYLE = (
    "position: fixed; left: -10000px; top: 0; width: 1024px; height: 768px; "
    "visibility: hidden; pointer-events: none"
)


def path_form() -> El:
    """The page to show, typed (its value set by the view)."""
    box = e(
        "input",
        "preview-path-input",
        type="text",
        testid="preview-path-input",
        aria_label="Page to show",
        spellcheck="false",
        ref="input",
    )
    return e("form", "preview-path-form", box)


def widths() -> El:
    """Phone, tablet, desktop: the one pressed is the width the frame has (desktop first)."""
    buttons = [
        btn(
            label,
            testid=f"preview-width-{name}",
            cls="file-op preview-width",
            data_width=name,
            aria_pressed="true" if name == "desktop" else "false",
            title=width_title(px),
        )
        for name, label, px in WIDTHS
    ]
    return e("span", "preview-widths", buttons)


def device_scale() -> El:
    """What a phone's or a tablet's frame is drawn at ("Phone 390 × 844 · 62%")."""
    return e("span", "preview-scale", testid="preview-scale")


def open_tab() -> El:
    return btn(
        "Open in new tab",
        testid="preview-open-tab",
        cls="file-op preview-open",
        title="Open the site in a new tab (still sandboxed: it cannot see Wiggum)",
    )
