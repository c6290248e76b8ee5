"""A small fake browser for running ``wiggum.web``'s views under CPython.

The model is PyScript's LTK tests (a ``js`` module of stand-ins) and Toga's
``dummy`` backend: :func:`install` puts the modules ``js``, ``pyodide`` and
``pyodide.ffi`` in ``sys.modules`` so that the views import, build and react
as they do in the page, and a test reads what they drew and clicks on it.
:meth:`FakeBrowser.uninstall` takes them out again, with every ``wiggum.web``
module imported meanwhile (``wiggum.web.dom`` binds ``js.document`` when it
is imported: each test gets a fresh page and fresh module state).

What it fakes, as the browser does it:

- the page before Python runs: ``index.html``'s ``#app`` with its header
  (``.app-header``, ``#app-status``) and ``#app-root``;
- the tree: elements (``tagName``, attributes, ``className``/``classList``,
  ``id``, ``textContent``, children and the ways to move them), text nodes,
  fragments; appending moves a node; putting a node inside itself raises;
- properties: ``hidden``/``disabled``/``open`` reflect to attributes;
  ``value``/``checked``/``selected`` do not (a ``<select>``'s value is its
  selected option's); ``style`` through the CSSOM (``cssText``,
  ``setProperty``); JavaScript ``null`` is ``jsnull`` (falsy), as in Pyodide;
- selectors: tag, ``*``, ``.class``, ``#id``, ``[attr]``, ``[attr=value]``
  (quoted or not), ``:not(...)``, compounds of those, the descendant and the
  child (``>``) combinators, lists with ``,``; any other selector raises, as
  a bad selector does in the browser;
- events: listeners, bubbling to the document and ``window``,
  ``preventDefault``/``stopPropagation``, and the default actions of a click:
  none on a disabled control, a checkbox toggles, ``<summary>`` opens its
  ``<details>``, a submit button (a ``<button>`` without ``type`` is one)
  submits its form, and a ``method="dialog"`` form closes its dialog;
  ``Element.dispatch(type, **fields)`` is the test's way in;
- ``<dialog>``: ``showModal()`` (refused on a dialog outside the document, as
  the browser refuses it), ``close()`` with its ``close`` event; ``focus()``
  and ``document.activeElement``;
- the browser's loop: ``setTimeout``, ``requestAnimationFrame`` and
  ``MessageChannel`` run their callbacks on the asyncio loop;
  :meth:`FakeBrowser.flush` runs the loop until nothing is due,
  :meth:`FakeBrowser.until` until a condition holds;
- ``window`` (``innerWidth``, ``localStorage``, ``prompt``/``confirm``/
  ``open``, which a test may replace), ``navigator`` (``platform``, a
  ``clipboard`` that records what was written), ``location.origin`` and ``.href``,
  ``performance``, ``console`` (recorded), ``Date``, ``Object``, ``JSON``,
  ``ResizeObserver`` (observers recorded, called by :meth:`FakeBrowser.resize`);
- ``pyodide.ffi``: ``create_proxy`` (a callable with ``destroy()``; a
  destroyed proxy raises when called, as Pyodide's does),
  ``create_once_callable``, ``to_js``, ``JsException``, ``JsProxy`` (what
  every object of the fake is), ``ConversionError``, ``jsnull``;
- what went wrong: :meth:`FakeBrowser.problems` lists the error line a failed
  handler or task shows, console errors and errors logged under ``wiggum``
  (the ``dom`` fixture fails a test that leaves any).

What it does not fake: layout and CSS (sizes and scroll positions are numbers
a test sets; nothing scrolls or fires ``scroll`` by itself), HTML parsing
(assigning ``innerHTML``/``outerHTML`` raises: the views never do), focus
rules, form validation and submission by Enter, the network (``fetch``
rejects), IndexedDB, Web Locks and ``BroadcastChannel`` (absent, as in a
browser without them: the code checks), CodeMirror, frames' documents.
"""

from __future__ import annotations

import asyncio
import contextlib
import datetime
import json
import logging
import re
import sys
import time
import types
from collections.abc import Callable, Iterable, Iterator
from typing import Any

__all__ = ["FakeBrowser", "JsException", "install", "jsnull"]

HTML_NS = "http://www.w3.org/1999/xhtml"
ORIGIN = "http://127.0.0.1:8000"


# ------------------------------------------------------------------ pyodide.ffi


class _JsNull:
    """JavaScript ``null`` as Pyodide gives it: falsy, one of it."""

    _instance: _JsNull | None = None

    def __new__(cls) -> _JsNull:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "null"


jsnull = _JsNull()


class JsException(Exception):
    """A JavaScript error (``name``: ``"NotAllowedError"``, ``"InvalidStateError"``…)."""

    def __init__(self, name: str = "Error", message: str = "") -> None:
        super().__init__(f"{name}: {message}")
        self.name = name
        self.message = message


class JsProxy:
    """What every JavaScript object of the fake is, as in Pyodide."""


class ConversionError(Exception):
    """A value ``to_js``/``to_py`` cannot convert."""


