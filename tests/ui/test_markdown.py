"""wiggum.ui.markdown: CommonMark conformance, GFM extras, and safety against hostile text.

``data/commonmark-0.31.2.json`` is the CommonMark 0.31.2 spec's example list as
shipped in markdown-it-py 4.3.0's source distribution on PyPI
(``tests/test_cmark_spec/commonmark.json``), copied unchanged.
"""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

from wiggum.ui.markdown import El, plain_text, render, safe_href, to_html

SPEC = json.loads((Path(__file__).parent / "data" / "commonmark-0.31.2.json").read_text("utf-8"))
EXCLUDED_SECTIONS = {"Raw HTML", "HTML blocks", "Images"}
_WITH_HTML, _NO_HTML = MarkdownIt("commonmark"), MarkdownIt("commonmark", {"html": False})


def _is_raw_html(ex: dict) -> bool:
    """Examples elsewhere whose expected output passes raw HTML through (shown as text here)."""
    return _WITH_HTML.render(ex["markdown"]) != _NO_HTML.render(ex["markdown"])


def _by_policy(ex: dict) -> bool:
    """Examples whose expected output has an image or a link we refuse (not http(s)/mailto/relative)."""
    if "<img" in ex["html"]:
        return True
    return any(
        safe_href(h, relative=True) is None for h in re.findall(r'<a href="([^"]*)"', ex["html"])
    )


CHECKED = [ex for ex in SPEC if ex["section"] not in EXCLUDED_SECTIONS and not _is_raw_html(ex)]
CONFORMING = [ex for ex in CHECKED if not _by_policy(ex)]
POLICY = [ex for ex in CHECKED if _by_policy(ex)]


def test_spec_counts():
    # 652 examples; 86 in the raw HTML / HTML blocks / images sections; 15 more
    # pass raw HTML through; 8 link to an image or an unsafe scheme (see below).
    assert (len(SPEC), len(CHECKED), len(CONFORMING), len(POLICY)) == (652, 551, 543, 8)


@pytest.mark.parametrize("ex", CONFORMING, ids=lambda ex: f"ex{ex['example']}")
def test_commonmark_spec_example(ex):
    assert to_html(render(ex["markdown"], gfm=False, relative_links=True)) == ex["html"]


@pytest.mark.parametrize("ex", POLICY, ids=lambda ex: f"ex{ex['example']}")
def test_spec_examples_with_refused_links_show_no_image_and_no_unsafe_href(ex):
    out = to_html(render(ex["markdown"], gfm=False, relative_links=True))
    assert "<img" not in out
    for href in re.findall(r'<a href="([^"]*)"', out):
        assert safe_href(href, relative=True) is not None


def test_gfm_spec_examples_still_pass_with_gfm_on():
    # Tables, strikethrough, task lists and linkify (URLs, e-mail addresses) change nothing else.
    plain = [
        ex for ex in CONFORMING if not re.search(r"[|~@]|www\.|https?://\S+\s", ex["markdown"])
    ]
    bad = [
        ex["example"]
        for ex in plain
        if to_html(render(ex["markdown"], relative_links=True)) != ex["html"]
    ]
    assert bad == []


# ------------------------------------------------------------------- GFM


def tags(nodes) -> list[str]:
    out = []

    def walk(n):
        if isinstance(n, El):
            out.append(n.tag)
            for c in n.children:
                walk(c)

    for n in nodes:
        walk(n)
    return out


def find(nodes, tag: str) -> list[El]:
    out = []

    def walk(n):
        if isinstance(n, El):
            if n.tag == tag:
                out.append(n)
            for c in n.children:
                walk(c)

    for n in nodes:
        walk(n)
    return out


def test_table_with_alignment_and_inline_markup():
    out = to_html(render("| a | b |\n|:--|--:|\n| **x** | `y` |\n"))
    assert out == (
        "<table>\n<thead>\n<tr>\n"
        '<th style="text-align:left">a</th>\n<th style="text-align:right">b</th>\n'
        "</tr>\n</thead>\n<tbody>\n<tr>\n"
        '<td style="text-align:left"><strong>x</strong></td>\n'
        '<td style="text-align:right"><code>y</code></td>\n'
        "</tr>\n</tbody>\n</table>\n"
    )


