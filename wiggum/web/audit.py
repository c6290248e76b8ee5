"""The browser's audit of the built site (``wiggum.ralph.site_checks.BrowserAudit``).

The entry page is bundled with its storage shim and loaded, as the preview
loads it, in a hidden sandboxed frame (``allow-scripts`` only, an opaque
origin) laid out :data:`PHONE` px wide.  An audit script added after the
site's own reports, once the page has loaded and settled, the outermost
elements that reach past the phone's width; the runtime reports the errors
the page threw meanwhile.  The decisions (which line an element is written
on, what the issue says) are ``wiggum.ralph.site_checks``'.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import js  # type: ignore[import-not-found]

from wiggum.fs import FileStore
from wiggum.preview import ERROR_MESSAGE, bundle_entry_page
from wiggum.preview.storage import empty_snapshot, with_storage
from wiggum.ralph.site_checks import overflow_issues
from wiggum.ralph.types import GateIssue
from wiggum.ui.markup.preview import CHECKER_STYLE, checker_frame
from wiggum.ui.preview import keep_error

from .dom import Listeners, mount
from .preview_host import HOST_URL, message_type, show_page

__all__ = ["AUDIT_MESSAGE", "PHONE", "browser_audit"]

AUDIT_MESSAGE = "wiggum-preview-audit"
#: The phone's width the page must fit.
PHONE = 390
#: Seconds to wait for the audit's answer once the page is handed over.
AUDIT_TIMEOUT = 15.0
_SCRIPT = (
    """<script data-wiggum-preview="audit">
addEventListener("load", function () { setTimeout(function () {
  var W = document.documentElement.clientWidth, out = [];
  if (document.documentElement.scrollWidth > W + 1) {
    var all = document.body ? document.body.querySelectorAll("*") : [];
    for (var i = 0; i < all.length && out.length < 5; i++) {
      var el = all[i], r = el.getBoundingClientRect(), p = el.parentElement;
      if (r.right <= W + 1 || r.width === 0) continue;
      if (p && p !== document.body && p.getBoundingClientRect().right > W + 1) continue;
      out.push({tag: el.localName, id: el.id || "", cls: el.getAttribute("class") || "",
                right: Math.round(r.right)});
    }
  }
  parent.postMessage({type: "AUDIT", width: W, overflow: out}, "*");
}, 300); });
</script>"""
).replace("AUDIT", AUDIT_MESSAGE)


async def browser_audit(fs: FileStore) -> list[tuple[str, list[GateIssue]]]:
    """``[("overflow", issues), ("console", issues)]`` of the entry page at a phone's width."""
    bundle = await bundle_entry_page(fs)
    if isinstance(bundle, str):
        return []
    html = with_storage(bundle.html, empty_snapshot()) + _SCRIPT
    errors: list[str] = []
    done: asyncio.Future[Any] = asyncio.get_running_loop().create_future()

    def on_message(kind: Any, data: Any) -> None:
        if kind == ERROR_MESSAGE:
            keep_error(errors, getattr(data, "message", None), once=True)
        elif kind == AUDIT_MESSAGE and not done.done():
            done.set_result(json.loads(str(js.JSON.stringify(data))))

    frame = mount(checker_frame(HOST_URL)).el
    frame.style.cssText = CHECKER_STYLE.replace("width: 1024px", f"width: {PHONE}px")
    listeners = Listeners()
    listeners.on(js.window, "message", lambda event: on_message(*message_type(event, frame)))
    try:
        js.document.body.appendChild(frame)
        await show_page(frame, html, AUDIT_TIMEOUT)
        found = await asyncio.wait_for(done, AUDIT_TIMEOUT)
    except TimeoutError:
        found = {}
    finally:
        listeners.close()
        frame.remove()
    try:
        source = await fs.read_text(bundle.path)
    except Exception:  # gone meanwhile: the issues keep no line
        source = ""
    offenders = found.get("overflow") if isinstance(found, dict) else None
    overflow = overflow_issues(bundle.path, source, offenders or [], PHONE)
    console = [GateIssue(path=bundle.path, message=text) for text in errors]
    return [("overflow", overflow), ("console", console)]