class _Proxy(JsProxy):
    """What ``create_proxy`` gives: calls ``fn`` until destroyed."""

    def __init__(self, fn: Callable[..., Any], *, once: bool = False) -> None:
        self._fn: Callable[..., Any] | None = fn
        self._once = once

    def __call__(self, *args: Any) -> Any:
        fn = self._fn
        if fn is None:
            raise JsException("Error", "a destroyed proxy was called (use after destroy)")
        if self._once:
            self._fn = None
        return fn(*args)

    def destroy(self) -> None:
        if self._fn is None and not self._once:
            raise JsException("Error", "a proxy was destroyed twice")
        self._fn = None


def create_proxy(fn: Callable[..., Any], **_: Any) -> _Proxy:
    return _Proxy(fn)


def create_once_callable(fn: Callable[..., Any], **_: Any) -> _Proxy:
    return _Proxy(fn, once=True)


class JsObject(types.SimpleNamespace, JsProxy):
    """A plain JavaScript object (``Object.new()``, a converted dict)."""


def to_js(value: Any, *, dict_converter: Any = None, **_: Any) -> Any:
    if isinstance(value, dict):
        return JsObject(**{str(k): to_js(v) for k, v in value.items()})
    if isinstance(value, list | tuple):
        return [to_js(v) for v in value]
    return value


class _Done(JsProxy):
    """A settled promise: ``await`` gives ``value`` (or raises ``error``)."""

    def __init__(self, value: Any = None, error: BaseException | None = None) -> None:
        self.value, self.error = value, error

    def __await__(self) -> Iterator[Any]:
        if self.error is not None:
            raise self.error
        return self.value
        yield  # a generator: awaitable


# ------------------------------------------------------------------ events


class Event(JsProxy):
    """A DOM event; ``fields`` (``key="Enter"``, ``ctrlKey=True``, ``data=…``) are its own."""

    def __init__(self, type_: str, **fields: Any) -> None:
        self.type = type_
        self.target: Any = jsnull
        self.currentTarget: Any = jsnull
        self.defaultPrevented = False
        self.key = ""
        self.ctrlKey = self.metaKey = self.shiftKey = self.altKey = False
        self.button = 0
        self.clientX = self.clientY = 0
        self.pointerId = 1
        self.relatedTarget: Any = jsnull
        self.dataTransfer: Any = None
        self.clipboardData: Any = None
        self._stopped = False
        for name, value in fields.items():
            setattr(self, name, value)

    def preventDefault(self) -> None:
        self.defaultPrevented = True

    def stopPropagation(self) -> None:
        self._stopped = True

    stopImmediatePropagation = stopPropagation


class EventTarget(JsProxy):
    def __init__(self) -> None:
        self._listeners: dict[str, list[Any]] = {}

    def addEventListener(self, type_: str, listener: Any, *_options: Any) -> None:
        found = self._listeners.setdefault(type_, [])
        if listener not in found:  # the browser adds the same listener once
            found.append(listener)

    def removeEventListener(self, type_: str, listener: Any, *_options: Any) -> None:
        found = self._listeners.get(type_, [])
        if listener in found:
            found.remove(listener)

    def _fire(self, event: Event) -> None:
        event.currentTarget = self
        for listener in list(self._listeners.get(event.type, [])):
            listener(event)


def _dispatch(target: Any, event: Event) -> Event:
    """Fire ``event`` at ``target`` and up through its ancestors, the document
    and the window (connected nodes), then do the click's default action."""
    if event.type == "click" and _disabled_control(target):
        return event  # the browser fires no click on a disabled control
    toggled = _pre_click(target) if event.type == "click" else None
    event.target = target
    path: list[Any] = [target]
    node = getattr(target, "_parent", None)
    while node is not None:
        path.append(node)
        node = node._parent
    if isinstance(path[-1], Document):
        path.append(path[-1]._browser.window)
    for current in path:
        current._fire(event)
        if event._stopped:
            break
    event.currentTarget = jsnull
    if event.type == "click":
        _post_click(target, event, toggled)
    return event


def _disabled_control(node: Any) -> bool:
    while isinstance(node, Element):
        if node.localName in ("button", "input", "select", "textarea") and node.disabled:
            return True
        node = node._parent
    return False


def _pre_click(target: Any) -> Any:
    """A checkbox toggles before the click's listeners run (and back if prevented)."""
    if isinstance(target, Element) and target.localName == "input" and target.type == "checkbox":
        target.checked = not target.checked
        return target
    return None


def _post_click(target: Any, event: Event, toggled: Any) -> None:
    if toggled is not None:
        if event.defaultPrevented:
            toggled.checked = not toggled.checked
        else:
            toggled.dispatch("input")
            toggled.dispatch("change")
        return
    if event.defaultPrevented or not isinstance(target, Element):
        return
    summary = target.closest("summary")
    if summary and isinstance(summary._parent, Element) and summary._parent.localName == "details":
        details = summary._parent
        details.open = not details.open
        details.dispatch("toggle")
        return
    button = target.closest("button")
    if button and button.type == "submit":
        form = button.closest("form")
        if form:
            submitted = form.dispatch("submit", submitter=button)
            if not submitted.defaultPrevented and form.getAttribute("method") == "dialog":
                dialog = form.closest("dialog")
                if dialog:
                    dialog.close()


