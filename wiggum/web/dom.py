"""Small DOM helpers: mounting element trees, owned event listeners, tasks, safe markdown.

Everything that shows model text goes through ``textContent`` / text nodes and
``setAttribute`` on attributes we choose; nothing here ever assigns
``innerHTML``.  :func:`render_nodes` turns the pure element tree of
:mod:`wiggum.ui.markdown` (already stripped of unsafe links) into elements,
setting only the attributes that tree chose.

Event listeners are Pyodide proxies: :class:`Listeners` creates them with
``create_proxy``, remembers them, and removes + destroys them on ``close()``
so nothing leaks when a view goes away.  Views prefer one delegated listener
per container (``data-action`` attributes) over a proxy per element.
"""

from __future__ import annotations

import asyncio
import json
import logging
import sys
from collections import deque
from collections.abc import Callable, Coroutine, Iterable, Iterator, Mapping, Sequence
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import create_proxy, jsnull, to_js  # type: ignore[import-not-found]

from wiggum.ui.markdown import Child, El, render
from wiggum.ui.markup import reply
from wiggum.ui.tabs import tab_after
from wiggum.ui.tree import REF
from wiggum.web.guard import guarded, show_failure

__all__ = [
    "Listeners",
    "NextFrame",
    "closest_action",
    "code_block",
    "dispatch",
    "download",
    "file_bytes",
    "file_list",
    "is_null",
    "mount",
    "mount_all",
    "mount_steps",
    "now_ms",
    "on_action",
    "post_task",
    "render_markdown",
    "render_nodes",
    "say",
    "set_attrs",
    "spawn",
    "tab_list",
]

log = logging.getLogger("wiggum.web")
document = js.document


class Listeners:
    """Owns event-listener proxies; ``close()`` removes and destroys them."""

    def __init__(self) -> None:
        self._items: list[tuple[Any, str, Any]] = []

    def on(self, target: Any, event: str, fn: Callable[[Any], Any]) -> None:
        # Every view handler passes here: a failure shows an error line, never a blank app.
        proxy = create_proxy(guarded(fn, f"a {event}"))
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


def spawn(
    coro: Coroutine[Any, Any, Any], *, what: str = "task", eager: bool = False
) -> asyncio.Task:
    """Run ``coro`` in the background, keeping a reference and logging failures.

    ``eager``: run it at once up to its first real wait, before this returns
    (what it changes first, e.g. the settings a dialog saves, is in place
    before the next click is handled).  Pyodide's Python has eager tasks; a
    CPython before 3.12 (the tests' fake page) schedules it as usual."""
    if eager and sys.version_info >= (3, 12):
        task = asyncio.Task(coro, loop=asyncio.get_event_loop(), eager_start=True)
    else:
        task = asyncio.ensure_future(coro)
    _tasks.add(task)

    def done(t: asyncio.Task) -> None:
        _tasks.discard(t)
        if not t.cancelled() and t.exception() is not None:
            exc = t.exception()
            log.error("%s failed: %s", what, exc, exc_info=exc)
            js.console.error(f"wiggum {what}: {type(exc).__name__}: {exc}")
            show_failure(what, exc)

    task.add_done_callback(done)
    return task


_posted: deque[Callable[[], Any]] = deque()
_channel: Any = None


def post_task(fn: Callable[[], Any], *, what: str = "a task") -> None:
    """Run ``fn`` in a task of its own, as soon as the browser gets to it.

    Through a ``MessageChannel``: unlike ``queueMicrotask`` it lets the browser
    paint, take input and read the network first; unlike a chain of
    ``setTimeout(0)`` it is not held back to 4 ms a hop.
    """
    global _channel
    if _channel is None:
        _channel = js.MessageChannel.new()
        _channel.port1.onmessage = create_proxy(_run_posted)
    _posted.append(guarded(fn, what))
    _channel.port2.postMessage(None)


def _run_posted(event: Any) -> None:
    if _posted:
        _posted.popleft()()


