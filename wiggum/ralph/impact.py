"""Ralph's ``get_impact`` tool: what a change to a file can break.

The pages that load the file (through any depth of stylesheets and imports)
or link to it, from the site's reference graph (``site_graph``); the
acceptance probes that open those pages; the checks that read them.  The
pages asked about are remembered in :data:`IMPACT_FILE` (Ralph's scratch
folder, cleared with each run) so the next round runs their probes first
(``acceptance.run_probes(first=...)``).

A Ralph tool, not one of ``wiggum.tools``: it reads the graph and the probes,
which are Ralph's (the tools layer sits below him).
"""

from __future__ import annotations

import contextlib
import json

from pydantic import Field

from wiggum.fs import FileStore, FileStoreError, PathError
from wiggum.preview.entry import entry_page
from wiggum.tools import Tool, ToolArgs, ToolContext, ToolResult

from .probes import OpenStep, Probe, load_probes
from .site_graph import build_graph

__all__ = ["IMPACT_FILE", "GetImpactTool", "first_pages", "impact_text"]

#: The pages the last ``get_impact`` calls named: their probes run first.
IMPACT_FILE = ".ralph/tmp/impact.json"


def _opens(probe: Probe) -> set[str]:
    return {probe.page} | {s.open for s in probe.steps if isinstance(s, OpenStep)}


async def impact_text(fs: FileStore, path: str) -> tuple[str, list[str]]:
    """What changing ``path`` can break, in words, and the pages it reaches."""
    graph = await build_graph(fs)
    if path not in graph.files:
        return f"{path} is not a file of the site.", []
    loading, linking = graph.impact(path)
    lines = [f"A change to {path} can break:"]
    lines.append(
        "- pages that load it: " + (", ".join(loading) if loading else "none (no page loads it)")
    )
    if linking:
        lines.append(
            "- pages that link to it (renaming or removing it breaks them): " + ", ".join(linking)
        )
    pages = set(loading) | set(linking)
    probes = [p for p in await load_probes(fs) if isinstance(p, Probe) and _opens(p) & set(loading)]
    lines.append(
        "- probes that open them (they run first next round): "
        + (", ".join(f'{p.file} ("{p.criterion}")' for p in probes) if probes else "none")
    )
    entry = await entry_page(fs)
    checks = "HTML, links and files, page basics"
    if entry in loading:
        checks += f"; phone width and errors on load ({entry} is the entry page)"
    lines.append(f"- checks that read them: {checks}" if loading else "- checks: links and files")
    broken = [e for e in graph.broken if e.source in pages or e.source == path]
    if broken:
        lines.append(
            "- already broken there: "
            + "; ".join(f"{e.source}:{e.ref.line} {e.ref.via} -> {e.target}" for e in broken[:10])
        )
    return "\n".join(lines), sorted(pages)


async def first_pages(fs: FileStore) -> list[str]:
    """The pages ``get_impact`` named in this run (their probes run first)."""
    try:
        data = json.loads(await fs.read_text(IMPACT_FILE))
    except (FileStoreError, ValueError):
        return []
    return [str(p) for p in data] if isinstance(data, list) else []


class GetImpactTool(Tool):
    name = "get_impact"
    description = (
        "What a change to a file can break: the pages that load it (through stylesheets "
        "and imports) or link to it, the acceptance probes that open those pages (they then "
        "run first) and the checks that read them. Ask before changing a shared file."
    )

    class Args(ToolArgs):
        path: str = Field(description="A file of the site, relative to the project root.")

    async def run(self, args: Args, ctx: ToolContext) -> ToolResult:
        try:
            path = ctx.resolve(args.path)
        except PathError as err:
            return ToolResult.error(f"Error: {err}")
        text, pages = await impact_text(ctx.fs, path)
        if pages:
            known = await first_pages(ctx.fs)
            with_new = known + [p for p in pages if p not in known]
            # The order of the next round is a nicety; the answer stands without it.
            with contextlib.suppress(FileStoreError):
                await ctx.fs.write_text(IMPACT_FILE, json.dumps(with_new))
        return ToolResult(text)