# ------------------------------------------------------------------ selectors

_SIMPLE = re.compile(
    r"""(?P<cls>\.[\w-]+)
      | (?P<id>\#[\w-]+)
      | \[\s*(?P<attr>[\w-]+)\s*(?:=\s*(?:"(?P<dq>[^"]*)"|'(?P<sq>[^']*)'|(?P<bare>[\w-]+)))?\s*\]
      | (?P<not>:not\()""",
    re.VERBOSE,
)
_TAG = re.compile(r"\*|[a-zA-Z][\w-]*")
_COMBINATOR = re.compile(r"\s*([>,])\s*|\s+")

Compound = tuple[str | None, list[tuple[str, Any]]]


def _compound(text: str, i: int) -> tuple[Compound, int]:
    tag = None
    m = _TAG.match(text, i)
    if m:
        tag = None if m.group() == "*" else m.group().lower()
        i = m.end()
    conds: list[tuple[str, Any]] = []
    while True:
        m = _SIMPLE.match(text, i)
        if not m:
            break
        i = m.end()
        if m.group("cls"):
            conds.append(("class", m.group("cls")[1:]))
        elif m.group("id"):
            conds.append(("id", m.group("id")[1:]))
        elif m.group("attr"):
            value = next((v for v in m.group("dq", "sq", "bare") if v is not None), None)
            conds.append(("attr", (m.group("attr").lower(), value)))
        else:
            inner, i = _compound(text, i)
            if text[i : i + 1] != ")":
                raise ValueError(f"the fake DOM cannot read the selector {text!r}")
            conds.append(("not", inner))
            i += 1
    return (tag, conds), i


def _parse(selector: str) -> list[list[tuple[str, Compound]]]:
    """A selector list: each selector its compounds, each with the combinator
    before it (``""`` for the first, ``" "`` descendant, ``">"`` child)."""
    out: list[list[tuple[str, Compound]]] = []
    text = selector.strip()
    i, parts, comb = 0, [], ""
    while True:
        start = i
        compound, i = _compound(text, i)
        if i == start:
            raise ValueError(f"the fake DOM cannot read the selector {selector!r}")
        parts.append((comb, compound))
        m = _COMBINATOR.match(text, i)
        if i == len(text):
            out.append(parts)
            return out
        if not m:
            raise ValueError(f"the fake DOM cannot read the selector {selector!r}")
        i = m.end()
        if m.group(1) == ",":
            out.append(parts)
            parts, comb = [], ""
        else:
            comb = m.group(1) or " "


def _matches_compound(el: Element, compound: Compound) -> bool:
    tag, conds = compound
    if tag is not None and el.localName.lower() != tag:
        return False
    for kind, arg in conds:
        if kind == "class" and arg not in el.classList:
            return False
        if kind == "id" and el.getAttribute("id") != arg:
            return False
        if kind == "attr":
            name, value = arg
            if not el.hasAttribute(name) or (value is not None and el.getAttribute(name) != value):
                return False
        if kind == "not" and _matches_compound(el, arg):
            return False
    return True


def _matches_parts(el: Element, parts: list[tuple[str, Compound]]) -> bool:
    comb, compound = parts[-1]
    if not _matches_compound(el, compound):
        return False
    if len(parts) == 1:
        return True
    rest = parts[:-1]
    parent = el._parent
    if comb == ">":
        return isinstance(parent, Element) and _matches_parts(parent, rest)
    while isinstance(parent, Element):
        if _matches_parts(parent, rest):
            return True
        parent = parent._parent
    return False


def _matches(el: Element, selector: str) -> bool:
    return any(_matches_parts(el, parts) for parts in _parse(selector))


# ------------------------------------------------------------------ nodes


