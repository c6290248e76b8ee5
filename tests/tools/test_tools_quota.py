"""Ralph's file writes refused for a full quota: the tool result tells him (and the
person reading his transcript) and the file keeps what it had."""

from __future__ import annotations

from wiggum.fs import MemoryFileStore, StorageFull
from wiggum.llm.types import ParsedToolCall
from wiggum.tools import ToolContext, ToolRegistry, default_tools


class FullStore(MemoryFileStore):
    """A store whose writes the browser refuses (as ``wiggum.web.idb`` raises it)."""

    full = True

    async def write_bytes(self, path, data):
        if self.full:
            raise StorageFull(path, 95, 100)
        await super().write_bytes(path, data)

    async def write_text(self, path, text):
        if self.full:
            raise StorageFull(path, 95, 100)
        await super().write_text(path, text)


async def test_write_file_refused_for_quota_says_so_and_keeps_the_file():
    fs = FullStore({"index.html": "<h1>Before</h1>\n"})
    ctx = ToolContext(fs)
    registry = ToolRegistry(default_tools())
    call = ParsedToolCall(
        id="c1", name="write_file", args={"path": "index.html", "content": "<h1>After</h1>\n"}
    )
    result = await registry.dispatch(call, ctx)
    assert result.is_error
    assert result.output.startswith("Error: nothing was written. The browser's storage")
    assert "(95 B of 100 B used)" in result.output
    assert "stop and tell them" in result.output
    assert await fs.read_text("index.html") == "<h1>Before</h1>\n"

    fs.full = False  # space freed: the same call goes through
    result = await registry.dispatch(call, ctx)
    assert not result.is_error
    assert await fs.read_text("index.html") == "<h1>After</h1>\n"
