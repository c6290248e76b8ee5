"""What the page imports when.  The first screen (``wiggum.web.shell``) is shown
before pydantic is even installed, so nothing it imports may need pydantic or
the LLM client stack.  The app behind it imports Chief, the Coordinator and
Ralph's types, but the shell, Ralph's loop and the gates load on first use
(they cost ~1 s of boot in Pyodide)."""

from __future__ import annotations

import subprocess
import sys

FIRST_SCREEN = [
    "wiggum.chief.chat",
    "wiggum.chief.tools",
    "wiggum.coordinator",
    "wiggum.ralph.types",
]
LATER = ["wiggum.tools.shell", "wiggum.ralph.loop", "wiggum.ralph.gates", "wiggum.ralph.context"]


def _loaded_after(imports: list[str], code: str = "") -> set[str]:
    script = "import sys\n" + "".join(f"import {m}\n" for m in imports) + code
    script += "print('\\n'.join(sys.modules))\n"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    return set(out.stdout.split())


def test_the_first_screen_does_not_import_the_shell_or_the_loop():
    loaded = _loaded_after(FIRST_SCREEN)
    assert set(FIRST_SCREEN) <= loaded
    assert not loaded & set(LATER), sorted(loaded & set(LATER))


def test_lazy_names_still_resolve():
    loaded = _loaded_after(
        ["wiggum.tools", "wiggum.ralph"],
        "from wiggum.tools import ShellTool, default_tools\n"
        "from wiggum.ralph import make_runner, default_gates, RalphLoop\n"
        "assert 'shell' in [t.name for t in default_tools()]\n"
        "import wiggum.ralph as r\n"
        "assert all(getattr(r, n) is not None for n in r.__all__)\n",
    )
    assert set(LATER) <= loaded


# The browser-only modules, importable in CPython with stand-ins for `js` and
# `pyodide.ffi` (import time touches neither).
_BROWSER_STUBS = """
import sys, types
class _Any:
    def __getattr__(self, name): return _Any()
    def __call__(self, *a, **k): return _Any()
js = types.ModuleType("js"); js.__getattr__ = lambda name: _Any()
ffi = types.ModuleType("pyodide.ffi"); ffi.__getattr__ = lambda name: _Any
pyodide = types.ModuleType("pyodide"); pyodide.ffi = ffi
sys.modules.update({"js": js, "pyodide": pyodide, "pyodide.ffi": ffi})
"""
FIRST_PAGE = ["wiggum.web.boot", "wiggum.web.shell", "wiggum.web.storage"]


def test_the_first_screen_needs_no_pydantic():
    script = _BROWSER_STUBS + "".join(f"import {m}\n" for m in FIRST_PAGE)
    script += "print('\\n'.join(sys.modules))\n"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True)
    loaded = set(out.stdout.split())
    assert set(FIRST_PAGE) <= loaded
    assert "wiggum.web.views.chat" in loaded  # the conversation is on the first screen
    heavy = {
        m
        for m in loaded
        if m.split(".")[0] in ("pydantic", "pydantic_core", "json_repair")
        or m in ("wiggum.llm.client", "wiggum.llm.types", "wiggum.chief.chat", "wiggum.web.app")
    }
    assert not heavy, sorted(heavy)


def test_every_browser_module_imports():
    """Every module of ``wiggum.web`` imports (with stand-ins for ``js`` and
    ``pyodide``): a name moved or renamed elsewhere fails here, under CPython,
    not at the page's boot."""
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    names = [
        ".".join(p.relative_to(root).with_suffix("").parts).removesuffix(".__init__")
        for p in sorted((root / "wiggum" / "web").rglob("*.py"))
    ]
    script = _BROWSER_STUBS + "".join(f"import {m}\n" for m in names)
    script += "print('\\n'.join(sys.modules))\n"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True)
    assert out.returncode == 0, out.stderr[-2000:]
    assert set(names) <= set(out.stdout.split())
    assert "wiggum.web.views.ralph.task_form" in names