class Node(EventTarget):
    nodeType = 0

    def __init__(self, document: Document | None) -> None:
        super().__init__()
        self._parent: Node | None = None
        self._children: list[Node] = []
        self._document = document

    # -- where it is

    @property
    def ownerDocument(self) -> Any:
        return self._document if self._document is not None else jsnull

    @property
    def parentNode(self) -> Any:
        return self._parent if self._parent is not None else jsnull

    @property
    def parentElement(self) -> Any:
        return self._parent if isinstance(self._parent, Element) else jsnull

    @property
    def isConnected(self) -> bool:
        node: Node | None = self
        while node is not None:
            if isinstance(node, Document):
                return True
            node = node._parent
        return False

    @property
    def childNodes(self) -> list[Node]:
        return list(self._children)

    def isSameNode(self, other: Any) -> bool:
        return other is self

    def contains(self, other: Any) -> bool:
        node = other if isinstance(other, Node) else None
        while node is not None:
            if node is self:
                return True
            node = node._parent
        return False

    # -- text

    @property
    def textContent(self) -> str:
        return "".join(child.textContent for child in self._children)

    @textContent.setter
    def textContent(self, value: Any) -> None:
        text = "" if value is None else str(value)
        self.replaceChildren(*([text] if text else []))

    # -- moving nodes

    def _node(self, value: Any) -> Node:
        if isinstance(value, Node):
            return value
        if isinstance(value, str):
            return Text(self._document, value)
        raise TypeError(f"not a node: {value!r}")

    def _insert(self, nodes: Iterable[Any], at: int) -> None:
        for value in nodes:
            node = self._node(value)
            if isinstance(node, DocumentFragment):
                moved = list(node._children)
                for child in moved:
                    child._detach()
                self._insert(moved, at)
                at += len(moved)
                continue
            if node.contains(self):
                raise JsException("HierarchyRequestError", "a node cannot go inside itself")
            if node._parent is self and self._children.index(node) < at:
                at -= 1
            node._detach()
            node._parent = self
            self._children.insert(at, node)
            at += 1
        self._changed()

    def _changed(self) -> None:
        """The children changed (a ``<select>`` picks its option again)."""

    def _detach(self) -> None:
        parent = self._parent
        if parent is not None:
            parent._children.remove(self)
            self._parent = None
            parent._changed()

    def appendChild(self, node: Any) -> Any:
        self._insert([node], len(self._children))
        return node

    def append(self, *nodes: Any) -> None:
        self._insert(nodes, len(self._children))

    def prepend(self, *nodes: Any) -> None:
        self._insert(nodes, 0)

    def insertBefore(self, node: Any, ref: Any) -> Any:
        if ref is None or ref is jsnull:
            return self.appendChild(node)
        if ref not in self._children:
            raise JsException("NotFoundError", "insertBefore: the reference is not a child")
        self._insert([node], self._children.index(ref))
        return node

    def replaceChildren(self, *nodes: Any) -> None:
        for child in list(self._children):
            child._detach()
        self.append(*nodes)

    def remove(self) -> None:
        self._detach()

    def before(self, *nodes: Any) -> None:
        parent = self._parent
        if parent is not None:
            parent._insert(nodes, parent._children.index(self))

    def after(self, *nodes: Any) -> None:
        parent = self._parent
        if parent is not None:
            parent._insert(nodes, parent._children.index(self) + 1)

    def replaceWith(self, *nodes: Any) -> None:
        parent = self._parent
        if parent is not None:
            at = parent._children.index(self)
            self._detach()
            parent._insert(nodes, at)

    # -- finding elements

    def _elements(self) -> Iterator[Element]:
        """The element descendants, in document order."""
        for child in self._children:
            if isinstance(child, Element):
                yield child
                yield from child._elements()

    @property
    def children(self) -> list[Element]:
        return [c for c in self._children if isinstance(c, Element)]

    @property
    def firstElementChild(self) -> Any:
        found = self.children
        return found[0] if found else jsnull

    @property
    def lastElementChild(self) -> Any:
        found = self.children
        return found[-1] if found else jsnull

    def querySelectorAll(self, selector: str) -> list[Element]:
        _parse(selector)  # a bad selector raises even where nothing matches
        return [el for el in self._elements() if _matches(el, selector)]

    def querySelector(self, selector: str) -> Any:
        found = self.querySelectorAll(selector)
        return found[0] if found else jsnull

    def getElementById(self, id_: str) -> Any:
        return next((el for el in self._elements() if el.getAttribute("id") == id_), jsnull)

    def dispatch(self, type_: str, **fields: Any) -> Event:
        """Fire an event of ``type_`` here, as the person or the browser would
        (a test helper); returns it (``defaultPrevented``…)."""
        return _dispatch(self, Event(type_, **fields))


class Text(Node):
    nodeType = 3
    nodeName = "#text"

    def __init__(self, document: Document | None, data: str) -> None:
        super().__init__(document)
        self.data = data

    @property
    def textContent(self) -> str:
        return self.data

    @textContent.setter
    def textContent(self, value: Any) -> None:
        self.data = "" if value is None else str(value)

    def __repr__(self) -> str:
        return f"#text {self.data!r}"


class DocumentFragment(Node):
    nodeType = 11
    nodeName = "#document-fragment"


class ClassList:
    """``element.classList``: the ``class`` attribute as a set of words."""

    def __init__(self, el: Element) -> None:
        self._el = el

    def _words(self) -> list[str]:
        return (self._el.getAttribute("class") or "").split()

    def _set(self, words: list[str]) -> None:
        self._el.setAttribute("class", " ".join(dict.fromkeys(words)))

    def __contains__(self, word: str) -> bool:
        return word in self._words()

    def __iter__(self) -> Iterator[str]:
        return iter(self._words())

    def contains(self, word: str) -> bool:
        return word in self

    def add(self, *words: str) -> None:
        self._set([*self._words(), *words])

    def remove(self, *words: str) -> None:
        self._set([w for w in self._words() if w not in words])

    def toggle(self, word: str, force: bool | None = None) -> bool:
        on = (word not in self) if force is None else bool(force)
        (self.add if on else self.remove)(word)
        return on


class Style:
    """``element.style``: properties set through the CSSOM (never a ``style`` attribute)."""

    def __init__(self) -> None:
        self._props: dict[str, str] = {}

    @property
    def cssText(self) -> str:
        return "; ".join(f"{k}: {v}" for k, v in self._props.items())

    @cssText.setter
    def cssText(self, text: str) -> None:
        self._props = {}
        for part in str(text).split(";"):
            name, sep, value = part.partition(":")
            if sep and name.strip():
                self._props[name.strip()] = value.strip()

    def setProperty(self, name: str, value: Any, *_: Any) -> None:
        self._props[name] = str(value)

    def getPropertyValue(self, name: str) -> str:
        return self._props.get(name, "")

    def removeProperty(self, name: str) -> str:
        return self._props.pop(name, "")


