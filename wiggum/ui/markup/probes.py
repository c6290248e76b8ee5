"""The preview's Probes panel and site map as markup.

Probes: each acceptance criterion of the run, passed or failed, and when it
failed the step and what the preview saw, with **Fix**; a criterion Ralph
said no probe can check shows his reason.  Map: each page of the site with
the files it loads and the pages it links to, a broken reference marked, and
the files no page uses.  Both reuse the panels' shared shape
(:mod:`~wiggum.ui.markup.problems`); :mod:`wiggum.session.site_panels`
decides what they show.
"""

from __future__ import annotations

from collections.abc import Sequence

from wiggum.ralph.probes import ProbeResult
from wiggum.ralph.site_graph import PageNode

from ..markdown import El
from ..tree import e
from .problems import panel as problems_panel
from .problems import tool

__all__ = [
    "MAP_NOT_RUN",
    "NOT_RUN",
    "PROBE_SANDBOX",
    "RUNNING",
    "map_page",
    "map_panel",
    "map_summary",
    "map_unused",
    "panel",
    "probe_frame",
    "result",
    "summary",
    "waived",
]

NOT_RUN = "No probes yet: Ralph writes one per acceptance criterion, run after each iteration."
RUNNING = "Running the probes…"
MAP_NOT_RUN = "Drawn when the site is checked (after each of Ralph's iterations, or Run checks)."


def panel() -> El:
    """The Probes panel: a head (title, ``summary``, Run checks) and the ``list``."""
    what = "Run the acceptance probes and the checks now"
    return problems_panel("probes", "Probes", NOT_RUN, tool("Run probes", "probes-run", what))


def summary(results: Sequence[ProbeResult], waived: int) -> str:
    if not results and not waived:
        return NOT_RUN
    passed = sum(r.passed for r in results)
    text = f"{passed} of {len(results)} criteria pass."
    if waived:
        text += f" {waived} not probed (Ralph's reason below)."
    return text


def result(item: ProbeResult, index: int) -> El:
    """One criterion: passed or failed; when failed its step, what was seen, and Fix."""
    state = "pass" if item.passed else "fail"
    mark = "✓ Passes" if item.passed else "✗ Fails"
    step = None
    if not item.passed:
        where = f"Step {item.step}: {item.step_text}" if item.step else item.step_text
        step = e(
            "span",
            "probes-step",
            e("span", "probes-at", text=where, testid="probes-step"),
            e("span", "probes-seen", text=f"— {item.seen}", testid="probes-seen"),
        )
    fix = "Ask Ralph to make this criterion pass (a one-off task with the failing step)"
    return e(
        "li",
        f"probes-item probes-{state}",
        e("span", f"probes-mark probes-mark-{state}", text=mark, testid="probes-mark"),
        e("span", "probes-criterion", text=item.criterion or item.file, testid="probes-criterion"),
        e("code", "probes-file", text=item.file),
        None if item.passed else tool("Fix", "probes-fix", fix, index),
        step,
        testid="probes-item",
        data_state=state,
    )


def waived(criterion: str, reason: str) -> El:
    """A criterion Ralph said no probe can check, with his reason."""
    return e(
        "li",
        "probes-item probes-waived",
        e("span", "probes-mark probes-mark-waived", text="– Not probed"),
        e("span", "probes-criterion", text=criterion, testid="probes-criterion"),
        e("span", "probes-seen", text=f"Ralph: {reason}", testid="probes-reason"),
        testid="probes-item",
        data_state="waived",
    )


#: A probe's frame: scripts and forms (a to-do's Add submits its form), nothing
#: else: no modals (an alert would stall the probe), no new tabs, never
#: same-origin (its origin stays opaque: Wiggum's storage and keys out of reach).
PROBE_SANDBOX = "allow-scripts allow-forms"


def probe_frame(src: str) -> El:
    """The hidden frame a probe drives a page in, on the host page ``src``."""
    return e(
        "iframe",
        sandbox=PROBE_SANDBOX,
        aria_hidden="true",
        tabindex="-1",
        data_wiggum_checker="true",
        src=src,
    )


def map_panel() -> El:
    """The site map: each page and what it uses."""
    return problems_panel(
        "map", "Site map", MAP_NOT_RUN, e("span", "map-legend", text="✗ = missing")
    )


def map_summary(pages: int, files: int, broken: int) -> str:
    text = f"{pages} page{'s' if pages != 1 else ''}, {files} file{'s' if files != 1 else ''}"
    return text + (f"; {broken} broken reference{'s' if broken != 1 else ''}." if broken else ".")


def _ref(path: str, missing: bool, kind: str) -> El:
    cls = f"map-ref map-{kind}" + (" map-missing" if missing else "")
    label = f"✗ {path} (missing)" if missing else path
    return e("li", cls, text=label, data_missing="true" if missing else "false")


def map_page(node: PageNode) -> El:
    """A page: the files it loads, then the pages it links to."""
    loads = [_ref(p, m, "load") for p, m in node.loads]
    links = [_ref(p, m, "link") for p, m in node.links]
    return e(
        "li",
        "map-page",
        e("strong", "map-path", text=node.path, testid="map-path"),
        e("ul", "map-loads", *loads) if loads else None,
        e("span", "map-links-title", text="links to") if links else None,
        e("ul", "map-links", *links) if links else None,
        testid="map-page",
    )


def map_unused(paths: Sequence[str]) -> El:
    return e(
        "li",
        "map-page map-unused",
        e("strong", "map-path", text="Used by no page", testid="map-path"),
        e("ul", "map-loads", *(_ref(p, False, "unused") for p in paths)),
        testid="map-unused",
    )
