"""Imports run one way: down the layers of DESIGN.md §2, and never in a circle.

Every module of ``wiggum/`` is read with ``ast`` (nothing is imported), and
every import in it counts: at module level, inside functions (a lazy import is
still a dependency, only a later one), under ``if TYPE_CHECKING:``, and the
names a package exports lazily through ``wiggum._lazy.lazy_names``.

TYPE_CHECKING imports count like the others, in both checks.  They cost nothing
at run time, but they are still a dependency: the annotation names the other
module's type, so neither module can be read, tested or moved without the
other.  Where a lower module needs to name something above it, the fix is a
``Protocol`` in the lower module (``wiggum.web.shell.App``) or moving the shared
type down (``wiggum.coordinator.contract``, ``wiggum.llm.http_types``), never a
TYPE_CHECKING block.

An import of ``a.b.c`` is an edge to the module ``a.b.c`` (``from a.b import
c`` too, when ``c`` is a module; otherwise an edge to ``a.b``).  The parent
packages that Python also runs are not counted: a package's ``__init__`` is its
public face and may gather its own modules.
"""

from __future__ import annotations

import ast
import functools
import gc
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "wiggum"

#: The layers, top first.  A module may import modules of its own component
#: and of any component in a layer BELOW its own; never one above, and never a
#: sibling component of the same layer (``llm`` and ``fs`` stay independent,
#: so do ``chief`` and ``ralph``).  A component is a subpackage or a top-level
#: module of ``wiggum``; a new one must be placed here (the test says so).
LAYERS: list[tuple[str, set[str]]] = [
    # The page: DOM views, IndexedDB, fetch; the only code touching the browser.
    ("web", {"web"}),
    # What the app decides, in pure Python: a chat turn's lifecycle and which
    # buttons show, the provider for a role, opening a project, Ralph's runner,
    # two tabs.  It returns effects and emits typed events; the browser reaches
    # it only through the Host protocol it defines (docs/DESIGN.md).
    ("session", {"session"}),
    # Pure view logic for the page (texts, layout decisions, settings models).
    ("ui", {"ui"}),
    # The agents, and what a person does with a project as a whole (the Deployer
    # of seed 002 publishes it; it talks HTTP through the llm layer's transport).
    ("agents", {"chief", "ralph", "project", "deploy"}),
    # What the agents use: Ralph's tools and shell, the Chief <-> Ralph seam
    # (which drives Ralph only through the run contract it defines), the preview
    # bundler (Ralph's gates read the site as the preview does), the app's
    # storage seam, the skills library Chief searches.
    ("services", {"tools", "coordinator", "preview", "persist", "skills"}),
    # The foundations: the LLM client and the FileStore.
    ("core", {"llm", "fs"}),
    # Helpers with no Wiggum imports of their own: the package root (its
    # version), the lazy-export helper the package faces use, and the list of
    # listeners every part that tells of its changes keeps.
    ("base", {"", "_lazy", "_listeners"}),
]

#: Modules that may import the browser's own modules (Pyodide, PyScript).
BROWSER_ONLY = {"js", "pyodide", "pyscript"}


@dataclass(frozen=True, slots=True)
class Import:
    source: str  # importing module, dotted
    target: str  # imported module of wiggum, or a top-level name outside it
    line: int
    how: str  # "top", "function", "type-checking", "lazy"


def _modules() -> dict[str, Path]:
    out = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = list(path.relative_to(ROOT).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts.pop()
        out[".".join(parts)] = path
    return out


def _type_checking_nodes(tree: ast.Module) -> set[int]:
    ids: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            for stmt in node.body:
                ids.update(id(n) for n in ast.walk(stmt))
    return ids


def _function_nodes(tree: ast.Module) -> set[int]:
    ids: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda):
            ids.update(id(n) for n in ast.walk(node) if n is not node)
    return ids


def _resolve(name: str, modules: dict[str, Path]) -> str:
    """The module ``name`` stands for: itself, or its nearest enclosing module."""
    while name not in modules and "." in name:
        name = name.rpartition(".")[0]
    return name