def _reflected(attr: str) -> property:
    """A string property that is the attribute ``attr``."""

    def get(self: Element) -> str:
        value = self.getAttribute(attr)
        return "" if value is jsnull else value

    def set_(self: Element, value: Any) -> None:
        self.setAttribute(attr, str(value))

    return property(get, set_)


def _flag(attr: str) -> property:
    """A boolean property that is the presence of the attribute ``attr``."""

    def get(self: Element) -> bool:
        return self.hasAttribute(attr)

    def set_(self: Element, on: Any) -> None:
        if on:
            self.setAttribute(attr, "")
        else:
            self.removeAttribute(attr)

    return property(get, set_)


def _state(attr: str) -> property:
    """A boolean property that starts as the attribute ``attr`` and, once set,
    no longer follows it (``checked``, ``selected``)."""

    def get(self: Element) -> bool:
        return self._states.get(attr, self.hasAttribute(attr))

    def set_(self: Element, on: Any) -> None:
        self._states[attr] = bool(on)
        if attr == "selected" and on:
            self._selected_alone()

    return property(get, set_)


#: What a page may not do to an element (the views build every node; the CSP
#: refuses inline handlers and styles).
_FORBIDDEN = {"innerHTML", "outerHTML"}


class Element(Node):
    nodeType = 1

    def __init__(self, document: Document | None, name: str, namespace: str = HTML_NS) -> None:
        super().__init__(document)
        self.namespaceURI = namespace
        self.localName = name.lower() if namespace == HTML_NS else name
        self._attrs: dict[str, str] = {}
        self._value: Any = None  # a form control's value, once set
        self._states: dict[str, bool] = {}  # checked, selected: once set, not the attribute
        self._none_selected = False  # a <select> whose value matched no option
        self.style = Style()
        self.scrollHeight = 0
        self.clientHeight = 0
        self.clientWidth = 0
        self.offsetWidth = 0
        self._scroll_top = 0.0

    def __setattr__(self, name: str, value: Any) -> None:
        if name in _FORBIDDEN:
            raise AssertionError(f"{name} assigned: the views build nodes, never markup")
        super().__setattr__(name, value)

    def insertAdjacentHTML(self, *_: Any) -> None:
        raise AssertionError("insertAdjacentHTML called: the views build nodes, never markup")

    def __repr__(self) -> str:
        attrs = " ".join(f'{k}="{v}"' for k, v in self._attrs.items())
        return f"<{self.localName}{' ' + attrs if attrs else ''}>"

    @property
    def tagName(self) -> str:
        return self.localName.upper() if self.namespaceURI == HTML_NS else self.localName

    nodeName = tagName

    # -- attributes

    def setAttribute(self, name: str, value: Any) -> None:
        self._attrs[str(name).lower()] = str(value)
        self._mutated(str(name).lower())

    def getAttribute(self, name: str) -> Any:
        return self._attrs.get(str(name).lower(), jsnull)

    def hasAttribute(self, name: str) -> bool:
        return str(name).lower() in self._attrs

    def removeAttribute(self, name: str) -> None:
        self._attrs.pop(str(name).lower(), None)
        self._mutated(str(name).lower())

    def _mutated(self, name: str) -> None:
        for observer, names in list(self.__dict__.get("_mutation_watchers", ())):
            if names is None or name in names:
                observer.callback([], observer)

    def getAttributeNames(self) -> list[str]:
        return list(self._attrs)

    id = _reflected("id")
    className = _reflected("class")
    title = _reflected("title")
    placeholder = _reflected("placeholder")
    href = _reflected("href")
    src = _reflected("src")
    hidden = _flag("hidden")
    disabled = _flag("disabled")
    open = _flag("open")

    @property
    def classList(self) -> ClassList:
        return ClassList(self)

    @property
    def type(self) -> str:
        value = self.getAttribute("type")
        if value:
            return value.lower()
        return {"button": "submit", "input": "text"}.get(self.localName, "")

    @type.setter
    def type(self, value: str) -> None:
        self.setAttribute("type", value)

    # -- form controls

    @property
    def options(self) -> list[Element]:
        return [el for el in self._elements() if el.localName == "option"]

    @property
    def value(self) -> Any:
        tag = self.localName
        if tag == "select":
            chosen = [o for o in self.options if o.selected]
            if chosen:
                return chosen[0].value
            first = self.options[:1]
            return "" if self._none_selected or not first else first[0].value
        if tag == "option":
            value = self.getAttribute("value")
            return " ".join(self.textContent.split()) if value is jsnull else value
        if self._value is not None:
            return self._value
        if tag == "textarea":
            return self.textContent
        value = self.getAttribute("value")
        return "" if value is jsnull else value

    @value.setter
    def value(self, value: Any) -> None:
        tag = self.localName
        text = "" if value is None else str(value)
        if tag == "select":
            found = False
            for option in self.options:
                option._states["selected"] = not found and option.value == text
                found = found or option.selected
            self._none_selected = not found
        elif tag == "option":
            self.setAttribute("value", text)
        elif tag in ("input", "textarea"):
            self._value = text
        else:
            self._value = value

    checked = _state("checked")
    selected = _state("selected")

    def _selected_alone(self) -> None:
        """One option of a select is selected: the others are not."""
        select = self.closest("select")
        if select:
            select._none_selected = False
            for option in select.options:
                if option is not self:
                    option._states["selected"] = False

    def _changed(self) -> None:
        if self.localName == "select":
            self._none_selected = False

    # -- selectors

    def closest(self, selector: str) -> Any:
        _parse(selector)
        node: Node | None = self
        while isinstance(node, Element):
            if _matches(node, selector):
                return node
            node = node._parent
        return jsnull

    # -- what the person does

    def click(self) -> None:
        self.dispatch("click")

    def focus(self, *_: Any) -> None:
        if self._document is not None:
            self._document._active = self

    def blur(self) -> None:
        if self._document is not None and self._document._active is self:
            self._document._active = None

    def select(self) -> None:
        """Select an input's text (nothing to see here)."""

    def scrollIntoView(self, *_: Any) -> None:
        """Nothing scrolls in the fake."""

    def setPointerCapture(self, *_: Any) -> None:
        """Pointer capture needs a pointer."""

    def releasePointerCapture(self, *_: Any) -> None:
        """Pointer capture needs a pointer."""

    # -- <dialog>

    def showModal(self) -> None:
        if not self.isConnected:
            raise JsException("InvalidStateError", "showModal() on a dialog not in the document")
        if self.open and not getattr(self, "_modal", False):
            raise JsException("InvalidStateError", "showModal() on a dialog open non-modally")
        self._modal = True
        self.open = True

    def close(self, *_: Any) -> None:
        if self.open:
            self.open = False
            self._modal = False
            self.dispatch("close")

    # -- layout numbers

    @property
    def scrollTop(self) -> float:
        return self._scroll_top

    @scrollTop.setter
    def scrollTop(self, value: float) -> None:
        most = max(0, self.scrollHeight - self.clientHeight)
        self._scroll_top = max(0, min(float(value), most))

    @property
    def offsetParent(self) -> Any:
        if not self.isConnected or not is_shown(self):
            return jsnull
        return self.parentElement


