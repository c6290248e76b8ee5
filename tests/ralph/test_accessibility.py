"""axe-core's findings in the site checks: at the line each element is written, once.

``FOUND`` is what the audit script posted for ``PAGE`` in Chromium with the
vendored axe-core 4.14.1 (recorded, not written by hand: the rules, impacts,
help texts and failure summaries are axe's own).
"""

from __future__ import annotations

import re

from wiggum.fs import MemoryFileStore
from wiggum.preview.entry import bundle_entry_page
from wiggum.preview.page import STAMP, start_tags
from wiggum.ralph.accessibility import PER_RULE, accessibility_issues
from wiggum.ralph.site_checks import audit_site, basics_said

PAGE = """<!DOCTYPE html>
<html><head><title>T</title></head>
<body>
<main>
<p style="color:#aaa;background:#fff">light text</p>
<img src="a.png">
<input id="q" placeholder="Search">
<a href="#x"></a>
<button></button>
</main>
<script>const i = document.createElement("img"); document.body.appendChild(i);</script>
</body></html>
"""
_ANY = "Fix any of the following:\n  "
_NO_NAME = (
    "\n  aria-label attribute does not exist or is empty\n  aria-labelledby attribute does not "
    "exist, references elements that do not exist or references elements that are empty\n  "
    "Element has no title attribute"
)
_IMG = _ANY + "Element does not have an alt attribute" + _NO_NAME
FOUND = [
    {
        "id": "button-name",
        "impact": "critical",
        "help": "Buttons must have discernible text",
        "count": 1,
        "nodes": [
            {
                "at": "9",
                "html": '<button data-wiggum-tag="9"></button>',
                "summary": _ANY + "Element does not have inner text that is visible to "
                "screen readers" + _NO_NAME,
            }
        ],
    },
    {
        "id": "color-contrast",
        "impact": "serious",
        "help": "Elements must meet minimum color contrast ratio thresholds",
        "count": 1,
        "nodes": [
            {
                "at": "5",
                "html": '<p data-wiggum-tag="5" style="color:#aaa;background:#fff">light text</p>',
                "summary": _ANY + "Element has insufficient color contrast of 2.32 (foreground "
                "color: #aaaaaa, background color: #ffffff, font size: 12.0pt (16px), font "
                "weight: normal). Expected contrast ratio of 4.5:1",
            }
        ],
    },
    {
        "id": "html-has-lang",
        "impact": "serious",
        "help": "<html> element must have a lang attribute",
        "count": 1,
        "nodes": [
            {
                "at": "0",
                "html": '<html data-wiggum-tag="0">',
                "summary": _ANY + "The <html> element does not have a lang attribute",
            }
        ],
    },
    {
        "id": "image-alt",
        "impact": "critical",
        "help": "Images must have alternative text",
        "count": 2,
        "nodes": [
            {"at": "6", "html": '<img data-wiggum-tag="6" src="a.png">', "summary": _IMG},
            {"at": "", "html": "<img>", "summary": _IMG},
        ],
    },
    {
        "id": "link-name",
        "impact": "serious",
        "help": "Links must have discernible text",
        "count": 1,
        "nodes": [
            {
                "at": "8",
                "html": '<a data-wiggum-tag="8" href="#x" data-wiggum-fragment="x"></a>',
                "summary": "Fix all of the following:\n  Element is in tab order and does not "
                "have accessible text\n\n" + _ANY + "Element does not have text that is "
                "visible to screen readers" + _NO_NAME,
            }
        ],
    },
]


def test_each_finding_is_at_its_line_as_written_once_and_most_serious_first():
    issues = accessibility_issues("index.html", start_tags(PAGE), FOUND, basics_said(PAGE))
    assert [(i.line, i.message) for i in issues] == [
        (9, "Buttons must have discernible text (button-name, critical): <button>"),
        # The <img> of line 6 and the missing lang are the file check's to say;
        # the image a script made is axe's alone, and has no line.
        (
            None,
            "Images must have alternative text (image-alt, critical): <img> (not in the file "
            "as written: a script or the browser made it)",
        ),
        (
            5,
            "Elements must meet minimum color contrast ratio thresholds (color-contrast, "
            'serious): <p style="color:#aaa;background:#fff">',
        ),
        (8, 'Links must have discernible text (link-name, serious): <a href="#x">'),
    ]
    assert all(i.path == "index.html" for i in issues)
    contrast = issues[2].hint
    assert contrast.startswith("make the text darker") and "contrast of 2.32" in contrast
    assert issues[1].hint == (
        'describe the image in alt="..." (alt="" when it is only decoration) '
        "(axe-core: Element does not have an alt attribute)"
    )
    # Without the file check's word, axe says it all.
    everything = accessibility_issues("index.html", start_tags(PAGE), FOUND)
    assert [(i.line, i.message.split(" (")[1][:9]) for i in everything][:3] == [
        (9, "button-na"),
        (6, "image-alt"),
        (None, "image-alt"),
    ]
    assert any(i.message.startswith("<html> element must have a lang") for i in everything)