def _parse(path: Path) -> ast.Module:
    """``path``'s tree, with the garbage collector paused: a finaliser that runs
    inside ``ast.parse`` (an earlier test's leftover coroutine) makes CPython 3.11
    raise "AST constructor recursion depth mismatch" (gh-106905)."""
    source = path.read_text(encoding="utf-8")
    paused = gc.isenabled()
    gc.disable()
    try:
        return ast.parse(source, str(path))
    finally:
        if paused:
            gc.enable()


@functools.cache
def read_imports() -> list[Import]:
    """Every import of every module of ``wiggum/`` (read once per test run)."""
    modules = _modules()
    found: list[Import] = []
    for name, path in modules.items():
        tree = _parse(path)
        package = name if path.name == "__init__.py" else name.rpartition(".")[0]
        typing_only = _type_checking_nodes(tree)
        in_function = _function_nodes(tree)

        for node in ast.walk(tree):
            targets: list[str] = []
            if isinstance(node, ast.Import):
                targets = [alias.name for alias in node.names]
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = package.split(".")
                    base = base[: len(base) - (node.level - 1)]
                    origin = ".".join(base + ([node.module] if node.module else []))
                else:
                    origin = node.module or ""
                for alias in node.names:
                    sub = f"{origin}.{alias.name}"
                    targets.append(sub if sub in modules else origin)
            elif (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "lazy_names"
                and len(node.args) == 2
                and isinstance(node.args[1], ast.Dict | ast.Name)
            ):
                # lazy_names(__name__, {"Name": "submodule"}): the package imports
                # those submodules when the name is first used.
                table = node.args[1]
                if isinstance(table, ast.Name):
                    table = _assigned_dict(tree, table.id)
                for value in table.values if table is not None else []:
                    if isinstance(value, ast.Constant) and isinstance(value.value, str):
                        found.append(Import(name, f"{package}.{value.value}", node.lineno, "lazy"))
                continue
            for target in targets:
                if target.split(".")[0] == "wiggum":
                    target = _resolve(target, modules)
                if target and target != name:
                    how = (
                        "type-checking"
                        if id(node) in typing_only
                        else "function"
                        if id(node) in in_function
                        else "top"
                    )
                    found.append(Import(name, target, node.lineno, how))
    return list(dict.fromkeys(found))  # `from m import a, b` is one import of m


def _assigned_dict(tree: ast.Module, name: str) -> ast.Dict | None:
    for node in tree.body:
        if (
            isinstance(node, ast.Assign | ast.AnnAssign)
            and any(isinstance(t, ast.Name) and t.id == name for t in _targets(node))
            and isinstance(node.value, ast.Dict)
        ):
            return node.value
    return None


def _targets(node: ast.Assign | ast.AnnAssign) -> list[ast.expr]:
    return list(node.targets) if isinstance(node, ast.Assign) else [node.target]


