"""Quality gates on good and broken sites."""

from __future__ import annotations

import pytest

from wiggum.fs import MemoryFileStore
from wiggum.preview import bundle_entry_page
from wiggum.ralph.gates import (
    EntryPageGate,
    HtmlParsesGate,
    JsSyntaxGate,
    LocalRefsGate,
    PreviewGate,
    default_gates,
    node_syntax_checker,
)


async def site(files: dict[str, str]) -> MemoryFileStore:
    fs = MemoryFileStore()
    for path, text in files.items():
        await fs.write_text(path, text)
    return fs


GOOD = {
    "index.html": """<!DOCTYPE html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <link rel="stylesheet" href="css/main.css?v=3">
  <style>h1 { background: url('img/a.png#x'); }</style>
</head>
<body>
  <ul><li>one<li>two</ul>
  <p>para<p>another
  <table><tr><td>a<td>b</table>
  <svg><path d="M0 0"/><circle r="1" /></svg>
  <br/><img src="img/a.png" srcset="img/a.png 1x, img/b.png 2x" alt="">
  <a href="pages/">pages</a> <a href="pages/about.html#team">about</a>
  <a href="https://example.com/x.css">x</a> <a href="mailto:a@b.c">m</a>
  <a href="tel:123">t</a> <a href="#top">top</a> <a href="javascript:void(0)">j</a>
  <img src="data:image/png;base64,AAAA" alt=""> <a href="//cdn.example/x.js">c</a>
  <a href="?page=2">next</a> <a href="my%20file.txt">space</a>
  <script src="js/app.js" defer></script>
  <script type="module">import { f } from "./js/mod.js"; f();</script>
</body>
</html>
""",
    "css/main.css": (
        '@import "parts/base.css";\n@import url(parts/more.css);\n'
        "/* url(missing-in-comment.png) */\n"
        'body { background: url("../img/b.png") no-repeat; }\n'
    ),
    "css/parts/base.css": "h1 { color: red; }\n",
    "css/parts/more.css": ".x { background-image: url(../../img/a.png); }\n",
    "img/a.png": "png",
    "img/b.png": "png",
    "pages/index.html": '<a href="../index.html">home</a><a href="..">up</a><a href="./">here</a>',
    "pages/about.html": '<link href="../css/main.css" rel="stylesheet"><div id="team"></div>',
    "my file.txt": "x",
    "js/app.js": 'import { f } from "./mod.js";\nf();\n',
    "js/mod.js": "export function f() { return 1; }\n",
    ".ralph/tmp/broken.html": "<div><span></div>",
}


async def test_good_site_passes_every_gate():
    fs = await site(GOOD)
    for gate in default_gates(js_checker=node_syntax_checker()):
        result = await gate.check(fs)
        assert result.passed, (gate.name, result.message)


# ------------------------------------------------------------------ entry page


async def test_entry_page():
    assert (await EntryPageGate().check(await site({"index.html": "x"}))).passed
    single = await EntryPageGate().check(await site({"game.html": "x", "a.css": ""}))
    assert single.passed and "game.html" in single.message
    missing = await EntryPageGate().check(await site({"a.html": "x", "b.html": "y"}))
    assert not missing.passed and "index.html" in missing.message
    empty = await EntryPageGate().check(await site({".ralph/task.md": "x"}))
    assert not empty.passed and empty.issues[0].hint == "create index.html at the project root"


# ------------------------------------------------------------------ html


@pytest.mark.parametrize(
    ("html", "needle", "line"),
    [
        ("<div>\n<span>x</div>", "<span> opened at line 2 is never closed", 2),
        ("<main>\n<section>\n</main>", "<section> opened at line 2", 2),
        ("<div></div>\n</section>", "</section> at line 2 closes nothing", 2),
        ("<body>\n<div>\n<p>x\n</body>", "<div> opened at line 2 is never closed", 2),
        ('<p id="a"></p>\n<span id="a"></span>', 'id="a" at line 2 is already used at line 1', 2),
        ("<div>\n<div>\n</div>", "<div> opened at line 1 is never closed", 1),
    ],
)
async def test_html_breakage_is_found(html, needle, line):
    result = await HtmlParsesGate().check(await site({"index.html": html}))
    assert not result.passed
    assert any(needle in i.message and i.line == line for i in result.issues), result.message


@pytest.mark.parametrize(
    "html",
    [
        "<ul><li>a<li>b</ul>",
        "<p>a<p>b",
        "<br><br/><hr><img src=x><input>",
        "<svg><g><rect/></g></svg>",
        "<DIV></div>",
        "<script>if (a < b && '</div>') {}</script>",
        "<table><tr><td>1<td>2<tr><td>3</table>",
        "</p>",
        "<select><option>a<option>b</select>",
    ],
)
async def test_html_browsers_accept_is_accepted(html):
    result = await HtmlParsesGate().check(await site({"index.html": html}))
    assert result.passed, result.message


async def test_html_in_nested_folders_is_checked_and_state_dirs_are_not():
    fs = await site({"a/b/page.html": "<div>", ".ralph/x.html": "<div>", ".chief/y.html": "<p"})
    result = await HtmlParsesGate().check(fs)
    assert [i.path for i in result.issues] == ["a/b/page.html"]


# ------------------------------------------------------------------ local refs