def test_strikethrough():
    assert to_html(render("a ~~gone~~ b")) == "<p>a <del>gone</del> b</p>\n"


def test_task_list():
    nodes = render("- [ ] todo\n- [x] done\n- plain\n")
    boxes = find(nodes, "input")
    assert [b.attrs.get("checked") for b in boxes] == [None, ""]
    assert all(b.attrs["type"] == "checkbox" and "disabled" in b.attrs for b in boxes)
    assert find(nodes, "ul")[0].attrs == {"class": "contains-task-list"}
    assert [li.attrs.get("class") for li in find(nodes, "li")] == [
        "task-list-item",
        "task-list-item",
        None,
    ]
    assert "[ ]" not in plain_text(nodes) and "[x]" not in plain_text(nodes)


def test_bare_urls_are_linked():
    (a,) = find(render("see https://example.com/x."), "a")
    assert a.attrs["href"] == "https://example.com/x"
    assert a.attrs["rel"] == "noopener noreferrer" and a.attrs["target"] == "_blank"


def test_fenced_code_keeps_language_and_text():
    (pre,) = render("```python\nprint('<b>')\n```\n")
    assert pre.tag == "pre"
    (code,) = pre.children
    assert code.attrs == {"class": "language-python"} and code.children == ["print('<b>')\n"]


def test_unclosed_fence_runs_to_the_end():
    (pre,) = render("```js\nstill streaming\n")
    assert plain_text(pre) == "still streaming\n"


def test_in_page_anchor_has_no_target():
    (a,) = find(render("[top](#top)"), "a")
    assert a.attrs == {"href": "#top", "rel": "noopener noreferrer"}


def test_relative_links_are_text_in_the_page():
    nodes = render("[docs](/docs) [p](page.html)")
    assert find(nodes, "a") == []
    assert plain_text(nodes) == "docs p"


def test_image_becomes_link_never_an_image():
    nodes = render('![alt text](https://x.org/i.png "t")')
    assert "img" not in tags(nodes)
    (a,) = find(nodes, "a")
    assert a.attrs["href"] == "https://x.org/i.png" and plain_text(a) == "alt text"


def test_entities_and_escapes():
    assert plain_text(render("&amp; &lt;b&gt; \\*not em\\* &copy;")) == "& <b> *not em* ©"


# ----------------------------------------------------------------- safety

#: Only these tags can ever come out of the tree (no script, iframe, img, svg, style, ...).
ALLOWED_TAGS = {
    "p", "h1", "h2", "h3", "h4", "h5", "h6", "blockquote", "ul", "ol", "li", "pre", "code",
    "em", "strong", "del", "a", "span", "br", "hr", "table", "thead", "tbody", "tr", "th", "td",
    "input",
}  # fmt: skip
ALLOWED_ATTRS = {"href", "rel", "target", "title", "class", "start", "style", "type", "checked",
                 "disabled"}  # fmt: skip

RAW_HTML = [
    "<script>window.__pwned=1</script>",
    '<img src=x onerror="window.__pwned=2">',
    "<iframe src=javascript:alert(1)></iframe>",
    '<a href="javascript:alert(1)">x</a>',
    "<svg onload=alert(1)>",
    "<style>body{display:none}</style>",
    "<div\nonclick=alert(1)>x</div>",
    "<!-- x --><script>alert(1)</script>",
    '<input type="checkbox" onfocus=alert(1) autofocus>',
]


def assert_inert(nodes) -> None:
    def walk(n):
        if isinstance(n, str):
            return
        assert n.tag in ALLOWED_TAGS, n.tag
        assert set(n.attrs) <= ALLOWED_ATTRS, n.attrs
        assert not any(k.startswith("on") for k in n.attrs)
        if "href" in n.attrs:
            href = n.attrs["href"]
            assert re.match(r"(https?:|mailto:|#)", href, re.I), href
            assert n.attrs["rel"] == "noopener noreferrer"
        if "style" in n.attrs:
            assert re.fullmatch(r"text-align:(left|right|center)", n.attrs["style"])
        if n.tag == "input":
            assert n.attrs["type"] == "checkbox" and "disabled" in n.attrs
        for c in n.children:
            walk(c)

    for n in nodes:
        walk(n)


