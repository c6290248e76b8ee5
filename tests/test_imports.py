"""What the page's first screen imports: the shell, Ralph's loop and the gates
load on first use, not with the app shell (they cost ~1 s of boot in Pyodide)."""

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