def is_null(value: Any) -> bool:
    """JavaScript ``null``/``undefined`` (Pyodide gives ``jsnull`` for ``null``)."""
    return value is None or value is jsnull


def plain(value: Any) -> Any:
    """What a frame posted as plain Python (JSON-shaped), whatever it put in it."""
    try:
        return json.loads(str(js.JSON.stringify(value)))
    except Exception:  # a cycle, a BigInt, undefined: not a message of ours
        return None


def now_ms() -> float:
    return float(js.performance.now())


def closest_action(event: Any) -> Any:
    """The element with ``data-action`` the event happened in, or ``None``."""
    target = event.target
    if is_null(target) or not hasattr(target, "closest"):
        return None
    found = target.closest("[data-action]")
    return None if is_null(found) else found


def on_action(
    event: Any, actions: Mapping[str, Callable[..., Any]], *, target: bool = True
) -> None:
    """A view's delegated clicks: run the handler ``actions`` has for the
    ``data-action`` the click happened in, with that element (``target=False``:
    with nothing)."""
    found = closest_action(event)
    handler = None if found is None else actions.get(str(found.getAttribute("data-action")))
    if handler is not None:
        handler(found) if target else handler()


def dispatch(event: Any, actions: Mapping[str, Callable[[], Any]]) -> None:
    """:func:`on_action` for handlers that need not know the element."""
    on_action(event, actions, target=False)


def say(element: Any, text: str | None) -> None:
    """Show ``text`` in ``element`` (a hint, an error line), or hide it (``None``)."""
    element.textContent = text or ""
    element.hidden = not text


def set_attrs(element: Any, attrs: Mapping[str, str | None]) -> None:
    """Set each attribute of ``element`` (``None``: remove it)."""
    for name, value in attrs.items():
        if value is None:
            element.removeAttribute(name)
        else:
            element.setAttribute(name, value)


def tab_list(
    listeners: Listeners,
    tablist: Any,
    names: Sequence[str],
    active: Callable[[], str],
    select: Callable[[str, bool], None],
) -> None:
    """A tab list's clicks and keys (``wiggum.ui.tabs``): a click on a tab
    (``role="tab"``, its id ``…-<name>``) selects it, an arrow, Home or End the
    one it goes to; ``select(name, focus)`` (``focus``: by key, the focus follows)."""

    def clicked(event: Any) -> None:
        tab = event.target.closest('[role="tab"]')
        name = None if is_null(tab) else str(tab.id).rsplit("-", 1)[-1]
        if name in names:
            select(name, False)

    def keyed(event: Any) -> None:
        name = tab_after(str(event.key), active(), names)
        if name is not None:
            event.preventDefault()
            select(name, True)

    listeners.on(tablist, "click", clicked)
    listeners.on(tablist, "keydown", keyed)


# ------------------------------------------------------------------ files in and out


def file_list(files: Any) -> list[Any]:
    """The ``File`` objects of a ``FileList`` (an input's, a drop's; ``None`` or null: none)."""
    if files is None or is_null(files):
        return []
    return [files.item(i) for i in range(int(files.length or 0))]


async def file_bytes(file: Any) -> bytes:
    """What a ``File`` holds."""
    return bytes((await file.arrayBuffer()).to_py())


def download(data: bytes, name: str, mime: str) -> None:
    """Save ``data`` as the file ``name``: a ``Blob`` and a temporary ``<a download>``,
    clicked (nothing is sent anywhere).  Its URL goes a minute later: revoked at
    once, some browsers cancel the download."""
    from wiggum.ui.markup.workspace import download_link

    options = to_js({"type": mime}, dict_converter=js.Object.fromEntries)
    url = js.URL.createObjectURL(js.Blob.new(to_js([to_js(data)]), options))
    link = mount(download_link(url, name)).el
    document.body.appendChild(link)
    try:
        link.click()
    finally:
        link.remove()
        js.setTimeout(js.URL.revokeObjectURL, 60_000, url)


# ------------------------------------------------------------------ trees


