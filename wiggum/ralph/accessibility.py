"""axe-core's findings as site-check issues: each at the line its element is written.

axe-core (vendored and pinned by ``build.py``, loaded only by the frame that
audits the site, after the site's own scripts: ``wiggum.preview.runtime.audit_script``)
reports each WCAG 2 A/AA rule the entry page breaks, with the elements that
break it.  Each element becomes one :class:`GateIssue`:

* where: the audit's page numbers its start tags (``data-wiggum-tag``, see
  ``wiggum.preview.page``); the same numbering of the file gives the line the
  element is written at, and the tag as the person wrote it (an element a
  script made has no number: the issue names the page and the element);
* what: axe's help text, its rule id and impact (critical, serious, moderate,
  minor), and the element;
* the hint: what to do, in plain words, for the rules small sites break most
  (a table of our own: axe's summaries say what is wrong in its terms, "Element
  does not have an alt attribute"), with axe's first finding after it (a
  contrast's ratio and colours); other rules keep axe's summary.

A defect is reported once: the file checks (``page_basics``) already read every
page's ``<title>``, ``lang`` and ``alt`` with exact lines, so axe's
``document-title``, ``html-has-lang`` and ``image-alt`` are dropped where the
file check said the same of the same page (and element).  Issues come most
serious first, at most :data:`PER_RULE` per rule and :data:`MAX_ISSUES` in all.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Sequence
from typing import Any

from wiggum.preview.page import STAMP

from .types import GateIssue

__all__ = [
    "IMPACTS",
    "MAX_ISSUES",
    "PAGE_RULES",
    "PER_RULE",
    "PLAIN",
    "accessibility_issues",
    "at_line",
    "plain_summary",
]

#: axe-core's impacts, most serious first.
IMPACTS = ("critical", "serious", "moderate", "minor")
#: Elements shown per rule (the last says how many more there are).
PER_RULE = 5
#: Issues in all.
MAX_ISSUES = 30
#: Rules about the page as a whole: the file check covers them for the page.
PAGE_RULES = frozenset({"document-title", "html-has-lang"})
#: What to do, in plain words, for the rules small sites break most.
PLAIN = {
    "image-alt": 'describe the image in alt="..." (alt="" when it is only decoration)',
    "input-image-alt": 'say what the image button does in alt="..."',
    "role-img-alt": "give the element an aria-label that describes the image",
    "svg-img-alt": "give the <svg> a <title> or an aria-label that describes it",
    "label": 'give the field a <label for="its id"> (or wrap it in the <label>); '
    "a placeholder is not a label",
    "select-name": 'give the <select> a <label for="its id">',
    "button-name": "put words inside the button, or an aria-label when it shows only an icon",
    "link-name": "put words inside the link (or an aria-label, or alt text on its image)",
    "color-contrast": "make the text darker or its background lighter (or the reverse): "
    "4.5 to 1 for body text, 3 to 1 for large text",
    "document-title": "add <title>A short name of this page</title> inside <head>",
    "html-has-lang": 'write <html lang="en"> (the language of the page\'s text)',
    "html-lang-valid": 'use a real language code in lang ("en", "fr", "pt-BR")',
    "meta-viewport": "remove user-scalable=no and any maximum-scale under 2 from the viewport "
    "<meta>: people must be able to zoom",
    "frame-title": 'give the <iframe> a title="..." that says what it shows',
    "list": "put only <li> (or <script>/<template>) directly inside <ul> and <ol>",
    "listitem": "put each <li> directly inside a <ul> or <ol>",
    "duplicate-id-aria": "give each element its own id: labels and ARIA point at one element",
    "nested-interactive": "do not put a link or button inside another; make them siblings",
    "aria-required-children": "give the role the children it needs, or drop the role",
    "aria-required-parent": "put the element inside the parent its role needs, or drop the role",
    "aria-allowed-attr": "remove the aria-* attribute the element's role does not allow",
    "aria-valid-attr-value": "give the aria-* attribute a value it accepts (an id that exists)",
    "scrollable-region-focusable": 'let a keyboard reach the scrolling box: tabindex="0"',
}

_STAMPED = re.compile(rf'\s{STAMP}="\d*"')
_SUMMARY_HEAD = re.compile(r"^\s*Fix (?:any|all) of the following:\s*$", re.I)


def at_line(tags: Sequence[tuple[str, int, str]], at: Any) -> tuple[int, str] | None:
    """``(line, the tag as written)`` of the start tag numbered ``at`` in the
    page (``tags``: ``wiggum.preview.page.start_tags``); ``None``: not in the
    file as written (a script or the browser made it)."""
    text = str(at or "")
    if not text.isdigit() or int(text) >= len(tags):
        return None
    _tag, line, raw = tags[int(text)]
    return line, raw


def plain_summary(summary: str) -> str:
    """axe's failure summary ("Fix any of the following:\\n  A\\n  B") as one line."""
    lines = [ln.strip() for ln in summary.splitlines()]
    kept = [ln for ln in lines if ln and not _SUMMARY_HEAD.match(ln)]
    return "; ".join(kept)


def _short(text: str, limit: int = 160) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _rank(violation: dict) -> tuple[int, str]:
    impact = str(violation.get("impact") or "")
    return (IMPACTS.index(impact) if impact in IMPACTS else len(IMPACTS), str(violation["id"]))


def accessibility_issues(
    page: str,
    tags: Sequence[tuple[str, int, str]],
    violations: Any,
    covered: Collection[tuple[str, int | None]] = (),
) -> list[GateIssue]:
    """axe-core's ``violations`` of ``page`` (as the audit script posts them) as
    issues at their lines; ``covered``: ``(rule, line)`` the file checks already
    report (``line`` ``None``: the whole page)."""
    rules = [v for v in violations or [] if isinstance(v, dict) and v.get("id")]
    issues: list[GateIssue] = []
    for violation in sorted(rules, key=_rank):
        rule, impact = str(violation["id"]), str(violation.get("impact") or "")
        if (rule, None) in covered and rule in PAGE_RULES:
            continue
        help_text = str(violation.get("help") or rule)
        nodes = [n for n in violation.get("nodes") or [] if isinstance(n, dict)]
        count = violation.get("count")
        total = max(len(nodes), count if isinstance(count, int) else 0)
        shown: list[GateIssue] = []
        said = 0  # elements the file checks report already
        for node in nodes:
            placed = at_line(tags, node.get("at"))
            line, written = placed if placed else (None, "")
            if line is not None and (rule, line) in covered:
                said += 1
            elif len(shown) < PER_RULE:
                shown.append(_issue(page, rule, impact, help_text, line, written, node))
        more = total - said - len(shown)
        if shown and more > 0:
            shown[-1].message += f" (and {more} more like it)"
        issues += shown
    return issues[:MAX_ISSUES]


def _issue(
    page: str, rule: str, impact: str, help_text: str, line: int | None, written: str, node: dict
) -> GateIssue:
    element = _short(written or _STAMPED.sub("", str(node.get("html") or "")))
    if element and line is None:
        element += " (not in the file as written: a script or the browser made it)"
    found = plain_summary(str(node.get("summary") or ""))
    plain = PLAIN.get(rule, "")
    # After our words, axe's first finding is enough (a contrast's ratio and colours).
    first = found.split("; ")[0]
    hint = f"{plain} (axe-core: {first})" if plain and first else plain or found
    message = f"{help_text} ({rule}, {impact or 'impact not given'})"
    return GateIssue(
        path=page,
        line=line,
        message=f"{message}: {element}" if element else message,
        hint=_short(hint, 400),
    )