def is_shown(el: Element) -> bool:
    """Neither ``el`` nor an ancestor is ``hidden`` (what the person can see, CSS aside)."""
    node: Node | None = el
    while isinstance(node, Element):
        if node.hidden:
            return False
        node = node._parent
    return True


class Document(Node):
    nodeType = 9
    nodeName = "#document"

    def __init__(self, browser: FakeBrowser) -> None:
        super().__init__(None)
        self._browser = browser
        self._active: Element | None = None
        self.visibilityState = "visible"
        self.documentElement = self.createElement("html")
        self.head = self.createElement("head")
        self.body = self.createElement("body")
        self.documentElement.append(self.head, self.body)
        self.appendChild(self.documentElement)

    @property
    def textContent(self) -> Any:
        return jsnull

    def createElement(self, tag: str) -> Element:
        return Element(self, tag)

    def createElementNS(self, namespace: str, tag: str) -> Element:
        return Element(self, tag, namespace)

    def createTextNode(self, data: str) -> Text:
        return Text(self, str(data))

    def createDocumentFragment(self) -> DocumentFragment:
        return DocumentFragment(self)

    @property
    def activeElement(self) -> Any:
        active = self._active
        return active if active is not None and active.isConnected else self.body


# ------------------------------------------------------------------ the browser around


class Storage:
    """``localStorage``: strings by key."""

    def __init__(self) -> None:
        self.items: dict[str, str] = {}

    def getItem(self, key: str) -> Any:
        return self.items.get(key, jsnull)

    def setItem(self, key: str, value: Any) -> None:
        self.items[key] = str(value)


class Window(EventTarget):
    """``window``: a test may replace ``prompt``, ``confirm`` and ``open``."""

    def __init__(self) -> None:
        super().__init__()
        self.innerWidth = 1280
        self.localStorage = Storage()
        self.prompt: Callable[..., Any] = lambda *_: jsnull  # cancelled
        self.confirm: Callable[..., bool] = lambda *_: False
        self.open: Callable[..., Any] = lambda *_: jsnull  # a blocked popup


class Clipboard:
    """``navigator.clipboard``: ``written`` holds each text; ``refuse`` makes it refuse."""

    def __init__(self) -> None:
        self.written: list[str] = []
        self.refuse = False

    def writeText(self, text: str) -> _Done:
        if self.refuse:
            return _Done(error=JsException("NotAllowedError", "the clipboard is refused"))
        self.written.append(str(text))
        return _Done()


class Console:
    """``console``: what was said, by level."""

    def __init__(self) -> None:
        self.said: dict[str, list[str]] = {}

    def _say(self, level: str) -> Callable[..., None]:
        return lambda *parts: self.said.setdefault(level, []).append(" ".join(map(str, parts)))

    def __getattr__(self, level: str) -> Callable[..., None]:
        if level.startswith("_"):
            raise AttributeError(level)
        return self._say(level)

    @property
    def errors(self) -> list[str]:
        return self.said.get("error", [])


