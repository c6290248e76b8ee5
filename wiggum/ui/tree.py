"""The page's static structure as data: element trees the views mount.

A view's markup (which elements, their classes, roles, labels, test ids, the
``data-action`` its click table dispatches on) is a pure tree of
:class:`~wiggum.ui.markdown.El` built here, the way a template is kept apart
from the code that drives it; ``wiggum.web.dom.mount`` turns it into elements
and hands back the ones named with ``ref=``.  So the structure a person relies
on (every button labelled, every control named, each test id once) is
checked under CPython, and ``wiggum/web`` keeps only what reacts.

Attribute values are strings, as in the DOM: ``True`` is an empty attribute,
``False`` and ``None`` leave it out, ``_`` in a keyword is ``-`` and a trailing
``_`` is dropped (``for_`` is ``for``).  No ``on*`` attribute can be made: the
page's policy runs no inline script, and handlers belong to the views.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any

from .markdown import El

__all__ = ["REF", "btn", "e", "refs", "walk"]

#: The attribute naming an element for the view that mounts the tree (not kept in the DOM).
REF = "data-ref"


def _children(items: Iterable[Any]) -> Iterator[El | str]:
    for item in items:
        if item is None or item is False:
            continue
        if isinstance(item, list | tuple):
            yield from _children(item)
        elif isinstance(item, El | str):
            yield item
        else:
            raise TypeError(f"not an element or text: {item!r}")


def e(
    tag: str,
    cls: str | None = None,
    *children: Any,
    text: str | None = None,
    testid: str | None = None,
    action: str | None = None,
    ref: str | None = None,
    **attrs: Any,
) -> El:
    """An element: its class, children (elements, text, ``None`` skipped, lists
    flattened), text, ``data-testid``, ``data-action`` and ``ref`` (the name
    the mounting view finds it by), other attributes as keywords."""
    out: dict[str, str] = {}
    named = {"class": cls, "data-testid": testid, "data-action": action, REF: ref}
    named.update({key.rstrip("_").replace("_", "-"): value for key, value in attrs.items()})
    for key, value in named.items():
        if key.startswith("on"):
            raise ValueError(f"no inline handler: {key}")
        if value is None or value is False:
            continue
        out[key] = "" if value is True else str(value)
    kids = list(_children(children))
    if text is not None:
        kids.append(str(text))
    return El(tag, out, kids)


def btn(
    label: Any = None,
    *,
    action: str | None = None,
    testid: str | None = None,
    cls: str = "btn",
    **attrs: Any,
) -> El:
    """A ``<button type="button">`` (a ``type`` given wins)."""
    return e("button", cls, label, action=action, testid=testid, **{"type": "button", **attrs})


def walk(node: El | str) -> Iterator[El]:
    """``node`` and every element under it, in document order."""
    if isinstance(node, str):
        return
    yield node
    for child in node.children:
        yield from walk(child)


def refs(tree: El) -> dict[str, El]:
    """The tree's named elements (each name once)."""
    found: dict[str, El] = {}
    for node in walk(tree):
        name = node.attrs.get(REF)
        if name is not None:
            if name in found:
                raise ValueError(f"ref {name!r} twice")
            found[name] = node
    return found
