"""wiggum.ui.markdown: structure, and safety against model text that tries to be markup."""

from __future__ import annotations

import pytest

from wiggum.ui.markdown import Node, parse, parse_inline, plain_text, safe_href


def types(nodes: list[Node]) -> list[str]:
    return [n.type for n in nodes]


def walk(node: Node):
    yield node
    for c in node.children:
        yield from walk(c)


def all_nodes(text: str) -> list[Node]:
    return list(walk(parse(text)))


# ----------------------------------------------------------------- structure


def test_paragraphs_and_headings():
    doc = parse("# Title\n\nFirst line\nsecond line\n\nSub\n---\n\n### h3 ###")
    assert types(doc.children) == ["heading", "paragraph", "heading", "heading"]
    assert [h.level for h in doc.children if h.type == "heading"] == [1, 2, 3]
    assert plain_text(doc.children[3]) == "h3"
    para = doc.children[1]
    assert types(para.children) == ["text", "softbreak", "text"]


def test_hard_breaks():
    para = parse("a  \nb\\\nc").children[0]
    assert types(para.children) == ["text", "hardbreak", "text", "hardbreak", "text"]


def test_emphasis_strong_and_code():
    inl = parse_inline("*em* **strong** _u_ __uu__ `co*de*` ***both***")
    assert types(inl) == [
        "emph",
        "text",
        "strong",
        "text",
        "emph",
        "text",
        "strong",
        "text",
        "code",
        "text",
        "emph",
    ]
    assert inl[8].text == "co*de*"
    assert inl[-1].children[0].type == "strong"


def test_intraword_underscore_is_text():
    assert plain_text(parse_inline("snake_case_name")) == "snake_case_name"
    assert types(parse_inline("snake_case_name")) == ["text"]


def test_unclosed_emphasis_stays_text():
    assert plain_text(parse_inline("**not closed")) == "**not closed"


def test_fenced_code_block_with_language():
    doc = parse("```python\nprint('<b>')\n  x = 1\n```\nafter")
    code = doc.children[0]
    assert code.type == "code_block" and code.lang == "python"
    assert code.text == "print('<b>')\n  x = 1\n"
    assert doc.children[1].type == "paragraph"


def test_unclosed_fence_runs_to_the_end():
    doc = parse("text\n\n~~~\nstill streaming")
    assert doc.children[-1].type == "code_block"
    assert doc.children[-1].text == "still streaming\n"


def test_lists_nested_and_ordered():
    doc = parse("- a\n- b\n  - b1\n  - b2\n- c\n\n3. three\n4. four")
    ul, ol = doc.children
    assert ul.type == "list" and not ul.ordered and ul.tight
    assert len(ul.children) == 3
    nested = ul.children[1].children[1]
    assert nested.type == "list" and len(nested.children) == 2
    assert ol.ordered and ol.start == 3 and len(ol.children) == 2


def test_loose_list():
    ul = parse("- a\n\n- b").children[0]
    assert ul.type == "list" and not ul.tight and len(ul.children) == 2


def test_blockquote_nested_constructs():
    doc = parse("> # Quote\n> - item *em*\n>\n> ```\n> code\n> ```")
    q = doc.children[0]
    assert q.type == "blockquote"
    assert types(q.children) == ["heading", "list", "code_block"]
    assert q.children[2].text == "code\n"


def test_table():
    doc = parse("| a | b |\n|:--|--:|\n| 1 | **2** |\n")
    t = doc.children[0]
    assert t.type == "table" and t.align == ("left", "right")
    assert [r.header for r in t.children] == [True, False]
    assert t.children[1].children[1].children[0].type == "strong"


def test_hr():
    assert types(parse("a\n\n***\n\nb").children) == ["paragraph", "hr", "paragraph"]


def test_links_and_autolinks():
    inl = parse_inline('[Docs](https://example.com/x "T") <https://a.b/c> see https://x.org/p.')
    links = [n for n in inl if n.type == "link"]
    assert [(link.href, link.title) for link in links] == [
        ("https://example.com/x", "T"),
        ("https://a.b/c", ""),
        ("https://x.org/p", ""),
    ]
    assert plain_text(inl).endswith("https://x.org/p.")


