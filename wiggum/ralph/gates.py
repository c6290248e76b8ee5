"""Quality gates: cheap, deterministic checks of the site after Ralph claims completion.

Each gate answers ``await gate.check(fs) -> GateResult`` with the concrete
problems (file, line, what to do) so the feedback can be acted upon.  The two
checks that need a JavaScript engine are injected: the browser passes the
engine's own parser and a preview probe; CPython tests pass
:func:`node_syntax_checker`.
"""

from __future__ import annotations

import asyncio
import difflib
import os
import posixpath
import re
import shutil
import tempfile
from collections.abc import Awaitable, Callable, Sequence
from typing import Protocol
from urllib.parse import unquote

from wiggum.fs import FileStore, FileStoreError
from wiggum.preview.entry import entry_page, entry_page_among, is_page, site_files

from .htmlscan import Ref, css_refs, scan_html
from .types import GateIssue, GateResult

__all__ = [
    "EntryPageGate",
    "Gate",
    "HtmlParsesGate",
    "JsSyntaxChecker",
    "JsSyntaxGate",
    "LocalRefsGate",
    "PreviewChecker",
    "PreviewGate",
    "check_gates",
    "default_gates",
    "file_refs",
    "format_issues",
    "node_syntax_checker",
    "resolve_ref",
]

#: ``(path, source) -> error message or None``; the browser supplies its engine's parser.
JsSyntaxChecker = Callable[[str, str], Awaitable[str | None]]
#: Loads the site's entry page (``wiggum.preview.entry_page``) and returns its
#: uncaught errors; the browser supplies it.
PreviewChecker = Callable[[FileStore], Awaitable[list[str]]]

_SCHEME = re.compile(r"^[a-zA-Z][a-zA-Z0-9+.-]*:")
_JS_IMPORT = re.compile(
    r"""^\s*(?:import|export)\b[^'"`;]*?\bfrom\s*['"]([^'"]+)['"]|^\s*import\s*['"]([^'"]+)['"]""",
    re.M,
)
#: Issues listed per gate before "... and N more" (the model fixes the first ones first).
MAX_LISTED = 15


class Gate(Protocol):
    name: str

    async def check(self, fs: FileStore) -> GateResult: ...


def format_issues(issues: Sequence[GateIssue]) -> str:
    lines = []
    for issue in issues[:MAX_LISTED]:
        where = f"{issue.path} line {issue.line}" if issue.line else issue.path
        lines.append(f"- {where}: {issue.message}")
    if len(issues) > MAX_LISTED:
        lines.append(f"- ... and {len(issues) - MAX_LISTED} more")
    return "\n".join(lines)


def _result(name: str, issues: list[GateIssue], headline: str) -> GateResult:
    if not issues:
        return GateResult(gate=name, passed=True)
    return GateResult(
        gate=name, passed=False, message=f"{headline}\n{format_issues(issues)}", issues=issues
    )


async def _read(fs: FileStore, path: str) -> str | None:
    try:
        return await fs.read_text(path)
    except FileStoreError:
        return None


# ------------------------------------------------------------------ entry page


class EntryPageGate:
    """Passes when :func:`wiggum.preview.entry.entry_page` finds a page: the one
    the preview gate loads and the preview opens."""

    name = "entry_page"

    async def check(self, fs: FileStore) -> GateResult:
        files = await site_files(fs)
        entry = entry_page_among(files)
        if entry == "index.html":
            return GateResult(gate=self.name, passed=True)
        if entry is not None:
            return GateResult(gate=self.name, passed=True, message=f"entry page: {entry}")
        pages = [p for p in files if is_page(p)]
        if pages:
            hint = f"rename the main page (one of {', '.join(pages[:5])}) to index.html"
        else:
            hint = "create index.html at the project root"
        issue = GateIssue(
            path="index.html", message="there is no index.html at the project root", hint=hint
        )
        return _result(self.name, [issue], "The site has no entry page (index.html).")


# ------------------------------------------------------------------ HTML


class HtmlParsesGate:
    name = "html_parses"

    async def check(self, fs: FileStore) -> GateResult:
        issues: list[GateIssue] = []
        for path in await site_files(fs):
            if not path.endswith((".html", ".htm")):
                continue
            text = await _read(fs, path)
            if text is None:
                issues.append(GateIssue(path=path, message="is not readable UTF-8 text"))
                continue
            for problem in scan_html(text).issues:
                issues.append(
                    GateIssue(
                        path=path, line=problem.line, message=problem.message, hint=problem.hint
                    )
                )
        return _result(self.name, issues, "Some HTML is not well-formed.")


# ------------------------------------------------------------------ local references