@pytest.mark.parametrize("src", RAW_HTML)
def test_raw_html_is_text(src):
    nodes = render(src)
    assert set(tags(nodes)) <= {"p", "br"}
    assert plain_text(nodes).replace("\n", "") == src.replace("\n", "")
    assert_inert(nodes)


UNSAFE_HREFS = [
    "javascript:window.__pwned=3",
    "JAVASCRIPT:alert(1)",
    "JavaScript:alert(1)",
    " javascript:alert(1)",
    "\x01javascript:alert(1)",
    "java\nscript:alert(1)",
    "&#106;avascript:alert(1)",
    "&#x6A;avascript:alert(1)",
    "&#0000106;avascript:alert(1)",
    "jav&#x09;ascript:alert(1)",
    "javascript&colon;alert(1)",
    "data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==",
    "DATA:text/html,<script>alert(1)</script>",
    "vbscript:msgbox(1)",
    "VBScript:msgbox(1)",
    "file:///etc/passwd",
    "\u200bjavascript:alert(1)",
    "/relative",
    "//evil.example/x",
]


@pytest.mark.parametrize("href", UNSAFE_HREFS)
def test_unsafe_schemes_refused(href):
    assert safe_href(href) is None


@pytest.mark.parametrize(
    "href", ["https://example.com", "HTTP://EXAMPLE.COM", "mailto:a@b.c", "#a"]
)
def test_safe_hrefs_kept(href):
    assert safe_href(href) == href


UNSAFE_LINKS = [
    "[click](javascript:window.__pwned=3)",
    "[click](JAVASCRIPT:alert(1))",
    "[click](&#106;avascript:alert(1))",
    "[click](<javascript:alert(1)>)",
    "[click]( javascript:alert(1))",
    "[click](java&#x09;script:alert(1))",
    "[click](java%0ascript:alert(1))",
    "[click](data:text/html;base64,AAAA)",
    "[click](vbscript:msgbox)",
    "![x](javascript:alert(1))",
    "![x](data:image/svg+xml,<svg onload=alert(1)>)",
    "<javascript:alert(1)>",
    "[**bold**](javascript:alert(1))",
    "> - [nested](javascript:alert(1))",
    "[ref]\n\n[ref]: javascript:alert(1)",
    '[x](javascript:alert(1) "t")',
    "www.example.com/<script>",
]


@pytest.mark.parametrize("src", UNSAFE_LINKS)
def test_unsafe_links_render_as_text(src):
    nodes = render(src)
    assert_inert(nodes)
    for a in find(nodes, "a"):
        assert not re.search(r"javascript|data:|vbscript", a.attrs["href"], re.I)


def test_every_link_in_a_hostile_document_is_safe():
    doc = "\n\n".join(
        [
            *RAW_HTML,
            *UNSAFE_LINKS,
            "[a](javascript:alert(1)) [b](https://ok.example) *[c](data:x)*",
            "| [t](vbscript:x) | b |\n|---|---|\n| 1 | <img src=x onerror=alert(1)> |",
            "1. [x](JaVaScRiPt:alert(1))\n   > [y](https://ok.example/y)",
            "- [ ] <b onmouseover=alert(1)>task</b>",
            "```html\n<script>alert(1)</script>\n```",
        ]
    )
    nodes = render(doc)
    assert_inert(nodes)
    assert {a.attrs["href"] for a in find(nodes, "a")} <= {
        "https://ok.example",
        "https://ok.example/y",
        "http://www.example.com/",
    }


def test_deep_nesting_does_not_crash():
    render("> " * 50 + "deep")
    render("- " * 50 + "deep")
    render("*" * 5000 + "x" + "*" * 5000)
    render("[" * 3000 + "x" + "]" * 3000)
    # markdown-it stops nesting at 20 levels (what lies deeper is dropped, not crashed on)
    assert tags(render("> " * 2000 + "deep")).count("blockquote") <= 20