def test_link_with_nested_emphasis_and_parens():
    (link,) = [n for n in parse_inline("[**bold** link](https://w.org/a_(b))") if n.type == "link"]
    assert link.href == "https://w.org/a_(b)"
    assert link.children[0].type == "strong"


def test_image_becomes_link_never_an_image():
    nodes = all_nodes("![alt text](https://example.com/i.png)")
    assert "image" not in {n.type for n in nodes}
    (link,) = [n for n in nodes if n.type == "link"]
    assert plain_text(link) == "alt text"


def test_relative_and_mailto_links_allowed():
    hrefs = [
        n.href
        for n in all_nodes("[a](/docs) [b](mailto:x@y.z) [c](#top) [d](page.html)")
        if n.type == "link"
    ]
    assert hrefs == ["/docs", "mailto:x@y.z", "#top", "page.html"]


def test_entities_and_escapes():
    assert plain_text(parse_inline("&amp; &lt;b&gt; \\*not em\\* &copy;")) == "& <b> *not em* ©"


# ----------------------------------------------------------------- safety


RAW_HTML = [
    "<script>window.__pwned=1</script>",
    '<img src=x onerror="window.__pwned=2">',
    "<iframe src=javascript:alert(1)></iframe>",
    '<a href="javascript:alert(1)">x</a>',
    "<svg onload=alert(1)>",
    "<style>body{display:none}</style>",
]


@pytest.mark.parametrize("src", RAW_HTML)
def test_raw_html_is_text(src):
    nodes = all_nodes(src)
    assert {n.type for n in nodes} <= {"document", "paragraph", "text", "softbreak"}
    assert plain_text(parse(src)) == src


@pytest.mark.parametrize(
    "href",
    [
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
    ],
)
def test_unsafe_schemes_refused(href):
    assert safe_href(href) is None


@pytest.mark.parametrize(
    "src",
    [
        "[click](javascript:window.__pwned=3)",
        "[click](JAVASCRIPT:alert(1))",
        "[click](&#106;avascript:alert(1))",
        "[click](<javascript:alert(1)>)",
        "[click]( javascript:alert(1))",
        "[click](java&#x09;script:alert(1))",
        "[click](data:text/html;base64,AAAA)",
        "[click](vbscript:msgbox)",
        "![x](javascript:alert(1))",
        "<javascript:alert(1)>",
        "[**bold**](javascript:alert(1))",
        "> - [nested](javascript:alert(1))",
    ],
)
def test_unsafe_links_render_as_text(src):
    nodes = all_nodes(src)
    assert not [n for n in nodes if n.type == "link"]
    assert not any("javascript" in n.href.lower() for n in nodes)
    for n in nodes:
        if n.type == "unsafe_link":
            assert n.href == ""


@pytest.mark.parametrize(
    "href", ["https://example.com", "HTTP://EXAMPLE.COM", "mailto:a@b.c", "/x", "./x", "#a", "?q=1"]
)
def test_safe_hrefs_kept(href):
    assert safe_href(href) == href


def test_every_link_in_a_hostile_document_is_safe():
    doc = "\n\n".join(
        [
            *RAW_HTML,
            "[a](javascript:alert(1)) [b](https://ok.example) *[c](data:x)*",
            "| [t](vbscript:x) | b |\n|---|---|\n| 1 | 2 |",
            "1. [x](JaVaScRiPt:alert(1))\n   > [y](https://ok.example/y)",
        ]
    )
    for n in all_nodes(doc):
        if n.type == "link":
            assert n.href.startswith("https://ok.example")


def test_deep_nesting_does_not_crash():
    parse("> " * 50 + "deep")
    parse("- " * 50 + "deep")
    parse("*" * 5000 + "x" + "*" * 5000)
    parse("[" * 3000 + "x" + "]" * 3000)


def test_very_deep_nesting_is_capped():
    doc = parse("> " * 2000 + "deep")
    depth, node = 0, doc
    while node.children and node.children[0].type == "blockquote":
        node, depth = node.children[0], depth + 1
    assert depth <= 30
    assert "deep" in plain_text(doc)