class ResizeObserver:
    def __init__(self, browser: FakeBrowser, callback: Any) -> None:
        self.callback = callback
        self.observed: list[Any] = []
        browser.observers.append(self)

    def observe(self, el: Any, *_: Any) -> None:
        self.observed.append(el)

    def disconnect(self) -> None:
        self.observed.clear()


class MutationObserver:
    """Attribute changes only (what the views observe); the callback runs at once,
    where the browser's runs in a microtask."""

    def __init__(self, callback: Any) -> None:
        self.callback = callback
        self.watched: list[Any] = []

    def observe(self, el: Any, options: Any = None) -> None:
        names = getattr(options, "attributeFilter", None)
        watch = (self, set(names) if names else None)
        el.__dict__.setdefault("_mutation_watchers", []).append(watch)
        self.watched.append(el)

    def disconnect(self) -> None:
        for el in self.watched:
            watchers = el.__dict__.get("_mutation_watchers", [])
            watchers[:] = [w for w in watchers if w[0] is not self]
        self.watched.clear()


class _Port:
    def __init__(self, browser: FakeBrowser) -> None:
        self._browser = browser
        self.onmessage: Any = None
        self.other: _Port | None = None

    def postMessage(self, data: Any, *_: Any) -> None:
        other = self.other
        assert other is not None
        self._browser._later(
            0, lambda: other.onmessage and other.onmessage(Event("message", data=data))
        )


class MessageChannel:
    def __init__(self, browser: FakeBrowser) -> None:
        self.port1, self.port2 = _Port(browser), _Port(browser)
        self.port1.other, self.port2.other = self.port2, self.port1


class _Constructor:
    """A JavaScript class as Pyodide shows it: ``Name.new(…)`` builds one."""

    def __init__(self, make: Callable[..., Any], **statics: Any) -> None:
        self.new = make
        for name, value in statics.items():
            setattr(self, name, value)


class _Date:
    def __init__(self, ms: float | None = None) -> None:
        self._ms = time.time() * 1000 if ms is None else float(ms)

    def toLocaleString(self, *_: Any) -> str:
        return datetime.datetime.fromtimestamp(self._ms / 1000).strftime("%d/%m/%Y, %H:%M:%S")


def _fetch(*_: Any, **__: Any) -> _Done:
    return _Done(error=JsException("TypeError", "Failed to fetch (the fake DOM has no network)"))


class _AbortController:
    def __init__(self) -> None:
        self.signal = JsObject(aborted=False)

    def abort(self, *_: Any) -> None:
        self.signal.aborted = True


# ------------------------------------------------------------------ install


class _ErrorLog(logging.Handler):
    """Keeps what ``wiggum`` logged at ERROR (a view's failure is logged there)."""

    def __init__(self) -> None:
        super().__init__(logging.ERROR)
        self.records: list[logging.LogRecord] = []

    def emit(self, record: logging.LogRecord) -> None:
        self.records.append(record)