def _is_external(target: str) -> bool:
    if target.startswith("//"):
        return True
    return bool(_SCHEME.match(target))


def resolve_ref(source: str, target: str) -> str | None:
    """The project path ``target`` (as written in ``source``) points at.

    ``None`` when it is not a local file reference (external URL, fragment,
    ``javascript:``...).  ``".."`` escaping the root gives a path starting with
    ``../``.  A directory reference ends with ``/``.
    """
    target = target.strip()
    if not target or target.startswith("#") or _is_external(target):
        return None
    target = target.split("#", 1)[0].split("?", 1)[0]
    if not target:
        return None  # "?page=2": the page itself
    target = unquote(target)
    is_dir = target.endswith("/")
    if target.startswith("/"):
        joined = target.lstrip("/")
    else:
        joined = posixpath.join(posixpath.dirname(source), target)
    normal = posixpath.normpath(joined) if joined else "."
    if normal == ".":
        return "/"
    return normal + "/" if is_dir else normal


def _suggest(missing: str, files: Sequence[str]) -> str:
    base = posixpath.basename(missing.rstrip("/"))
    same_name = [f for f in files if posixpath.basename(f) == base]
    if same_name:
        return f"did you mean {same_name[0]}? (paths are relative to the referencing file)"
    close = difflib.get_close_matches(missing, files, n=1, cutoff=0.6)
    if close:
        return f"did you mean {close[0]}?"
    return f"create {missing} or fix the reference"


async def file_refs(fs: FileStore, path: str) -> list[Ref]:
    """The references written in ``path`` (a page, stylesheet or script), with their lines."""
    if path.endswith((".html", ".htm")):
        text = await _read(fs, path)
        return scan_html(text).refs if text else []
    if path.endswith(".css"):
        text = await _read(fs, path)
        return css_refs(text) if text else []
    if path.endswith((".js", ".mjs")):
        text = await _read(fs, path)
        if not text:
            return []
        refs = []
        for m in _JS_IMPORT.finditer(text):
            spec = m.group(1) or m.group(2)
            # Bare specifiers ("react") need an import map: not a file reference.
            if spec.startswith(("./", "../", "/")):
                refs.append(Ref(spec, text.count("\n", 0, m.start()) + 1, "import"))
        return refs
    return []


class LocalRefsGate:
    name = "local_refs"

    async def check(self, fs: FileStore) -> GateResult:
        files = await site_files(fs)
        present = set(files)
        dirs = {posixpath.dirname(f) for f in files}
        for d in list(dirs):
            while d:
                d = posixpath.dirname(d)
                dirs.add(d)
        issues: list[GateIssue] = []
        for path in files:
            refs = await file_refs(fs, path)
            for ref in refs:
                problem = self._check_ref(path, ref, present, dirs)
                if problem is not None:
                    message, hint = problem
                    issues.append(GateIssue(path=path, line=ref.line, message=message, hint=hint))
        return _result(self.name, issues, "Some local references point at files that do not exist.")

    def _check_ref(
        self, source: str, ref: Ref, present: set[str], dirs: set[str]
    ) -> tuple[str, str] | None:
        resolved = resolve_ref(source, ref.target)
        if resolved is None:
            return None
        shown = f'{ref.via} "{ref.target}"'
        if resolved.startswith("../") or resolved == "..":
            return (
                f"{shown} points outside the project",
                "keep every file inside the project and use a path relative to this file",
            )
        if resolved == "/" or resolved.endswith("/") or resolved in dirs:
            folder = resolved.rstrip("/")
            index = posixpath.join(folder, "index.html") if folder else "index.html"
            if index in present:
                return None
            return (
                f"{shown} is a folder without an index.html ({index} is missing)",
                f"create {index}",
            )
        if resolved in present:
            return None
        return (f"{shown} -> {resolved} does not exist", _suggest(resolved, sorted(present)))


# ------------------------------------------------------------------ JavaScript


class JsSyntaxGate:
    name = "js_syntax"

    def __init__(self, checker: JsSyntaxChecker | None = None) -> None:
        self.checker = checker

    async def check(self, fs: FileStore) -> GateResult:
        if self.checker is None:
            return GateResult(gate=self.name, passed=True, message="not run: no checker")
        issues: list[GateIssue] = []
        for path in await site_files(fs):
            if path.endswith((".js", ".mjs")):
                source = await _read(fs, path)
                if source is None:
                    continue
                error = await self.checker(path, source)
                if error:
                    line = _error_line(error)
                    issues.append(GateIssue(path=path, line=line, message=_strip_line(error)))
            elif path.endswith((".html", ".htm")):
                text = await _read(fs, path)
                for n, script in enumerate(scan_html(text or "").scripts, 1):
                    # Pad with newlines so the engine's line numbers are the page's.
                    source = "\n" * (script.line - 1) + script.source
                    label = f"{path}#script{n}" + (".mjs" if script.module else ".js")
                    error = await self.checker(label, source)
                    if error:
                        issues.append(
                            GateIssue(
                                path=path,
                                line=_error_line(error) or script.line,
                                message=f"inline <script>: {_strip_line(error)}",
                            )
                        )
        return _result(self.name, issues, "Some JavaScript does not parse.")