def test_a_rule_broken_many_times_shows_a_few_and_counts_the_rest():
    nodes = [{"at": "5", "html": "<p>", "summary": "Fix any of the following:\n  x"}] * 8
    rule = {"id": "region", "impact": "moderate", "help": "Content in landmarks", "count": 12}
    issues = accessibility_issues("a.html", start_tags(PAGE), [{**rule, "nodes": nodes}])
    assert len(issues) == PER_RULE
    assert issues[-1].message.endswith("(and 7 more like it)")
    assert issues[0].hint == "x"  # no words of ours: axe's summary


def test_what_a_page_posts_is_read_without_trusting_it():
    tags = start_tags(PAGE)
    assert accessibility_issues("a.html", tags, "x") == []
    assert accessibility_issues("a.html", tags, None) == []
    junk = [{"id": 3, "nodes": "y", "count": "z"}, {"nodes": []}, 7, {"id": "r", "nodes": [1]}]
    assert accessibility_issues("a.html", tags, junk) == []
    far = [{"id": "r", "impact": "bad", "nodes": [{"at": "999", "html": "<b>"}, {"at": "-1"}]}]
    issues = accessibility_issues("a.html", tags, far)
    assert [(i.line, i.message) for i in issues] == [
        (None, "r (r, bad): <b> (not in the file as written: a script or the browser made it)"),
        (None, "r (r, bad)"),
    ]


async def test_the_audit_numbers_the_tags_loads_axe_after_the_site_and_reads_it():
    fs = MemoryFileStore({"index.html": PAGE, "a.png": "x"})
    loads: list[str] = []
    answers = [
        ({"overflow": [], "axe": FOUND}, []),
        ({"overflow": [], "axe_error": "axe-core did not load in the page"}, []),
        (None, []),
    ]

    async def load(html: str, width: int):
        loads.append(html)
        return answers[len(loads) - 1]

    url = "http://127.0.0.1:8000/static/vendor/axe-core-4.14.1/axe.min.js"
    results = {r.gate: r for r in await audit_site(fs, load, axe=url)}
    html = loads[0]
    loader = f'<script data-wiggum-preview="axe" src="{url}"></script>'
    assert html.index("appendChild(i)") < html.index(loader) < html.index("wiggum-preview-audit")
    assert '<button data-wiggum-tag="9">' in html
    assert [i.line for i in results["accessibility"].issues] == [9, None, 5, 8]
    assert "Accessibility problems (axe-core)." in results["accessibility"].message
    for why in ("axe-core did not load in the page", "the page did not finish loading"):
        result = {r.gate: r for r in await audit_site(fs, load, axe=url)}["accessibility"]
        assert result.passed and result.message.startswith(f"not run: {why}")


async def test_the_bundle_numbers_start_tags_as_the_file_reads_them():
    page = (
        '<!DOCTYPE html>\n<html lang="en"><head><link rel="stylesheet" href="s.css">\n'
        "<!-- <p>not a tag</p> --><script src=a.js></script><script>if (1 < 2) {}</script>\n"
        '</head><body><br/><img src="p.png" alt="">\n<P CLASS=x>y</P><svg><path d="M0"/></svg>'
        "</body></html>"
    )
    fs = MemoryFileStore({"index.html": page, "s.css": "p{}", "a.js": "1", "p.png": "x"})
    bundle = await bundle_entry_page(fs, stamp=True)
    stamped = re.findall(rf'<([A-Za-z]+) {STAMP}="(\d+)"', bundle.html)
    assert [(t, int(n)) for t, n in stamped] == [
        ("html", 0),
        ("head", 1),
        ("style", 2),  # the stylesheet's <link>, inlined
        ("script", 3),
        ("script", 4),
        ("body", 5),
        ("br", 6),
        ("img", 7),
        ("P", 8),
        ("svg", 9),
        ("path", 10),
    ]
    assert [(t, line) for t, line, _ in start_tags(page)][7:9] == [("img", 4), ("p", 5)]
    assert STAMP not in (await bundle_entry_page(fs)).html
