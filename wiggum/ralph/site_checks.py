"""Site checks that need no model: what a careful reviewer would find by reading the site.

Run after each of Ralph's iterations and shown in the preview's Checks panel,
each with its file and line and what to do:

* ``html_parses``: an element left open, a stray close tag, an id twice;
* ``local_refs``: a broken internal link or a missing asset (image, script,
  stylesheet, ``url()``, ``import``);
* ``page_basics``: a page without a ``<title>``, without ``lang`` on
  ``<html>``, without a viewport ``<meta>``; an ``<img>`` without ``alt``
  (``alt=""`` is a decorative image, and fine);
* and, when the browser runs them (:func:`audit_site` over a :data:`PageAudit`):
  ``overflow`` (the page is wider than a 390 px phone) and ``accessibility``
  (axe-core's rules, run inside the preview's sandboxed frame).

Each check is a :class:`~wiggum.ralph.gates.Gate` (its result a ``GateResult``),
so the loop's feedback and the panel read them the same way.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass, field
from html.parser import HTMLParser
from typing import Any

from wiggum.fs import FileStore, FileStoreError
from wiggum.preview.entry import bundle_entry_page, is_page, site_files
from wiggum.preview.runtime import audit_script
from wiggum.preview.storage import empty_snapshot, with_storage

from .gates import Gate, HtmlParsesGate, LocalRefsGate, format_issues
from .types import GateIssue, GateResult

__all__ = [
    "PHONE",
    "BrowserAudit",
    "PageAudit",
    "PageBasicsGate",
    "SiteReport",
    "audit_site",
    "element_line",
    "overflow_issues",
    "page_basics",
    "run_site_checks",
    "site_check_gates",
]

#: ``fs -> [(check, issues)]``: the browser's checks of the built site
#: (overflow at a phone's width, axe-core), run in a sandboxed frame
#: (:func:`audit_site` over a :data:`PageAudit`).
BrowserAudit = Callable[[FileStore], Awaitable[list[tuple[str, list[GateIssue]]]]]
#: ``(html, width) -> (found, errors)``: the browser loads ``html`` in a hidden
#: sandboxed frame ``width`` px wide and returns what its audit script posted
#: (JSON: ``{"overflow": [...]}``, ``{}`` when it never did) and the errors the
#: page threw meanwhile (``wiggum.web.checkers.browser_audit``).
PageAudit = Callable[[str, int], Awaitable[tuple[Any, list[str]]]]
#: The phone's width a page must fit.
PHONE = 390

_HEADLINES = {
    "page_basics": "Some pages miss what every page needs.",
    "overflow": "Some pages are wider than a phone (390 px) and scroll sideways.",
    "accessibility": "Accessibility problems (axe-core).",
    "console": "The page throws errors when it loads in the preview.",
}


class _Basics(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lang: bool | None = None
        self.html_line = 1
        self.title = ""
        self.has_title = False
        self.viewport = False
        self.no_alt: list[tuple[int, str]] = []
        self._in_title = False

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        values = {k: (v or "") for k, v in attrs}
        line = self.getpos()[0]
        if tag == "html":
            self.lang = bool(values.get("lang", "").strip())
            self.html_line = line
        elif tag == "title":
            self.has_title, self._in_title = True, True
        elif tag == "meta" and values.get("name", "").lower() == "viewport":
            self.viewport = True
        elif tag == "img" and "alt" not in values:
            self.no_alt.append((line, values.get("src", "")))

    def handle_endtag(self, tag: str) -> None:
        if tag == "title":
            self._in_title = False

    def handle_data(self, data: str) -> None:
        if self._in_title:
            self.title += data


def page_basics(path: str, text: str) -> list[GateIssue]:
    """What ``path`` (an HTML page, ``text``) misses of a page's basics."""
    scan = _Basics()
    scan.feed(text)
    scan.close()
    # (missing, its line, what it means, what to do), a page's three basics first.
    basics = [
        (
            not scan.has_title or not scan.title.strip(),
            1,
            "the page has no <title> (tabs, bookmarks and screen readers name it)",
            "add <title>A short name of this page</title> inside <head>",
        ),
        (
            not scan.lang,
            scan.html_line,
            '<html> has no lang (screen readers guess the language: lang="en")',
            'write <html lang="en"> (the language of the page\'s text)',
        ),
        (
            not scan.viewport,
            1,
            "no viewport <meta>: phones show the page zoomed out",
            'add <meta name="viewport" content="width=device-width, initial-scale=1">',
        ),
    ]
    basics += [
        (
            True,
            line,
            f'<img src="{src}"> has no alt text',
            'describe the image in alt="..." (alt="" when it is only decoration)',
        )
        for line, src in scan.no_alt
    ]
    return [
        GateIssue(path=path, line=line, message=message, hint=hint)
        for missing, line, message, hint in basics
        if missing
    ]


