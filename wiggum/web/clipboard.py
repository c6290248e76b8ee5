"""Copy text to the clipboard: the one place the page writes it.

A message, a code block and the debug log are copied through
:func:`write_clipboard`; a Copy button says how it went with
:func:`copy_from` ("Copied", or "Copy failed": a browser may refuse the
clipboard to a page, e.g. in an insecure context), then shows its own label
again after a moment.
"""

from __future__ import annotations

import asyncio
from typing import Any

import js  # type: ignore[import-not-found]
from pyodide.ffi import JsException  # type: ignore[import-not-found]

__all__ = ["copy_from", "write_clipboard"]

#: Seconds a button's "Copied" stays.
SHOWN_FOR = 1.5


async def write_clipboard(text: str) -> bool:
    """Put ``text`` on the clipboard; ``False`` when the browser refused."""
    try:
        await js.navigator.clipboard.writeText(text)
    except (JsException, AttributeError):
        return False
    return True


async def copy_from(button: Any, text: str) -> None:
    """Copy ``text``; ``button`` (the one pressed) says whether it worked."""
    label = button.textContent
    button.textContent = "Copied" if await write_clipboard(text) else "Copy failed"
    await asyncio.sleep(SHOWN_FOR)
    button.textContent = label