class FakeBrowser:
    """One page's browser: its modules, its document, what it recorded."""

    def __init__(self) -> None:
        self.observers: list[ResizeObserver] = []
        self._due: set[asyncio.TimerHandle | asyncio.Handle] = set()
        self._t0 = time.perf_counter()
        self.window = Window()
        self.document = Document(self)
        self.console = Console()
        self.clipboard = Clipboard()
        self.navigator = JsObject(platform="Linux x86_64", clipboard=self.clipboard)
        self.location = JsObject(origin=ORIGIN, href=ORIGIN + "/")
        self.performance = JsObject(
            now=lambda: (time.perf_counter() - self._t0) * 1000,
            mark=lambda *_: None,
            measure=lambda *_: None,
        )
        self._errors = _ErrorLog()
        self._build_page()
        self.js = self._js_module()
        self.ffi = types.ModuleType("pyodide.ffi")
        for name, value in {
            "ConversionError": ConversionError,
            "JsException": JsException,
            "create_proxy": create_proxy,
            "create_once_callable": create_once_callable,
            "jsnull": jsnull,
            "to_js": to_js,
            "JsProxy": JsProxy,
        }.items():
            setattr(self.ffi, name, value)
        self.pyodide = types.ModuleType("pyodide")
        self.pyodide.ffi = self.ffi

    def _build_page(self) -> None:
        """``index.html``'s body before Python runs: the header and ``#app-root``."""
        doc = self.document

        def el(tag: str, id_: str, cls: str, *children: Any) -> Element:
            node = doc.createElement(tag)
            node.id, node.className = id_, cls
            node.append(*children)
            return node

        header = doc.createElement("header")
        header.className = "app-header"
        header.append(el("span", "app-status", "app-status"))
        main = el("main", "app-main", "app-main", el("div", "app-root", "app-root"))
        doc.body.appendChild(el("div", "app", "app", header, main))

    def _js_module(self) -> types.ModuleType:
        js = types.ModuleType("js")
        window = self.window
        values = {
            "window": window,
            "globalThis": window,
            "document": self.document,
            "navigator": self.navigator,
            "location": self.location,
            "performance": self.performance,
            "console": self.console,
            "setTimeout": self.setTimeout,
            "requestAnimationFrame": self.requestAnimationFrame,
            "MessageChannel": _Constructor(lambda: MessageChannel(self)),
            "ResizeObserver": _Constructor(lambda callback: ResizeObserver(self, callback)),
            "MutationObserver": _Constructor(MutationObserver),
            "Date": _Constructor(_Date, now=lambda: time.time() * 1000),
            "Object": _Constructor(
                JsObject,
                fromEntries=lambda pairs: JsObject(**{str(k): v for k, v in dict(pairs).items()}),
                **{"is": lambda a, b: a is b},
            ),
            "JSON": JsObject(parse=json.loads, stringify=json.dumps),
            "fetch": _fetch,
            "AbortController": _Constructor(_AbortController),
        }
        for name, value in values.items():
            setattr(js, name, value)
        for name in ("setTimeout", "requestAnimationFrame", "document"):
            setattr(window, name, values[name])
        window.location = self.location
        window.navigator = self.navigator
        return js

    # -- the loop

    def _later(self, delay_ms: float, fn: Callable[[], Any]) -> asyncio.TimerHandle:
        loop = asyncio.get_running_loop()
        handle: asyncio.TimerHandle

        def run() -> None:
            self._due.discard(handle)
            fn()

        handle = loop.call_later(max(0.0, delay_ms) / 1000, run)
        self._due.add(handle)
        return handle

    def setTimeout(self, fn: Any, delay: float = 0, *args: Any) -> int:
        return id(self._later(float(delay or 0), lambda: fn(*args)))

    def requestAnimationFrame(self, fn: Any) -> int:
        return self.setTimeout(lambda: fn(self.performance.now()), 16)

    async def flush(self, *, within: float = 0.1, rounds: int = 200) -> None:
        """Run the loop until no callback of the page is due within ``within``
        seconds (a render slice, a frame, a timer of a moment)."""
        loop = asyncio.get_running_loop()
        for _ in range(rounds):
            for _ in range(3):  # what the callbacks started (tasks) takes its turns
                await asyncio.sleep(0)
            soon = [h.when() for h in self._due if h.when() - loop.time() <= within]
            if not soon:
                return
            await asyncio.sleep(max(0.0, min(soon) - loop.time()))

    async def until(self, check: Callable[[], Any], timeout: float = 5.0) -> None:
        """Let the loop run (HTTP answers, tasks) until ``check()`` holds."""
        async with asyncio.timeout(timeout):
            while not check():
                await asyncio.sleep(0.01)

    def resize(self) -> None:
        """What the browser does after a layout that changed an observed size."""
        for observer in list(self.observers):
            if observer.observed:
                observer.callback([], observer)

    # -- what went wrong

    def problems(self) -> list[str]:
        """What the page showed or said went wrong: the error line a failed
        handler or task shows, console errors, errors logged under ``wiggum``."""
        found = [f"console.error: {text}" for text in self.console.errors]
        line = self.document.getElementById("view-error")
        if line and not line.hidden:
            found.append(f"error line: {line.textContent}")
        for record in self._errors.records:
            found.append(f"logged: {record.name}: {record.getMessage()}")
            if record.exc_info and record.exc_info[1] is not None:
                found.append(f"  {type(record.exc_info[1]).__name__}: {record.exc_info[1]}")
        return found

    def forgive(self) -> None:
        """The test expected what went wrong so far (and checked it)."""
        self.console.said.pop("error", None)
        self._errors.records.clear()
        line = self.document.getElementById("view-error")
        if line:
            line.hidden = True

    # -- in and out of sys.modules

    def install(self) -> FakeBrowser:
        for name in ("js", "pyodide", "pyodide.ffi"):
            if name in sys.modules:
                raise RuntimeError(f"{name} is imported already: not under a fake DOM")
        sys.modules.update({"js": self.js, "pyodide": self.pyodide, "pyodide.ffi": self.ffi})
        _drop_web_modules()
        logger = logging.getLogger("wiggum")
        self._level = logger.level  # the page's logging sets its own
        logger.addHandler(self._errors)
        return self

    def uninstall(self) -> None:
        logger = logging.getLogger("wiggum")
        logger.removeHandler(self._errors)
        logger.setLevel(self._level)
        web = sys.modules.get("wiggum.web.dom")
        for task in list(getattr(web, "_tasks", ())):
            task.cancel()
        for handle in self._due:
            handle.cancel()
        self._due.clear()
        for name in ("js", "pyodide", "pyodide.ffi"):
            sys.modules.pop(name, None)
        _drop_web_modules()


def _drop_web_modules() -> None:
    """Forget ``wiggum.web`` (bound to one page's ``js``), so the next import is fresh."""
    import wiggum

    for name in [n for n in sys.modules if n == "wiggum.web" or n.startswith("wiggum.web.")]:
        del sys.modules[name]
    with contextlib.suppress(AttributeError):
        delattr(wiggum, "web")


def install() -> FakeBrowser:
    """A fresh page, its modules in ``sys.modules`` (undo with ``uninstall()``)."""
    return FakeBrowser().install()