class PageBasicsGate:
    name = "page_basics"

    async def check(self, fs: FileStore) -> GateResult:
        issues: list[GateIssue] = []
        for path in await site_files(fs):
            if not is_page(path):
                continue
            try:
                text = await fs.read_text(path)
            except FileStoreError:
                continue
            issues += page_basics(path, text)
        return _result(self.name, issues)


def _result(name: str, issues: list[GateIssue]) -> GateResult:
    if not issues:
        return GateResult(gate=name, passed=True)
    headline = _HEADLINES.get(name, f"The {name} check found problems.")
    return GateResult(
        gate=name, passed=False, message=f"{headline}\n{format_issues(issues)}", issues=issues
    )


def site_check_gates() -> list[Gate]:
    """The checks read from the files, in the order the panel lists them."""
    return [HtmlParsesGate(), LocalRefsGate(), PageBasicsGate()]


@dataclass(slots=True)
class SiteReport:
    """One round of the site checks: each check's result, and how long it took."""

    results: list[GateResult] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def failed(self) -> list[GateResult]:
        return [r for r in self.results if not r.passed]

    @property
    def issues(self) -> int:
        return sum(len(r.issues) for r in self.failed)


async def run_site_checks(
    fs: FileStore,
    gates: Sequence[Gate],
    audit: BrowserAudit | None = None,
    clock: Callable[[], float] = time.perf_counter,
) -> SiteReport:
    """Run ``gates`` over the site, then the browser's ``audit`` (one load of the
    site for all of its checks); a check that fails to run says so as its result."""
    start = clock()
    results = []
    for gate in gates:
        try:
            results.append(await gate.check(fs))
        except Exception as exc:  # one check's failure must not hide the others'
            results.append(_not_run(gate.name, exc))
    if audit is not None:
        try:
            found = await audit(fs)
        except Exception as exc:  # the file checks still count
            found = []
            results.append(_not_run("browser", exc))
        results += [_result(name, issues) for name, issues in found]
    return SiteReport(results, clock() - start)


def _not_run(name: str, exc: BaseException) -> GateResult:
    return GateResult(gate=name, passed=True, message=f"not run: {type(exc).__name__}: {exc}")


def element_line(source: str, tag: str, id_: str = "", cls: str = "") -> int:
    """The line of ``source`` where the element (``<tag id=... class=...>``) is
    written, at best (0: not found, e.g. made by a script)."""
    lowered = source.lower()
    needles = [f'id="{id_}"', f"id='{id_}'", f"id={id_}"] if id_ else []
    first = cls.split()[0] if cls.split() else ""
    needles += [f'class="{cls}"', f'class="{first}'] if first else []
    needles.append(f"<{tag.lower()}")
    for needle in needles:
        at = lowered.find(needle.lower())
        if at >= 0:
            return source.count("\n", 0, at) + 1
    return 0


def overflow_issues(
    page: str, source: str, offenders: Sequence[dict], width: int
) -> list[GateIssue]:
    """The elements wider than a ``width`` px phone, as issues at their lines."""
    issues = []
    for item in offenders:
        tag = str(item.get("tag") or "element")
        id_, cls = str(item.get("id") or ""), str(item.get("cls") or "")
        name = (
            f"<{tag}" + (f' id="{id_}"' if id_ else "") + (f' class="{cls}"' if cls else "") + ">"
        )
        right = int(item.get("right") or 0)
        issues.append(
            GateIssue(
                path=page,
                line=element_line(source, tag, id_, cls) or None,
                message=f"{name} reaches {right} px on a {width} px wide phone",
                hint="let it shrink: max-width: 100%, flex-wrap, no fixed widths over the "
                "screen's; check it in the preview's Phone width",
            )
        )
    return issues


async def audit_site(fs: FileStore, load: PageAudit) -> list[tuple[str, list[GateIssue]]]:
    """A :data:`BrowserAudit` over ``load``: the entry page, with its storage shim
    (empty) and the audit script after the site's own, loaded :data:`PHONE` px
    wide; ``[("overflow", issues), ("console", issues)]`` at the lines they
    are written (none when the site has no entry page: its gate says so)."""
    bundle = await bundle_entry_page(fs)
    if isinstance(bundle, str):
        return []
    html = with_storage(bundle.html, empty_snapshot()) + audit_script()
    found, errors = await load(html, PHONE)
    try:
        source = await fs.read_text(bundle.path)
    except Exception:  # gone meanwhile: the issues keep no line
        source = ""
    offenders = found.get("overflow") if isinstance(found, dict) else None
    overflow = overflow_issues(bundle.path, source, offenders or [], PHONE)
    console = [GateIssue(path=bundle.path, message=text) for text in errors]
    return [("overflow", overflow), ("console", console)]