class Parts:
    """A mounted tree: its root (``el``) and its named elements as attributes."""

    def __init__(self, root: Any, named: dict[str, Any]) -> None:
        self.el = root
        self.__dict__.update(named)

    def __getattr__(self, name: str) -> Any:  # only for names the tree lacks
        raise AttributeError(f"the tree names no {name!r}")


def mount(tree: El) -> Parts:
    """The elements of ``tree`` (``wiggum.ui.tree``), with those named by
    ``ref=`` (the name is not kept in the DOM)."""
    named: dict[str, Any] = {}
    root = _built(tree, named)
    return Parts(root, named)


def mount_all(trees: Iterable[El | str]) -> list[Any]:
    """The root elements of ``trees`` (a list's items, rows drawn again and again;
    a string stays a string, which ``append`` and ``replaceChildren`` take as text)."""
    return [tree if isinstance(tree, str) else mount(tree).el for tree in trees]


def mount_steps(tree: Child, parent: Any) -> Iterator[None]:
    """Append ``tree`` to ``parent`` an element at a time, a step each (a long
    reply is built in time slices); the same DOM as :func:`mount`."""
    if isinstance(tree, str):
        parent.appendChild(document.createTextNode(tree))
        return
    el_ = _created(tree, {})
    parent.appendChild(el_)
    yield
    for child in tree.children:
        yield from mount_steps(child, el_)


#: An ``svg`` element and everything in it are made in this namespace (an icon).
SVG_NS = "http://www.w3.org/2000/svg"


def _created(node: El, named: dict[str, Any], svg: bool = False) -> Any:
    """The element of ``node`` alone, its attributes set (a ``ref`` into ``named``);
    ``svg``: in the SVG namespace."""
    el_ = document.createElementNS(SVG_NS, node.tag) if svg else document.createElement(node.tag)
    for key, value in node.attrs.items():
        if key == REF:
            named[value] = el_
        elif key == "class" and not svg:  # an SVG element's className is not a string
            el_.className = value
        elif key == "style":  # through the CSSOM: the page's CSP refuses style=""
            el_.style.cssText = value
        else:
            el_.setAttribute(key, value)
    return el_


def _built(node: El, named: dict[str, Any], svg: bool = False) -> Any:
    svg = svg or node.tag == "svg"
    el_ = _created(node, named, svg)
    for child in node.children:
        el_.appendChild(
            document.createTextNode(child) if isinstance(child, str) else _built(child, named, svg)
        )
    return el_


# ------------------------------------------------------------------ markdown


def render_markdown(text: str) -> Any:
    """A ``DocumentFragment`` for the markdown ``text`` (safe: no HTML is parsed)."""
    frag = document.createDocumentFragment()
    render_nodes(render(text), frag)
    return frag


def render_nodes(nodes: list[Child], parent: Any) -> None:
    """Append the DOM of the element tree ``nodes`` (``wiggum.ui.markdown``) to ``parent``."""
    for node in nodes:
        shown = reply.dressed(node)
        parent.appendChild(
            document.createTextNode(shown) if isinstance(shown, str) else mount(shown).el
        )


def code_block(node: El, *, colour: bool = True) -> Any:
    """A code block: language label, Copy button, highlighted code that scrolls sideways.

    ``colour=False``: the code as plain text, to be coloured later in slices
    (``wiggum.web.markdown_view``)."""
    return mount(reply.framed_code(node, colour=colour)).el


class NextFrame:
    """Calls ``fn()`` once in the next animation frame, however often it is asked
    before then.  What a ``ResizeObserver`` reports is laid out here, not in its
    callback: a size changed there would make the browser warn of a loop."""

    def __init__(self, fn: Callable[[], None]) -> None:
        self._fn = fn
        self._id: int | None = None
        self._proxy = create_proxy(self._run)

    def ask(self, *_: Any) -> None:
        if self._id is None:
            self._id = js.requestAnimationFrame(self._proxy)

    def close(self) -> None:
        if self._id is not None:
            js.cancelAnimationFrame(self._id)
            self._id = None
        self._proxy.destroy()

    def _run(self, _time: float) -> None:
        self._id = None
        self._fn()
