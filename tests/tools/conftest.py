from __future__ import annotations

import pytest

from wiggum.fs import MemoryFileStore
from wiggum.tools import ToolContext
from wiggum.tools.shell import Interpreter, default_commands

PROJECT = {
    "index.html": '<!doctype html>\n<h1>Hello</h1>\n<script src="src/app.js"></script>\n',
    "src/app.js": "const a = 1;\nconsole.log(a);\n",
    "src/util.js": "export const b = 2;\nexport function add(x, y) {\n  return x + y;\n}\n",
    "src/styles/main.css": "body { margin: 0; }\n",
    "README.md": "# Demo\n",
    ".ralph/plan.md": "- [ ] build\n",
    ".ralph/status.txt": "running\n",
    ".chief/prompt.md": "Build a page\n",
}


class Clock:
    def __init__(self) -> None:
        self.now = 1_700_000_000.0

    def __call__(self) -> float:
        self.now += 1
        return self.now


@pytest.fixture
def fs() -> MemoryFileStore:
    return MemoryFileStore(dict(PROJECT), clock=Clock())


@pytest.fixture
def ctx(fs) -> ToolContext:
    return ToolContext(fs)


@pytest.fixture
def sh(fs):
    interpreter = Interpreter(fs, default_commands())

    async def run(source: str, cwd: str = "") -> tuple[str, int]:
        outcome = await interpreter.run(source, cwd=cwd)
        return outcome.output, outcome.status

    return run
