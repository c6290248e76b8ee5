"""The service worker build.py writes: what it precaches (this build's files,
nothing of the previous build) and that any change a visitor would see makes a
new worker.  A scratch site in a temporary folder, as ``build.py dist`` lays it out."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from tests.test_csp import ROOT, build  # build.py, loaded once as a module

FILES = {
    "index.html": "<!doctype html>",
    "manifest.webmanifest": "{}",
    "static/app.css": "body {}",
    "static/icons/icon-192.png": "png",
    "static/vendor/manifest.json": "{}",
    "static/vendor/boot-aaaa.mjs": "new boot",
    "static/vendor/boot-0000.mjs": "previous boot",
    "static/vendor/lock-bbbb.json": json.dumps(
        {"packages": {"pydantic": {"file_name": "wheels/pydantic-2-py3-none-any.whl"}}}
    ),
    "static/vendor/snapshot-cccc.bin.gz": "an earlier build's memory snapshot",
    "static/vendor/python_stdlib-dddd.zip.gz": "stdlib",
    "static/vendor/app/eeee/wiggum-0.1.0-py3-none-any.whl": "app",
    "static/vendor/app/0000/wiggum-0.1.0-py3-none-any.whl": "previous app",
    "static/vendor/wheels/pydantic-2-py3-none-any.whl": "whl",
    "static/vendor/wheels/unused-1-py3-none-any.whl": "not in the lock",
    "static/vendor/pyodide-1.0/pyodide.asm.wasm": "wasm",
    "static/vendor/pyscript-0.7/core.js": "core",
    "static/vendor/esm/crelt@1.0.7/index.js": "esm",
}
MANIFEST = {
    "boot_module": "static/vendor/boot-aaaa.mjs",
    "lock_file": "static/vendor/lock-bbbb.json",
    "stdlib": "static/vendor/python_stdlib-dddd.zip.gz",
    "wiggum": {"wheel": "static/vendor/app/eeee/wiggum-0.1.0-py3-none-any.whl"},
    "pyodide": {"dir": "static/vendor/pyodide-1.0/"},
    "pyscript": {"core": "static/vendor/pyscript-0.7/core.js"},
}


@pytest.fixture
def site(tmp_path: Path) -> Path:
    for rel, text in FILES.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    return tmp_path


def _worker(site: Path, **manifest: str) -> tuple[str, list[str]]:
    src = build.write_service_worker(site, {**MANIFEST, **manifest}).read_text()
    build_id = re.search(r'const BUILD = "([0-9a-f]+)";', src).group(1)
    files = json.loads(re.search(r"const FILES = (\[.*?\]);", src, re.S).group(1))
    return build_id, files


def test_the_worker_precaches_this_build_and_not_the_previous_one(site):
    _, files = _worker(site)
    assert set(files) == set(FILES) - {
        "static/vendor/boot-0000.mjs",
        "static/vendor/app/0000/wiggum-0.1.0-py3-none-any.whl",
        "static/vendor/wheels/unused-1-py3-none-any.whl",
        "static/vendor/snapshot-cccc.bin.gz",
    }


def test_the_worker_stores_no_memory_snapshot(site):
    """Restoring one saved no time, so none is stored in the background after a
    first visit, even when an earlier build's manifest still names one."""
    _, files = _worker(site, snapshot="static/vendor/snapshot-cccc.bin.gz")
    assert not [f for f in files if "snapshot" in f]


@pytest.mark.parametrize("changed", ["index.html", "static/app.css", "manifest.webmanifest"])
def test_a_change_a_visitor_would_see_makes_a_new_worker(site, changed):
    before, _ = _worker(site)
    (site / changed).write_text("changed")
    after, _ = _worker(site)
    assert after != before


def test_a_new_hashed_file_makes_a_new_worker(site):
    before, _ = _worker(site)
    (site / "static/vendor/boot-ffff.mjs").write_text("newer boot")
    after, files = _worker(site, boot_module="static/vendor/boot-ffff.mjs")
    assert after != before and "static/vendor/boot-ffff.mjs" in files


def test_the_worker_and_the_manifest_are_served_with_their_types():
    assert "/sw.js" in build.SERVED_TOP and "/manifest.webmanifest" in build.SERVED_TOP
    assert build.MIME[".webmanifest"] == "application/manifest+json"
    manifest = json.loads((ROOT / "manifest.webmanifest").read_text())
    assert manifest["start_url"] == "./" and manifest["scope"] == "./"
    for icon in manifest["icons"]:
        assert not icon["src"].startswith("/")  # relative: a Pages subpath works
        assert (ROOT / icon["src"]).is_file()


def test_the_worker_never_answers_for_another_origin():
    """Provider, GitHub and local-server requests go out untouched: the fetch
    handler returns before respondWith for any other origin or method."""
    src = (ROOT / "sw.template.js").read_text()
    handler = src[src.index('addEventListener("fetch"') :]
    assert handler.index("url.origin !== scope.origin) return") < handler.index("respondWith")
    assert handler.index('req.method !== "GET") return') < handler.index("respondWith")
    assert "cache.put" not in src  # nothing is stored at run time, only the build's files


def test_the_worker_precaches_the_gzipped_standard_library_in_place_of_the_zip(site):
    """The page asks for ``python_stdlib-<hash>.zip.gz`` (build.py's stdlib_gzip),
    never the runtime's own zip: offline, the worker must have the one it asks for."""
    (site / "static/vendor/pyodide-1.0/python_stdlib.zip").write_text("zip")
    (site / "static/vendor/python_stdlib-ffff.zip.gz").write_text("gz")
    (site / "static/vendor/python_stdlib_later-ffff.zip.gz").write_text("gz")
    later = {"url": "static/vendor/python_stdlib_later-ffff.zip.gz", "modules": ["pdb"]}
    _, files = _worker(site, stdlib="static/vendor/python_stdlib-ffff.zip.gz", stdlib_later=later)
    assert "static/vendor/python_stdlib-ffff.zip.gz" in files
    assert "static/vendor/python_stdlib_later-ffff.zip.gz" in files
    assert "static/vendor/pyodide-1.0/python_stdlib.zip" not in files