_LINE = re.compile(r"(?:line |:)(\d+)")


def _error_line(error: str) -> int | None:
    m = _LINE.search(error)
    return int(m.group(1)) if m else None


def _strip_line(error: str) -> str:
    return re.sub(r"^line \d+: ", "", error)


def node_syntax_checker(
    node: str | None = None, *, timeout: float = 20.0
) -> JsSyntaxChecker | None:
    """A checker running ``node --check`` on a temporary copy (CPython only).

    ``None`` when node is not installed.  A file that fails as a classic
    script is tried again as an ES module (``.mjs``) before it is reported.
    """
    exe = node or shutil.which("node")
    if exe is None:
        return None

    async def run(path: str, source: str, suffix: str) -> str | None:
        with tempfile.TemporaryDirectory() as tmp:
            file = os.path.join(tmp, "check" + suffix)
            with open(file, "w", encoding="utf-8") as f:
                f.write(source)
            proc = await asyncio.create_subprocess_exec(
                exe,
                "--check",
                file,
                stdout=asyncio.subprocess.PIPE,
                stderr=asyncio.subprocess.PIPE,
            )
            try:
                _, err = await asyncio.wait_for(proc.communicate(), timeout)
            except TimeoutError:
                proc.kill()
                await proc.wait()
                return "the syntax check timed out"
            if proc.returncode == 0:
                return None
            return _node_error(err.decode("utf-8", "replace"), file, path)

    async def check(path: str, source: str) -> str | None:
        module = path.endswith(".mjs")
        error = await run(path, source, ".mjs" if module else ".js")
        if error is None or module:
            return error
        if await run(path, source, ".mjs") is None:
            return None
        return error

    return check


def _node_error(stderr: str, file: str, path: str) -> str:
    """``line N: SyntaxError: ...`` out of node's report, with the temp path hidden."""
    line = None
    lines = stderr.replace(file, path).splitlines()
    for text in lines:
        if text.startswith(path + ":"):
            tail = text[len(path) + 1 :]
            if tail.split(":")[0].isdigit():
                line = int(tail.split(":")[0])
            break
    message = next((t.strip() for t in lines if re.match(r"\s*\w*Error\b", t)), "")
    message = message or (lines[0].strip() if lines else "syntax error")
    return f"line {line}: {message}" if line else message


# ------------------------------------------------------------------ preview


class PreviewGate:
    """Loads the entry page (:func:`wiggum.preview.entry.entry_page`, the page the
    checker loads too) and reports its uncaught errors against that page.

    Without an entry page there is nothing to load: the gate is not run (the
    entry-page gate reports it, with advice that fits).
    """

    name = "preview_loads"

    def __init__(self, checker: PreviewChecker) -> None:
        self.checker = checker

    async def check(self, fs: FileStore) -> GateResult:
        entry = await entry_page(fs)
        if entry is None:
            return GateResult(gate=self.name, passed=True, message="not run: no entry page")
        errors = await self.checker(fs)
        issues = [GateIssue(path=entry, message=e) for e in errors]
        return _result(self.name, issues, f"The page ({entry}) throws errors when it loads.")


def default_gates(
    js_checker: JsSyntaxChecker | None = None, preview_checker: PreviewChecker | None = None
) -> list[Gate]:
    gates: list[Gate] = [
        EntryPageGate(),
        HtmlParsesGate(),
        LocalRefsGate(),
        JsSyntaxGate(js_checker),
    ]
    if preview_checker is not None:
        gates.append(PreviewGate(preview_checker))
    return gates


async def check_gates(
    gates: Sequence[Gate], fs: FileStore, counts: dict[str, int], before_each: Callable[[], None]
) -> list[GateResult]:
    """Every gate over ``fs`` (``before_each`` may abort between them); ``counts``
    keeps each gate's failures in a row (a pass forgets them)."""
    results: list[GateResult] = []
    for gate in gates:
        before_each()
        results.append(await gate.check(fs))
    for result in results:
        if result.passed:
            counts.pop(result.gate, None)
        else:
            counts[result.gate] = counts.get(result.gate, 0) + 1
    return results