def component(module: str) -> str:
    """``wiggum.llm.dialects.openai`` -> ``llm``; ``wiggum`` -> ``""``."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else ""


def layer_of(comp: str) -> int:
    """Index into :data:`LAYERS` (0 is the top)."""
    for index, (_, members) in enumerate(LAYERS):
        if comp in members:
            return index
    raise AssertionError(
        f"wiggum.{comp} is in no layer: add it to LAYERS in tests/test_import_direction.py "
        "(docs/DESIGN.md, 'Layers', says where it belongs)"
    )


def upward(imports: list[Import]) -> list[str]:
    """Imports from a lower layer to a higher one, or across siblings of a layer."""
    problems = []
    for imp in imports:
        if imp.target.split(".")[0] != "wiggum":
            continue
        src, dst = component(imp.source), component(imp.target)
        if src == dst:
            continue
        src_layer, dst_layer = layer_of(src), layer_of(dst)
        if dst_layer < src_layer:
            problems.append(
                f"{imp.source} (line {imp.line}, {imp.how}) imports {imp.target}: "
                f"{LAYERS[src_layer][0]} may not import {LAYERS[dst_layer][0]}, which is above it"
            )
        elif dst_layer == src_layer:
            problems.append(
                f"{imp.source} (line {imp.line}, {imp.how}) imports {imp.target}: "
                f"wiggum.{src} and wiggum.{dst} are siblings in layer {LAYERS[src_layer][0]}"
            )
    return problems


def circles(imports: list[Import]) -> list[list[str]]:
    """Every strongly connected group of two or more modules (Tarjan), sorted."""
    graph: dict[str, set[str]] = {}
    for imp in imports:
        if imp.target.split(".")[0] == "wiggum":
            graph.setdefault(imp.source, set()).add(imp.target)
            graph.setdefault(imp.target, set())
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    groups: list[list[str]] = []

    def visit(v: str) -> None:
        # Iterative, so a deep import chain cannot hit the recursion limit.
        work = [(v, iter(sorted(graph[v])))]
        index[v] = low[v] = len(index)
        stack.append(v)
        on_stack.add(v)
        while work:
            node, children = work[-1]
            for w in children:
                if w not in index:
                    index[w] = low[w] = len(index)
                    stack.append(w)
                    on_stack.add(w)
                    work.append((w, iter(sorted(graph[w]))))
                    break
                if w in on_stack:
                    low[node] = min(low[node], index[w])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    group = []
                    while True:
                        w = stack.pop()
                        on_stack.discard(w)
                        group.append(w)
                        if w == node:
                            break
                    if len(group) > 1:
                        groups.append(sorted(group))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return sorted(groups)


def _describe(group: list[str], imports: list[Import]) -> str:
    members = set(group)
    edges = [
        f"  {i.source} -> {i.target} (line {i.line}, {i.how})"
        for i in imports
        if i.source in members and i.target in members
    ]
    return " <-> ".join(group) + "\n" + "\n".join(sorted(set(edges)))


# --------------------------------------------------------------------- the checks


def test_every_module_is_read():
    imports = read_imports()
    sources = {i.source for i in imports}
    # A sample from each kind of import, so a broken reader cannot pass quietly.
    assert ("wiggum.llm.types", "wiggum.llm.errors") in {(i.source, i.target) for i in imports}
    assert any(i.how == "function" for i in imports)
    assert any(i.how == "type-checking" for i in imports)
    assert any(i.how == "lazy" and i.target == "wiggum.llm.client" for i in imports)
    assert "wiggum.web.app" in sources and "wiggum.coordinator.facade" in sources


def test_no_import_circles():
    imports = read_imports()
    found = circles(imports)
    assert not found, "import circles (each module must import only from below it):\n" + (
        "\n".join(_describe(g, imports) for g in found)
    )


def test_imports_run_down_the_layers():
    problems = upward(read_imports())
    assert not problems, "imports against the layers of DESIGN.md §2:\n" + "\n".join(problems)


def test_only_the_web_package_touches_the_browser():
    wrong = [
        f"{i.source} (line {i.line}) imports {i.target}"
        for i in read_imports()
        if i.target.split(".")[0] in BROWSER_ONLY and component(i.source) != "web"
    ]
    assert not wrong, "only wiggum.web may import js / pyodide / pyscript:\n" + "\n".join(wrong)


def test_the_checks_catch_what_they_are_for():
    """The checkers themselves, on made-up imports: a circle, an upward import,
    a sibling import, and a clean chain."""
    made_up = [
        Import("wiggum.llm.a", "wiggum.llm.b", 1, "top"),
        Import("wiggum.llm.b", "wiggum.llm.c", 1, "function"),
        Import("wiggum.llm.c", "wiggum.llm.a", 1, "type-checking"),
        Import("wiggum.fs.x", "wiggum.fs.y", 1, "top"),
    ]
    assert circles(made_up) == [["wiggum.llm.a", "wiggum.llm.b", "wiggum.llm.c"]]
    assert upward([Import("wiggum.coordinator.x", "wiggum.chief.y", 3, "top")])
    assert upward([Import("wiggum.chief.x", "wiggum.ralph.y", 3, "function")])
    assert upward([Import("wiggum.llm.x", "wiggum.fs", 3, "top")])
    assert not upward([Import("wiggum.ralph.x", "wiggum.coordinator", 3, "top")])
    assert not upward([Import("wiggum.web.x", "wiggum.llm.types", 3, "lazy")])
