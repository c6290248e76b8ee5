"""What the page imports when.  The first screen (``wiggum.web.shell``) is shown
before pydantic is even installed, so nothing it imports may need pydantic or
the LLM client stack.  The app behind it imports Chief, the Coordinator and
Ralph's types, but the shell, Ralph's loop and the gates load on first use
(they cost ~1 s of boot in Pyodide)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

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


# The browser-only modules, imported in CPython under the tests' fake page
# (``tests/web/fake_dom.py``, the views' tests' too): a name a module takes
# from ``js`` or ``pyodide.ffi`` at import that the page lacks fails here.
ROOT = Path(__file__).resolve().parent.parent
_BROWSER_STUBS = "import sys\nfrom tests.web.fake_dom import install\ninstall()\n"
FIRST_PAGE = ["wiggum.web.boot", "wiggum.web.shell", "wiggum.web.storage"]


def test_the_first_screen_needs_no_pydantic():
    script = _BROWSER_STUBS + "".join(f"import {m}\n" for m in FIRST_PAGE)
    script += "print('\\n'.join(sys.modules))\n"
    out = subprocess.run(
        [sys.executable, "-c", script], capture_output=True, text=True, check=True, cwd=ROOT
    )
    loaded = set(out.stdout.split())
    assert set(FIRST_PAGE) <= loaded
    assert "wiggum.web.views.chat" in loaded  # the conversation is on the first screen
    heavy = {
        m
        for m in loaded
        if m.split(".")[0] in ("pydantic", "pydantic_core", "json_repair", "tinycss2")
        or m in ("wiggum.llm.client", "wiggum.llm.types", "wiggum.chief.chat", "wiggum.web.app")
    }
    assert not heavy, sorted(heavy)


def test_every_browser_module_imports():
    """Every module of ``wiggum.web`` imports (under the fake page of
    ``tests/web``): a name moved or renamed elsewhere fails here, under
    CPython, not at the page's boot."""
    names = [
        ".".join(p.relative_to(ROOT).with_suffix("").parts).removesuffix(".__init__")
        for p in sorted((ROOT / "wiggum" / "web").rglob("*.py"))
    ]
    script = _BROWSER_STUBS + "".join(f"import {m}\n" for m in names)
    script += "print('\\n'.join(sys.modules))\n"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    assert set(names) <= set(out.stdout.split())
    assert "wiggum.web.views.ralph.transcript_view" in names


def test_the_style_inspector_imports_without_tinycss2():
    """The page installs tinycss2 only when the inspector opens
    (``read_style_files`` loads it): its modules import without it."""
    names = ["wiggum.web.views.inspector", "wiggum.session.inspector", "wiggum.project.css_edit"]
    script = _BROWSER_STUBS + "".join(f"import {m}\n" for m in names)
    script += "print('\\n'.join(sys.modules))\n"
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, cwd=ROOT)
    assert out.returncode == 0, out.stderr[-2000:]
    loaded = set(out.stdout.split())
    assert set(names) <= loaded
    assert not {m for m in loaded if m.split(".")[0] in ("tinycss2", "webencodings")}
