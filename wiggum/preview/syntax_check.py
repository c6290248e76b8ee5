"""How the page has its own JavaScript engine check a script's syntax, as text.

The browser's checker (``wiggum.web.checkers.browser_js_checker``) loads the
document :func:`parse_document` writes in a throwaway sandboxed frame and
reads back the first error it reports; :func:`syntax_error` says what that
error means.  The code is never run:

* classic: the code is prefixed (on its first line, so line numbers stay
  right) with ``throw "<sentinel>";``.  A classic script is parsed as a whole
  before any of it runs, so a syntax error is reported as such, and a valid
  script stops at the sentinel before its first statement.
* module (``.mjs``, ``import``/``export`` statements at the start of a line,
  or a classic parse that says "Cannot use import statement outside a
  module": :func:`retry_as_module`): the code is prefixed with
  ``import "<bare specifier>";``.  A module is parsed first; then, before
  anything is fetched or evaluated, its specifiers are resolved; the bare
  sentinel cannot resolve, so a valid module fails to link and nothing of it
  (or its imports) runs.

This is exact where ``new Function(source)`` is not (it accepts a top-level
``return``, cannot parse modules, and gives no line numbers).
"""

from __future__ import annotations

import base64
import re

__all__ = [
    "CHECK_MESSAGE",
    "looks_like_module",
    "parse_document",
    "read_check",
    "retry_as_module",
    "syntax_error",
    "with_prefix",
]

#: The type of the message the checked document posts to the page.
CHECK_MESSAGE = "wiggum-js-check"
_CLASSIC_SENTINEL = "__wiggum_parsed_ok__"
_MODULE_SENTINEL = "wiggum-parse-only-never-resolves"
_USE_STRICT = re.compile(r"""[ \t]*(["'])use strict\1[ \t]*;?""")
_MODULE_SYNTAX = re.compile(r"^\s*(?:import\s*[\w*{\"']|export\s)", re.M)

_REPORTER = """<!DOCTYPE html><meta charset="utf-8"><script>
var first = null;
addEventListener("error", function (e) {
  if (first !== null) return;
  var err = e.error, name = err && err.name ? String(err.name) : "";
  first = {message: String(e.message || ""), name: name, line: e.lineno | 0};
}, true);
addEventListener("load", function () {
  parent.postMessage({type: "%s", error: first}, "*");
});
</script>"""


def with_prefix(source: str, prefix: str) -> str:
    """``prefix`` put before the code without moving any line: after a hashbang
    line and after a leading ``"use strict"`` directive (which must stay first)."""
    start = 0
    if source.startswith("#!"):
        newline = source.find("\n")
        if newline < 0:
            return source
        start = newline + 1
    m = _USE_STRICT.match(source, start)
    if m:
        start = m.end()
        if not m.group().rstrip().endswith(";"):
            prefix = ";" + prefix
    return source[:start] + prefix + source[start:]


def looks_like_module(path: str, source: str) -> bool:
    return path.endswith(".mjs") or bool(_MODULE_SYNTAX.search(source))


def parse_document(source: str, module: bool) -> str:
    """The document that parses ``source`` (never running it) and posts its first error."""
    if module:
        code = with_prefix(source, f'import "{_MODULE_SENTINEL}";')
        tag = "script type=module"
    else:
        code = with_prefix(source, f'throw "{_CLASSIC_SENTINEL}";')
        tag = "script"
    url = "data:text/javascript;base64," + base64.b64encode(code.encode("utf-8")).decode("ascii")
    return _REPORTER % CHECK_MESSAGE + f'<{tag} src="{url}"></script>'


def syntax_error(name: str, message: str, line: int) -> str | None:
    """The syntax error the engine reported (``"SyntaxError: ... (line N)"``), or
    ``None`` when what it reported means the code parsed (the sentinel)."""
    if name != "SyntaxError" and "SyntaxError" not in message:
        return None
    message = message.removeprefix("Uncaught ").strip()
    return f"{message} (line {line})" if line else message


def read_check(data: object) -> str | None:
    """The syntax error a check message (``{"type", "error": {name, message,
    line} | null}``, as plain JSON) reports, or ``None`` when the code parsed."""
    err = data.get("error") if isinstance(data, dict) else None
    if not isinstance(err, dict):
        return None
    name, message = (str(err.get(k) or "") for k in ("name", "message"))
    line = err.get("line")
    return syntax_error(name, message, int(line) if isinstance(line, int | float) else 0)


def retry_as_module(error: str | None, module: bool) -> bool:
    """A classic parse refused ``import``: the code is a module after all."""
    return error is not None and not module and "import statement outside a module" in error
