"""Small DOM helpers: element building, owned event listeners, tasks, safe markdown.

Everything that shows model text goes through ``textContent`` / text nodes and
``setAttribute`` on attributes we choose; nothing here ever assigns
``innerHTML``.  :func:`render_markdown` turns the pure AST of
:mod:`wiggum.ui.markdown` (already stripped of unsafe links) into elements.

Event listeners are Pyodide proxies: :class:`Listeners` creates them with
``create_proxy``, remembers them, and removes + destroys them on ``close()``
so nothing leaks when a view goes away.  Views prefer one delegated listener
per container (``data-action`` attributes) over a proxy per element.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable, Coroutine, Iterable
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy, jsnull  # type: ignore[import-not-found]

from wiggum.ui.markdown import Node, parse

__all__ = [
    "Listeners",
    "closest_action",
    "h",
    "is_null",
    "now_ms",
    "render_markdown",
    "render_nodes",
    "spawn",
]

log = logging.getLogger("wiggum.web")
document = js.document

_PROPS = {"value", "checked", "disabled", "hidden", "open", "selected"}


def h(tag: str, attrs: dict[str, Any] | None = None, *children: Any) -> Any:
    """``createElement(tag)`` with attributes and children.

    ``attrs``: ``class`` -> ``className``, ``text`` -> ``textContent``;
    ``value``/``checked``/``disabled``/``hidden``/``open``/``selected`` are set
    as properties; ``True`` -> empty attribute, ``False``/``None`` -> left out.
    Children: elements, strings (text nodes), ``None`` (skipped), or lists.
    """
    el = document.createElement(tag)
    for key, value in (attrs or {}).items():
        if value is None or (value is False and key not in _PROPS):
            continue
        if key == "class":
            el.className = value
        elif key == "text":
            el.textContent = str(value)
        elif key in _PROPS:
            setattr(el, key, value)
        else:
            el.setAttribute(key, "" if value is True else str(value))
    _append(el, children)
    return el


def _append(el: Any, children: Iterable[Any]) -> None:
    for child in children:
        if child is None or child is False:
            continue
        if isinstance(child, str):
            el.appendChild(document.createTextNode(child))
        elif isinstance(child, list | tuple):
            _append(el, child)
        else:
            el.appendChild(child)


class Listeners:
    """Owns event-listener proxies; ``close()`` removes and destroys them."""

    def __init__(self) -> None:
        self._items: list[tuple[Any, str, Any]] = []

    def on(self, target: Any, event: str, fn: Callable[[Any], Any]) -> None:
        proxy = create_proxy(fn)
        target.addEventListener(event, proxy)
        self._items.append((target, event, proxy))

    def close(self) -> None:
        items, self._items = self._items, []
        for target, event, proxy in items:
            try:
                target.removeEventListener(event, proxy)
            finally:
                proxy.destroy()


_tasks: set[asyncio.Task] = set()


def spawn(coro: Coroutine[Any, Any, Any], *, what: str = "task") -> asyncio.Task:
    """Run ``coro`` in the background, keeping a reference and logging failures."""
    task = asyncio.ensure_future(coro)
    _tasks.add(task)

    def done(t: asyncio.Task) -> None:
        _tasks.discard(t)
        if not t.cancelled() and t.exception() is not None:
            exc = t.exception()
            log.error("%s failed: %s", what, exc, exc_info=exc)
            js.console.error(f"wiggum {what}: {type(exc).__name__}: {exc}")

    task.add_done_callback(done)
    return task


def is_null(value: Any) -> bool:
    """JavaScript ``null``/``undefined`` (Pyodide gives ``jsnull`` for ``null``)."""
    return value is None or value is jsnull


def now_ms() -> float:
    return float(js.performance.now())


def closest_action(event: Any) -> Any:
    """The element with ``data-action`` the event happened in, or ``None``."""
    target = event.target
    if is_null(target) or not hasattr(target, "closest"):
        return None
    found = target.closest("[data-action]")
    return None if is_null(found) else found


# ------------------------------------------------------------------ markdown

_UNSAFE_TITLE = "Link removed: its address was not safe to open"


def render_markdown(text: str) -> Any:
    """A ``DocumentFragment`` for the markdown ``text`` (safe: no HTML is parsed)."""
    frag = document.createDocumentFragment()
    render_nodes(parse(text).children, frag)
    return frag


def render_nodes(nodes: list[Node], parent: Any, *, tight: bool = False) -> None:
    for node in nodes:
        el = _render(node, tight)
        if el is not None:
            parent.appendChild(el)


def _render(node: Node, tight: bool = False) -> Any:
    t = node.type
    if t == "text":
        return document.createTextNode(node.text)
    if t in ("softbreak", "hardbreak"):
        return document.createElement("br")
    if t == "paragraph":
        if tight:
            frag = document.createDocumentFragment()
            render_nodes(node.children, frag)
            return frag
        el = document.createElement("p")
    elif t == "heading":
        el = document.createElement(f"h{min(max(node.level, 1), 6)}")
    elif t == "emph":
        el = document.createElement("em")
    elif t == "strong":
        el = document.createElement("strong")
    elif t == "code":
        el = document.createElement("code")
        el.textContent = node.text
        return el
    elif t == "code_block":
        return _code_block(node)
    elif t == "link":
        el = document.createElement("a")
        el.setAttribute("href", node.href)
        el.setAttribute("rel", "noopener noreferrer")
        el.setAttribute("target", "_blank")
        if node.title:
            el.setAttribute("title", node.title)
    elif t == "unsafe_link":
        el = document.createElement("span")
        el.className = "unsafe-link"
        el.setAttribute("title", _UNSAFE_TITLE)
    elif t == "list":
        el = document.createElement("ol" if node.ordered else "ul")
        if node.ordered and node.start != 1:
            el.setAttribute("start", str(node.start))
        for item in node.children:
            li = document.createElement("li")
            render_nodes(item.children, li, tight=node.tight)
            el.appendChild(li)
        return el
    elif t == "blockquote":
        el = document.createElement("blockquote")
    elif t == "hr":
        return document.createElement("hr")
    elif t == "table":
        return _table(node)
    else:  # unknown node types show their text
        el = document.createElement("span")
    render_nodes(node.children, el)
    return el


def _code_block(node: Node) -> Any:
    lang = node.lang[:40]
    head = h(
        "div",
        {"class": "codeblock-head"},
        h("span", {"class": "codeblock-lang", "text": lang or "code"}),
        h(
            "button",
            {
                "type": "button",
                "class": "codeblock-copy",
                "data-action": "copy-code",
                "aria-label": f"Copy {lang} code" if lang else "Copy code",
                "text": "Copy",
            },
        ),
    )
    code = document.createElement("code")
    code.textContent = node.text
    pre = h("pre", {"tabindex": "0"}, code)
    return h("div", {"class": "codeblock", "data-lang": lang or None}, head, pre)


def _table(node: Node) -> Any:
    thead = document.createElement("thead")
    tbody = document.createElement("tbody")
    for row in node.children:
        tr = document.createElement("tr")
        for i, cell in enumerate(row.children):
            td = document.createElement("th" if row.header else "td")
            align = node.align[i] if i < len(node.align) else ""
            if align:
                td.style.textAlign = align
            render_nodes(cell.children, td)
            tr.appendChild(td)
        (thead if row.header else tbody).appendChild(tr)
    table = h("table", None, thead, tbody)
    return h("div", {"class": "table-wrap"}, table)