@pytest.mark.parametrize(
    ("files", "needle"),
    [
        ({"index.html": '<link rel="stylesheet" href="style.css">'}, "style.css does not exist"),
        ({"index.html": '<script src="js/app.js?v=1"></script>'}, "js/app.js does not exist"),
        ({"index.html": '<img src="logo.png#frag">'}, "logo.png does not exist"),
        ({"index.html": '<a href="docs/">d</a>'}, "docs/index.html is missing"),
        ({"index.html": '<a href="../outside.html">o</a>'}, "outside the project"),
        ({"index.html": "x", "s.css": "a { background: url(img/x.png) }"}, "img/x.png"),
        ({"index.html": "x", "c/s.css": '@import "base.css";'}, "c/base.css does not exist"),
        ({"index.html": "<div style=\"background:url('b.png')\"></div>"}, "b.png does not exist"),
        ({"index.html": "<style>p{background:url(q.png)}</style>"}, "q.png does not exist"),
        ({"index.html": "x", "a.js": "import { x } from './b.js';"}, "b.js does not exist"),
        ({"sub/p.html": '<img src="../img/x.png">', "index.html": ""}, "img/x.png does not exist"),
        ({"index.html": '<img srcset="a.png 1x, b.png 2x">', "a.png": ""}, "b.png does not exist"),
    ],
)
async def test_missing_local_refs_are_found(files, needle):
    result = await LocalRefsGate().check(await site(files))
    assert not result.passed
    assert needle in result.message, result.message


async def test_missing_ref_has_line_and_suggestion():
    fs = await site(
        {
            "index.html": '<html>\n<head>\n<link href="style.css" rel="stylesheet">',
            "css/style.css": "",
        }
    )
    result = await LocalRefsGate().check(fs)
    (issue,) = result.issues
    assert issue.path == "index.html" and issue.line == 3
    assert "css/style.css" in issue.hint


async def test_dotdot_inside_the_project_resolves():
    fs = await site(
        {
            "index.html": '<a href="blog/post/one.html">1</a>',
            "blog/post/one.html": '<link href="../../css/a.css" rel="stylesheet"><a href="../">b</a>',
            "blog/index.html": "",
            "css/a.css": "",
        }
    )
    assert (await LocalRefsGate().check(fs)).passed


# ------------------------------------------------------------------ js


async def test_js_syntax_with_node():
    checker = node_syntax_checker()
    if checker is None:
        pytest.skip("node is not installed")
    fs = await site(
        {
            "ok.js": "const a = [1, 2].map((x) => x * 2);\n",
            "mod.js": "import { a } from './ok.js';\nexport const b = a;\n",
            "bad.js": "function f( {\n  return 1;\n}\n",
            "index.html": "<p>\n<script>\nlet x = ;\n</script>",
        }
    )
    result = await JsSyntaxGate(checker).check(fs)
    assert not result.passed
    by_path = {i.path: i for i in result.issues}
    assert set(by_path) == {"bad.js", "index.html"}
    assert "SyntaxError" in by_path["bad.js"].message
    assert by_path["index.html"].line == 3  # the page's line, not the script's


async def test_js_syntax_with_injected_checker_and_without_one():
    seen = []

    async def checker(path, source):
        seen.append(path)
        return "line 2: Unexpected token" if "oops" in source else None

    fs = await site({"a.js": "ok", "b.js": "x\noops", "index.html": ""})
    result = await JsSyntaxGate(checker).check(fs)
    assert seen == ["a.js", "b.js"]
    assert not result.passed and result.issues[0].line == 2
    skipped = await JsSyntaxGate(None).check(fs)
    assert skipped.passed and "no checker" in skipped.message


# ------------------------------------------------------------------ preview


async def test_preview_gate_is_injected():
    async def errors(fs):
        return ["ReferenceError: foo is not defined"]

    assert [g.name for g in default_gates()] == [
        "entry_page",
        "html_parses",
        "local_refs",
        "js_syntax",
    ]
    gates = default_gates(preview_checker=errors)
    assert gates[-1].name == "preview_loads"
    result = await PreviewGate(errors).check(await site({"index.html": "<p>x</p>"}))
    assert not result.passed and "foo is not defined" in result.message
    assert result.issues[0].path == "index.html"


class BundleChecker:
    """A CPython stand-in for the browser's preview checker: it opens the entry
    page the same way (``bundle_entry_page``) and reports what it loaded;
    ``errors`` are the page's uncaught errors."""

    def __init__(self, errors: tuple[str, ...] = ()) -> None:
        self.errors = list(errors)
        self.loaded: list[str] = []

    async def __call__(self, fs):
        bundle = await bundle_entry_page(fs)
        if isinstance(bundle, str):
            return [bundle]
        self.loaded.append(bundle.path)
        return list(self.errors)


@pytest.mark.parametrize(
    ("files", "entry"),
    [
        ({"index.html": "<p>i</p>", "home.html": "<p>h</p>"}, "index.html"),
        ({"home.html": "<p>h</p>", "style.css": "p{}"}, "home.html"),
        ({"pages/game.html": "<p>g</p>"}, "pages/game.html"),
        ({"a.html": "<p>a</p>", "b.html": "<p>b</p>"}, None),
        ({"style.css": "p{}"}, None),
    ],
)
async def test_entry_and_preview_gates_agree(files, entry):
    fs = await site(files)
    checker = BundleChecker()
    entry_result = await EntryPageGate().check(fs)
    preview_result = await PreviewGate(checker).check(fs)
    assert entry_result.passed == (entry is not None)
    # Never "entry page fine" and "index.html not found" about the same site.
    assert preview_result.passed, preview_result.message
    if entry is None:
        assert checker.loaded == [] and preview_result.message == "not run: no entry page"
    else:
        assert checker.loaded == [entry]
        if entry != "index.html":
            assert entry in entry_result.message


async def test_preview_errors_are_reported_against_the_entry_page():
    fs = await site({"home.html": '<script src="app.js"></script>', "app.js": "x()"})
    result = await PreviewGate(BundleChecker(("ReferenceError: x is not defined",))).check(fs)
    assert not result.passed
    assert [i.path for i in result.issues] == ["home.html"]
    assert "home.html" in result.message and "x is not defined" in result.message
