"""index.html's import map is the one build.py writes from build_lock.json (issue 11).

The editor's CodeMirror modules import each other by bare names; the import map
turns each into a vendored file.  A map out of step with the lock would make the
editor fail to load in the browser, so a stale index.html fails here first."""

from __future__ import annotations

import importlib.util
import json
import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def _build():
    spec = importlib.util.spec_from_file_location("wiggum_build_importmap", ROOT / "build.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


build = _build()
LOCK = build.load_lock()


def _map(html: str) -> dict:
    m = re.search(r'<script type="importmap">\s*(.*?)\s*</script>', html, re.S)
    assert m, "index.html has no import map"
    return json.loads(m.group(1))["imports"]


def test_index_html_carries_the_lock_s_import_map():
    html = (ROOT / "index.html").read_text()
    assert build.importmap_block(LOCK) in html, "run `python build.py` to rewrite index.html"


def test_every_package_the_editor_imports_is_mapped_and_pinned():
    imports = _map((ROOT / "index.html").read_text())
    for name in ("@codemirror/state", "@codemirror/view", "@codemirror/lang-html", "@lezer/lr"):
        assert name in imports, name
    for name, target in imports.items():
        entry = LOCK["esm"][name]
        assert re.fullmatch(r"[0-9a-f]{64}", entry["sha256"]), name
        # relative to the page, so a GitHub Pages sub-path works; never another origin
        assert target.startswith("./static/vendor/"), target
        assert f"{name}@{entry['version']}/" in target


def test_a_stale_map_is_caught(tmp_path):
    index = tmp_path / "index.html"
    index.write_text((ROOT / "index.html").read_text())
    lock = json.loads(json.dumps(LOCK))
    name = next(iter(lock["esm"]))
    lock["esm"][name]["version"] = "0.0.0-stale"
    assert build.importmap_block(lock) not in index.read_text()
    assert build.write_importmap(lock, index) is True
    assert "0.0.0-stale" in _map(index.read_text())[name]
