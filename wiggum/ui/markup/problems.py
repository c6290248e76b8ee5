"""What the preview's console and its Checks panel share as markup: a panel
under the frame (a head with its title, a summary and a button, over a list of
rows) and the small buttons of its head and rows (Clear, Run checks, Fix,
Ask Chief).  :mod:`~wiggum.ui.markup.console` and
:mod:`~wiggum.ui.markup.checks` fill them.
"""

from __future__ import annotations

from typing import Any

from ..markdown import El
from ..tree import btn, e

__all__ = ["panel", "tool"]


def tool(label: str, name: str, title: str, index: int | None = None) -> El:
    """A small button: ``name`` is its action, test id and class; ``index`` the
    row it acts on (``data-index``)."""
    row = {} if index is None else {"data_index": str(index)}
    return btn(label, action=name, testid=name, cls=f"file-op {name}", title=title, **row)


def panel(name: str, title: str, summary: str, button: El, **list_attrs: Any) -> El:
    """The panel ``site-<name>`` (test id ``preview-<name>``): its head (``title``,
    the ``summary`` line, ``button``) and its ``list``."""
    head = e(
        "div",
        f"{name}-head",
        e("strong", f"{name}-title", text=title),
        e("span", f"{name}-summary", text=summary, testid=f"{name}-summary", ref="summary"),
        button,
    )
    items = e("ul", f"{name}-list", testid=f"{name}-list", ref="list", **list_attrs)
    return e("section", f"site-{name}", head, items, testid=f"preview-{name}")
