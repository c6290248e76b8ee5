"""A page as Python's own HTML parser reads it: the reference the tests of
Wiggum's hand-written page edits (attributes, stylesheet links) check against."""

from __future__ import annotations

from html.parser import HTMLParser

#: Start tags that end the head when met before ``</head>`` (the body's content).
_BODY_STARTS = frozenset({"body", "h1", "p", "header", "a", "button", "img", "ul"})


class PageRead(HTMLParser):
    """The stylesheets a page links (each with whether it was met in the head),
    the head's elements in order, and each start tag's attributes (in the order
    written) by tag name."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.links: list[tuple[str, bool]] = []
        self.head: list[str] = []
        self.tags: dict[str, list[list[tuple[str, str | None]]]] = {}
        self.in_head = True
        self.feed(text)
        self.close()

    def handle_starttag(self, tag, attrs):
        self.tags.setdefault(tag, []).append(attrs)
        a = dict(attrs)
        if tag in _BODY_STARTS:
            self.in_head = False
        if self.in_head and tag != "html":
            self.head.append(tag)
        if tag == "link" and a.get("rel") == "stylesheet":
            self.links.append((a.get("href") or "", self.in_head))

    def handle_endtag(self, tag):
        if tag == "head":
            self.in_head = False
