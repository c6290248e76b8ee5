#!/usr/bin/env python3
"""Wiggum's build: vendor the browser runtime, pack the app, serve it, publish it.

Standard library only.  Subcommands::

    python build.py [build]           fetch + verify everything into static/vendor/
    python build.py lock              re-resolve SPECS below and rewrite build_lock.json
    python build.py build --update-lock   same as `lock`, then build
    python build.py serve [--port N] [--host 127.0.0.1]
    python build.py dist DIR          self-contained static site (GitHub Pages ready)
    python build.py registry ...      delegates to scripts/gen_registry.py:main(argv)

What the page loads (all under static/vendor/, which is git-ignored output):

    pyodide-<ver>/            pyodide.mjs, pyodide.asm.{mjs,wasm}, python_stdlib.zip
    pyscript-<ver>/           @pyscript/core dist/ (JS + CSS, no source maps)
    axe-core-<ver>/           axe.min.js (+ LICENSE): the site checks' accessibility rules,
                              loaded only by the sandboxed frame that audits the site
    wheels/<file>.whl         third-party wheels from PyPI (names carry versions)
    app/<hash>/<file>.whl     the repo's wiggum/ folder, packed, and the wheels the page
                              installs at start, with .pyc in place of .py (compiled
                              in Node; as they are without Node); <hash> = content
    app/<hash>/<file>.whl.xz  the same wheels stored and xz-compressed: what a first visit
                              over a slow link downloads (about 60%), decoded in Python
    python_stdlib-<hash>.zip.gz  Pyodide's python_stdlib.zip stored and gzipped as one
                              stream, fetched in its place (1.7 MB instead of 2.5),
                              without pyscript.toml's stdlib_later modules, which are
    python_stdlib_later-<hash>.zip.gz  loaded once the app is up
    lock-<hash>.json          Pyodide lock file listing only the wheels above (local URLs)
    boot-<hash>.mjs           PyScript `interpreter` module: wraps loadPyodide() with
                              the vendored indexURL, our lock and the preload list
    manifest.json             the one unversioned file: index.html fetches it with
                              cache: "no-cache" and boots PyScript from what it names

Everything except manifest.json is immutable under its URL, so returning visitors
re-use their HTTP cache and still always get the current wiggum code.

Every downloaded artifact is pinned with its sha256 in build_lock.json; a normal
build only verifies (and downloads nothing when static/vendor/ is complete).
"""

from __future__ import annotations

import argparse
import base64
import contextlib
import email.parser
import functools
import hashlib
import http.server
import importlib.util
import io
import json
import os
import re
import shutil
import sys
import tarfile
import time
import tomllib
import urllib.parse
import urllib.request
import zipfile
from pathlib import Path
from typing import ClassVar

ROOT = Path(__file__).resolve().parent
LOCK_PATH = ROOT / "build_lock.json"
VENDOR = ROOT / "static" / "vendor"
CACHE = ROOT / ".cache" / "build"
WIGGUM_SRC = ROOT / "wiggum"
PYSCRIPT_TOML = ROOT / "pyscript.toml"
NPM_REGISTRY = "https://registry.npmjs.org"
PYPI = "https://pypi.org/pypi"

# ---------------------------------------------------------------------------
# What `lock` resolves.  Exact versions, "X.Y.*" prefixes or "*" (newest stable).
# Edit here, run `python build.py lock`, commit build_lock.json.
# ---------------------------------------------------------------------------
NPM_SPECS = {
    "pyodide": "314.0.7",
    "@pyscript/core": "0.7.31",
    # The accessibility rules of the site checks, run only in the sandboxed frame
    # that audits the person's site (never by Wiggum's own page).
    "axe-core": "4.14.1",
}
# Files taken from each npm tarball (paths inside the tarball's package/ folder).
NPM_FILES = {
    "pyodide": ["pyodide.mjs", "pyodide.asm.mjs", "pyodide.asm.wasm", "python_stdlib.zip"],
    "@pyscript/core": ["dist/*.js", "dist/*.css"],
    "axe-core": ["axe.min.js", "LICENSE"],
}
WHEEL_SPECS = {
    # first screen (through wiggum's declared dependencies)
    "pydantic": "2.14.3",
    "pydantic-core": "2.50.4",  # pydantic 2.14.3 pins 2.50.4 in pydantic/version.py
    "typing-extensions": "4.16.0",
    "annotated-types": "0.8.0",
    "typing-inspection": "0.4.5",
    "json-repair": "0.64.5",
    "markdown-it-py": "4.3.0",
    "mdurl": "0.1.2",
    "mdit-py-plugins": "0.7.0",
    "linkify-it-py": "2.2.0",
    "uc-micro-py": "2.0.0",
    # vendored, loaded on demand after app-ready
    "jiter": "0.19.0",
    "dulwich": "1.2.21",  # project history (wiggum.project.history), loaded on first use
    "pygments": "2.21.0",  # code highlighting, loaded once a reply has a code block
    "tinycss2": "1.5.1",  # the style inspector's CSS edits, loaded when it first opens
    "webencodings": "0.6.1",  # tinycss2's dependency (encoding names; only ascii_lower used)
}
# ES modules loaded through index.html's import map (no bundler): the workspace
# editor, CodeMirror 6, fetched on the first file open.  `lock` resolves these
# roots ("*" = newest stable) and then their dependency closure from each
# package.json (one version per package: the import map has no scopes).
ESM_ROOTS = {
    "@codemirror/state": "*",
    "@codemirror/view": "*",
    "@codemirror/commands": "*",
    "@codemirror/language": "*",
    "@codemirror/search": "*",
    "@codemirror/lang-html": "*",
    "@codemirror/lang-css": "*",
    "@codemirror/lang-javascript": "*",
    "@codemirror/lang-json": "*",
    "@codemirror/lang-markdown": "*",
    "@codemirror/lang-xml": "*",
    "@lezer/highlight": "*",
}
ESM_DIR = "esm"  # static/vendor/esm/<name>@<version>/...
IMPORTMAP_BEGIN = "<!-- importmap: written by build.py from build_lock.json -->"
IMPORTMAP_END = "<!-- /importmap -->"
# Declared dependencies a vendored wheel does not need for what Wiggum uses of it.
# dulwich needs urllib3 only for its HTTP clients; history uses its object model.
WHEEL_DEPS_UNUSED = {"dulwich": {"urllib3"}}

CHUNK = 1 << 20


def log(msg: str) -> None:
    print(f"[build] {msg}", flush=True)


def canon(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def sha256_bytes(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def sha256_file(path: Path) -> str:
    h = hashlib.sha256()
    with path.open("rb") as f:
        for block in iter(lambda: f.read(CHUNK), b""):
            h.update(block)
    return h.hexdigest()


def write_if_changed(path: Path, data: bytes) -> bool:
    if path.exists() and path.read_bytes() == data:
        return False
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_bytes(data)
    os.replace(tmp, path)
    return True


# ---------------------------------------------------------------------------
# Network (only used when something is missing, or by `lock`)
# ---------------------------------------------------------------------------
def http_get(url: str, *, what: str = "", retries: int = 3) -> bytes:
    last: Exception | None = None
    for attempt in range(retries):
        try:
            req = urllib.request.Request(url, headers={"User-Agent": "wiggum-build/1"})
            with urllib.request.urlopen(req, timeout=120) as resp:
                data = resp.read()
            if what:
                log(f"downloaded {what}: {len(data) / 1e6:.2f} MB  <- {url}")
            return data
        except Exception as exc:  # pragma: no cover - network flakiness
            last = exc
            time.sleep(1 + attempt)
    raise SystemExit(f"[build] download failed: {url}: {last}")


def http_json(url: str) -> dict:
    return json.loads(http_get(url))


def fetch_verified(url: str, sha256: str, dest: Path, what: str) -> bytes:
    """Return the bytes of `url`, from `dest` if it already holds them, else download."""
    if dest.exists():
        data = dest.read_bytes()
        if sha256_bytes(data) == sha256:
            return data
        log(f"hash mismatch, re-fetching {dest.relative_to(ROOT)}")
    data = http_get(url, what=what)
    got = sha256_bytes(data)
    if got != sha256:
        raise SystemExit(
            f"[build] sha256 mismatch for {url}\n  expected {sha256}\n  got      {got}\n"
            "Refusing to continue.  If the pin changed on purpose, run `python build.py lock`."
        )
    write_if_changed(dest, data)
    return data


# ---------------------------------------------------------------------------
# Version helpers for `lock`
# ---------------------------------------------------------------------------
def _vkey(v: str) -> tuple[int, ...] | None:
    if not re.fullmatch(r"\d+(\.\d+)*", v):
        return None  # pre-releases, dev, local versions: never picked by a range
    return tuple(int(p) for p in v.split("."))


def pick_version(spec: str, versions: list[str]) -> str:
    if spec not in ("*", "") and not spec.endswith(".*"):
        if spec not in versions:
            raise SystemExit(f"[build] version {spec} not found")
        return spec
    prefix = "" if spec in ("*", "") else spec[:-1]
    good = [v for v in versions if _vkey(v) and v.startswith(prefix)]
    if not good:
        raise SystemExit(f"[build] nothing matches {spec}")
    return max(good, key=_vkey)


# ---------------------------------------------------------------------------
# lock
# ---------------------------------------------------------------------------
def _npm_files(tgz: bytes, patterns: list[str]) -> dict[str, str]:
    import fnmatch

    out = {}
    with tarfile.open(fileobj=io.BytesIO(tgz)) as tf:
        for m in tf.getmembers():
            if not m.isfile() or not m.name.startswith("package/"):
                continue
            rel = m.name[len("package/") :]
            if any(fnmatch.fnmatch(rel, p) and rel.count("/") == p.count("/") for p in patterns):
                out[rel] = sha256_bytes(tf.extractfile(m).read())
    return dict(sorted(out.items()))


def _read_tar_member(tgz: bytes, name: str) -> bytes:
    with tarfile.open(fileobj=io.BytesIO(tgz)) as tf:
        return tf.extractfile("package/" + name).read()


def _wheel_tags_ok(filename: str, py_tag: str, plat_tag: str) -> int:
    """0 = unusable; higher = preferred."""
    stem = filename[: -len(".whl")]
    parts = stem.split("-")
    pys, abis, plats = parts[-3].split("."), parts[-2].split("."), parts[-1].split(".")
    if (
        "any" in plats
        and "none" in abis
        and any(p in ("py3", "py2.py3") or p.startswith("py3") for p in pys)
    ):
        return 1
    if plat_tag in plats and py_tag in pys and (py_tag in abis or "abi3" in abis):
        return 2
    return 0


def _wheel_meta(data: bytes) -> tuple[list[str], list[str]]:
    """(depends, imports) of a wheel, from METADATA and its file list."""
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        names = zf.namelist()
        dist_info = next(n.split("/")[0] for n in names if n.split("/")[0].endswith(".dist-info"))
        meta = email.parser.Parser().parsestr(zf.read(f"{dist_info}/METADATA").decode())
        top = set()
        if f"{dist_info}/top_level.txt" in names:
            top = {t.strip() for t in zf.read(f"{dist_info}/top_level.txt").decode().split()}
        else:
            for n in names:
                first = n.split("/")[0]
                if first.endswith((".dist-info", ".data")):
                    continue
                if "/" in n:
                    top.add(first)
                elif n.endswith(".py"):
                    top.add(n[:-3])
                elif n.endswith(".so"):
                    top.add(n.split(".")[0])
    deps = []
    for req in meta.get_all("Requires-Dist") or []:
        if ";" in req:  # extras / environment markers: not needed in the browser
            continue
        deps.append(canon(re.match(r"[A-Za-z0-9._-]+", req.strip()).group(0)))
    imports = sorted(t for t in top if t and not t.startswith("_")) or sorted(t for t in top if t)
    return sorted(deps), imports


def lock_npm(name: str, spec: str) -> tuple[dict, bytes]:
    """The lock entry of the npm package ``name`` at ``spec`` (its tarball checked
    against the registry's integrity and kept in the cache), and the tarball."""
    if spec.endswith(".*") or spec == "*":
        doc = http_json(f"{NPM_REGISTRY}/{name}")
        version = pick_version(spec, list(doc["versions"]))
    else:
        version = spec
    meta = http_json(f"{NPM_REGISTRY}/{name}/{version}")
    url = meta["dist"]["tarball"]
    tgz = http_get(url, what=f"npm {name}@{version}")
    integrity = meta["dist"].get("integrity", "")
    if integrity.startswith("sha512-"):
        got = "sha512-" + base64.b64encode(hashlib.sha512(tgz).digest()).decode()
        if got != integrity:
            raise SystemExit(f"[build] npm integrity mismatch for {name}@{version}")
    entry = {
        "version": version,
        "url": url,
        "sha256": sha256_bytes(tgz),
        "integrity": integrity,
        "files": _npm_files(tgz, NPM_FILES[name]),
    }
    (CACHE / f"{entry['sha256']}.tgz").parent.mkdir(parents=True, exist_ok=True)
    (CACHE / f"{entry['sha256']}.tgz").write_bytes(tgz)
    return entry, tgz


def cmd_lock(_args=None) -> dict:
    log("resolving pins (this talks to the npm registry and PyPI)")
    lock: dict = {"lock_version": 1, "npm": {}, "wheels": {}}
    pyodide_info = None
    for name, spec in NPM_SPECS.items():
        entry, tgz = lock_npm(name, spec)
        if name == "pyodide":
            stock = json.loads(_read_tar_member(tgz, "pyodide-lock.json"))
            pyodide_info = stock["info"]
            entry["lock_info"] = pyodide_info
        lock["npm"][name] = entry
    assert pyodide_info, "pyodide must be in NPM_SPECS"
    major, minor = pyodide_info["python"].split(".")[:2]
    py_tag = f"cp{major}{minor}"
    plat_tag = f"pyemscripten_{pyodide_info['abi_version']}_{pyodide_info['arch']}"
    for name, spec in WHEEL_SPECS.items():
        doc = http_json(f"{PYPI}/{canon(name)}/json")
        json_url = f"{PYPI}/{canon(name)}/json"
        releases = {
            v: files
            for v, files in doc["releases"].items()
            if any(
                not f.get("yanked")
                and f["filename"].endswith(".whl")
                and _wheel_tags_ok(f["filename"], py_tag, plat_tag)
                for f in files
            )
        }
        version = pick_version(spec, list(releases))
        files = [
            f for f in releases[version] if f["filename"].endswith(".whl") and not f.get("yanked")
        ]
        best = max(files, key=lambda f: _wheel_tags_ok(f["filename"], py_tag, plat_tag))
        url = urllib.parse.urljoin(json_url, best["url"])
        # Some PyPI mirrors answer with relative "../../packages/packages/<hash path>"
        # links; store the canonical file host so the lock works everywhere.
        m = re.match(r"https://pypi\.org/packages/packages/(.+)$", url)
        if m:
            url = f"https://files.pythonhosted.org/packages/{m.group(1)}"
        sha = best["digests"]["sha256"]
        data = fetch_verified(
            url, sha, VENDOR / "wheels" / best["filename"], f"wheel {best['filename']}"
        )
        depends, imports = _wheel_meta(data)
        depends = [d for d in depends if d not in WHEEL_DEPS_UNUSED.get(name, set())]
        lock["wheels"][canon(name)] = {
            "version": version,
            "filename": best["filename"],
            "url": url,
            "sha256": sha,
            "size": len(data),
            "depends": depends,
            "imports": imports,
        }
    lock["esm"] = lock_esm()
    missing = {d for w in lock["wheels"].values() for d in w["depends"]} - set(lock["wheels"])
    if missing:
        log(f"warning: dependencies not in the lock (they will not load): {sorted(missing)}")
    text = json.dumps(lock, indent=2, sort_keys=True) + "\n"
    LOCK_PATH.write_text(text)
    log(f"wrote {LOCK_PATH.name}")
    return lock


def _caret_ok(rng: str, v: str) -> bool:
    """npm range check for the forms CodeMirror's packages use (^x.y.z, ~, >=, exact)."""
    key = _vkey(v)
    if key is None:
        return False
    for alt in rng.split("||"):
        alt = alt.strip()
        m = re.fullmatch(r"([~^]|>=)?\s*(\d+)\.(\d+)\.(\d+)", alt)
        if alt in ("*", "", "latest"):
            return True
        if not m:
            continue
        op, want = m.group(1) or "", tuple(int(g) for g in m.group(2, 3, 4))
        k = (*key, 0, 0, 0)[:3]
        if op == "^":
            first = next((i for i, n in enumerate(want) if n), 2)
            if k >= want and k[: first + 1] == want[: first + 1]:
                return True
        elif op == "~":
            if k >= want and k[:2] == want[:2]:
                return True
        elif op == ">=":
            if k >= want:
                return True
        elif k == want:
            return True
    return False


def lock_esm() -> dict:
    """Resolve ESM_ROOTS and their dependency closure to pinned tarballs."""
    out: dict = {}
    ranges: dict[str, list[str]] = {}
    queue = [(name, spec, None) for name, spec in ESM_ROOTS.items()]
    while queue:
        name, spec, rng = queue.pop(0)
        if rng is not None:
            ranges.setdefault(name, []).append(rng)
        if name in out:
            if rng is not None and not _caret_ok(rng, out[name]["version"]):
                raise SystemExit(
                    f"[build] {name}: {out[name]['version']} does not satisfy {rng}; "
                    "pin a root so every dependant agrees (the import map has one per name)"
                )
            continue
        doc = http_json(f"{NPM_REGISTRY}/{name}")
        versions = list(doc["versions"])
        if rng is None:
            version = pick_version(spec, versions)
        else:
            good = [v for v in versions if _caret_ok(rng, v)]
            if not good:
                raise SystemExit(f"[build] {name}: nothing matches {rng}")
            version = max(good, key=_vkey)
        meta = doc["versions"][version]
        tgz = http_get(meta["dist"]["tarball"], what=f"npm {name}@{version}")
        integrity = meta["dist"].get("integrity", "")
        if integrity.startswith("sha512-"):
            got = "sha512-" + base64.b64encode(hashlib.sha512(tgz).digest()).decode()
            if got != integrity:
                raise SystemExit(f"[build] npm integrity mismatch for {name}@{version}")
        pkg = json.loads(_read_tar_member(tgz, "package.json"))
        exports = pkg.get("exports")
        exports = exports.get(".", exports) if isinstance(exports, dict) else {}
        exports = exports.get("import") if isinstance(exports, dict) else exports
        entry_file = (
            (exports if isinstance(exports, str) else None)
            or pkg.get("module")
            or pkg.get("main")
            or "dist/index.js"
        ).removeprefix("./")
        folder = entry_file.rsplit("/", 1)[0] if "/" in entry_file else ""
        pattern = f"{folder}/*.js" if folder else "*.js"
        deps = dict(sorted((pkg.get("dependencies") or {}).items()))
        out[name] = {
            "version": version,
            "url": meta["dist"]["tarball"],
            "sha256": sha256_bytes(tgz),
            "integrity": integrity,
            "entry": entry_file,
            "files": _npm_files(tgz, [pattern]),
            "dependencies": deps,
        }
        (CACHE / f"{out[name]['sha256']}.tgz").parent.mkdir(parents=True, exist_ok=True)
        (CACHE / f"{out[name]['sha256']}.tgz").write_bytes(tgz)
        queue.extend((dep, None, r) for dep, r in deps.items())
    return dict(sorted(out.items()))


def esm_dir(name: str, entry: dict) -> str:
    return f"{ESM_DIR}/{name}@{entry['version']}"


def vendor_esm(lock: dict) -> None:
    for name, entry in lock.get("esm", {}).items():
        dest = VENDOR / esm_dir(name, entry)
        files: dict[str, str] = entry["files"]
        stale = [
            rel
            for rel, sha in files.items()
            if not (dest / rel).exists() or sha256_file(dest / rel) != sha
        ]
        if not stale:
            continue
        tgz = fetch_verified(
            entry["url"], entry["sha256"], CACHE / f"{entry['sha256']}.tgz", f"npm {name}"
        )
        with tarfile.open(fileobj=io.BytesIO(tgz)) as tf:
            for rel in stale:
                data = tf.extractfile("package/" + rel).read()
                if sha256_bytes(data) != files[rel]:
                    raise SystemExit(f"[build] {name}: {rel} does not match the lock")
                write_if_changed(dest / rel, data)
    wanted = {VENDOR / esm_dir(n, e) for n, e in lock.get("esm", {}).items()}
    root = VENDOR / ESM_DIR
    if root.exists():
        for p in sorted(root.glob("*/*")) + sorted(root.glob("*")):
            # <name>@<version> folders only ("@scope" folders hold them)
            if p.is_dir() and "@" in p.name[1:] and p not in wanted:
                shutil.rmtree(p)


def importmap_json(lock: dict) -> str:
    """The import map for index.html: bare specifier -> vendored file (relative
    to the page, so a sub-path deployment works)."""
    imports = {
        name: f"./static/vendor/{esm_dir(name, e)}/{e['entry']}"
        for name, e in lock.get("esm", {}).items()
    }
    return json.dumps({"imports": imports}, indent=1, sort_keys=True)


def importmap_block(lock: dict) -> str:
    return (
        f'{IMPORTMAP_BEGIN}\n<script type="importmap">\n{importmap_json(lock)}\n</script>\n'
        f"{IMPORTMAP_END}"
    )


def write_importmap(lock: dict, index: Path | None = None) -> bool:
    """Rewrite index.html's import map block from the lock (True if it changed)."""
    index = index or ROOT / "index.html"
    text = index.read_text()
    a, b = text.find(IMPORTMAP_BEGIN), text.find(IMPORTMAP_END)
    if a < 0 or b < a:
        raise SystemExit("[build] index.html has no import map block markers")
    new = text[:a] + importmap_block(lock) + text[b + len(IMPORTMAP_END) :]
    return write_if_changed(index, new.encode())


def load_lock() -> dict:
    if not LOCK_PATH.exists():
        raise SystemExit("[build] build_lock.json missing: run `python build.py lock`")
    return json.loads(LOCK_PATH.read_text())


# ---------------------------------------------------------------------------
# build
# ---------------------------------------------------------------------------
NPM_DIRNAME = {"pyodide": "pyodide", "@pyscript/core": "pyscript", "axe-core": "axe-core"}
AXE = "axe-core"


def axe_dir(lock: dict) -> str | None:
    """static/vendor's folder of axe-core (``None``: not in the lock)."""
    entry = lock["npm"].get(AXE)
    return entry and f"{NPM_DIRNAME[AXE]}-{entry['version']}"


def vendor_npm(name: str, entry: dict) -> Path:
    dest = VENDOR / f"{NPM_DIRNAME[name]}-{entry['version']}"
    files: dict[str, str] = entry["files"]

    def target(rel: str) -> Path:
        return dest / (rel[len("dist/") :] if rel.startswith("dist/") else rel)

    stale = [
        rel
        for rel, sha in files.items()
        if not target(rel).exists() or sha256_file(target(rel)) != sha
    ]
    if stale:
        tgz = fetch_verified(
            entry["url"],
            entry["sha256"],
            CACHE / f"{entry['sha256']}.tgz",
            f"npm {name}@{entry['version']}",
        )
        with tarfile.open(fileobj=io.BytesIO(tgz)) as tf:
            for rel in stale:
                data = tf.extractfile("package/" + rel).read()
                if sha256_bytes(data) != files[rel]:
                    raise SystemExit(f"[build] {name}: {rel} does not match the lock")
                write_if_changed(target(rel), data)
        log(f"vendored {len(stale)} file(s) of {name}@{entry['version']}")
    # drop files that are not in the lock any more
    wanted = {target(rel) for rel in files}
    for p in dest.rglob("*"):
        if p.is_file() and p not in wanted:
            p.unlink()
    return dest


def vendor_wheels(lock: dict) -> None:
    wheels_dir = VENDOR / "wheels"
    for name, w in lock["wheels"].items():
        dest = wheels_dir / w["filename"]
        if dest.exists() and dest.stat().st_size == w["size"] and sha256_file(dest) == w["sha256"]:
            continue
        fetch_verified(w["url"], w["sha256"], dest, f"wheel {w['filename']} ({name})")
    wanted = {w["filename"] for w in lock["wheels"].values()}
    for p in wheels_dir.glob("*.whl"):
        if p.name not in wanted:
            p.unlink()


def project_meta() -> tuple[str, list[str]]:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text())
    proj = data.get("project", {})
    deps = [
        canon(re.match(r"[A-Za-z0-9._-]+", d.strip()).group(0))
        for d in proj.get("dependencies", [])
        if ";" not in d
    ]
    return proj.get("version", "0.0.0"), deps


def wiggum_files(src: Path = WIGGUM_SRC) -> list[Path]:
    out = []
    for p in sorted(src.rglob("*")):
        rel = p.relative_to(src)
        if not p.is_file() or "__pycache__" in rel.parts:
            continue
        if any(part.startswith(".") for part in rel.parts) or p.suffix in (".pyc", ".pyo"):
            continue
        out.append(p)
    return out


def pack_wiggum(version: str, depends: list[str], src: Path = WIGGUM_SRC) -> bytes:
    """A deterministic py3-none-any wheel of the wiggum/ folder (byte-identical for
    identical sources, so its hash only changes when the code does)."""
    dist_info = f"wiggum-{version}.dist-info"
    entries: list[tuple[str, bytes]] = []
    for p in wiggum_files(src):
        entries.append((f"wiggum/{p.relative_to(src).as_posix()}", p.read_bytes()))
    metadata = (
        "Metadata-Version: 2.1\nName: wiggum\n"
        f"Version: {version}\n" + "".join(f"Requires-Dist: {d}\n" for d in depends)
    ).encode()
    wheel = (
        b"Wheel-Version: 1.0\nGenerator: wiggum-build.py\n"
        b"Root-Is-Purelib: true\nTag: py3-none-any\n"
    )
    entries += [
        (f"{dist_info}/METADATA", metadata),
        (f"{dist_info}/WHEEL", wheel),
        (f"{dist_info}/top_level.txt", b"wiggum\n"),
    ]
    entries.append(_record(entries, f"{dist_info}/RECORD"))
    return zip_entries(entries, compresslevel=6)


def _record(entries: list[tuple[str, bytes]], name: str) -> tuple[str, bytes]:
    """A wheel's RECORD entry listing ``entries`` (and itself, unhashed)."""
    rows = "".join(
        f"{n},sha256={base64.urlsafe_b64encode(hashlib.sha256(d).digest()).rstrip(b'=').decode()},{len(d)}\n"
        for n, d in entries
    )
    return name, (rows + f"{name},,\n").encode()


def zip_entries(entries: list[tuple[str, bytes]], compresslevel: int) -> bytes:
    """A deterministic zip of ``entries`` (fixed dates and modes): the same
    files give the same bytes, so content-hashed names change only with them."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for name, data in entries:
            zi = zipfile.ZipInfo(name, date_time=(1980, 1, 1, 0, 0, 0))
            zi.external_attr = 0o644 << 16
            zi.compress_type = zipfile.ZIP_DEFLATED
            zf.writestr(zi, data, compresslevel=compresslevel)
    return buf.getvalue()


def read_site_config() -> tuple[dict, dict]:
    """(PyScript config, [wiggum] build settings) from pyscript.toml."""
    cfg = tomllib.loads(PYSCRIPT_TOML.read_text()) if PYSCRIPT_TOML.exists() else {}
    wiggum_cfg = cfg.pop("wiggum", {})
    for banned in ("interpreter", "packages", "files"):
        if banned in cfg:
            raise SystemExit(
                f"[build] pyscript.toml: `{banned}` is generated by build.py; "
                "use [wiggum].preload for packages"
            )
    return cfg, wiggum_cfg


def _short(h: str) -> str:
    return h[:16]


BOOT_TEMPLATE = """\
// Generated by build.py -- do not edit.  PyScript imports this as its `interpreter`
// module; it forwards to the vendored Pyodide with our lock file and preload list.
// index.html calls start() as soon as it knows this module's name, so the runtime
// downloads while PyScript itself loads; PyScript's loadPyodide() call then takes
// over the same, already running start.
import {{ loadPyodide as _loadPyodide, version }} from "./{pyodide_dir}/pyodide.mjs";
export {{ version }};
export const build = {build!r};
export const preload = {preload};
export const expected = {expected};  // what loadPackage() installs: preload + dependencies
// wiggum's own wheel (bytecode, content-hashed URL, checked by the browser
// against its sha256) is fetched once the runtime is in and unpacked straight
// into site-packages: about 0.1 s sooner than through loadPackage().
export const appWheel = {app_wheel};
const here = (p) => new URL(p, import.meta.url).href;
export const lockFileURL = here("./{lock_name}");
// Pyodide's output goes to PyScript's writers once PyScript hands them over.
const out = {{ stdout: (s) => console.log(s), stderr: (s) => console.error(s) }};
// The wheels installed at start (the app's, markdown's, pydantic & co.) also in
// xz, by the wheel each stands for (build.py's xz_copy): {xz_mb} MB fewer to
// download, for about {xz_cost} s of CPU decoding them with Python's own lzma.  A
// first visit on a link slower than {xz_mbps} Mbit/s takes them; a cached or fast
// one takes the wheels.  `?wheels=xz|zip` (or localStorage "wiggum.wheels")
// forces one; an xz file that fails to load or decode falls back to its wheel.
export const xz = {xz};
const XZ_MBPS = {xz_mbps};
// Pyodide's python_stdlib.zip with its members stored, gzipped as one stream
// (build.py's stdlib_gzip): fetched in its place and unzipped by the browser's
// DecompressionStream (about 20 ms).
export const stdlib = {stdlib};
// Mbit/s this page's downloads have come at: the bytes that arrived while
// pyodide.asm.mjs (~0.3 MB, preloaded by index.html as soon as it knows the
// build) did, over that time; null when they came from the cache or too late.
async function linkMbps(waitMs) {{
  const name = here("./{pyodide_dir}/pyodide.asm.mjs");
  const t0 = performance.now();
  let ref;
  while (!(ref = performance.getEntriesByName(name)[0]) && performance.now() - t0 < waitMs) {{
    await new Promise((done) => setTimeout(done, 10));
  }}
  if (!ref || !(ref.transferSize > 0)) return null;
  const [a, b] = [ref.responseStart, ref.responseEnd];
  let bits = 0;
  for (const e of performance.getEntriesByType("resource")) {{
    const [s, t] = [e.responseStart, e.responseEnd];
    if (!(e.transferSize > 0) || t < a || s > b) continue;
    const share = t > s ? (Math.min(t, b) - Math.max(s, a)) / (t - s) : 1;
    bits += 8 * e.transferSize * share;
  }}
  return bits / Math.max(b - a, 0.5) / 1000;
}}
// The runtime's two big files, requested at once: deciding about the wheels
// (xz or not) may take until pyodide.asm.mjs has arrived, and loadPyodide()
// (which would request them) waits for that decision.  Its own fetch of either
// file is then answered with the response already under way, so nothing is
// fetched twice.
// Resolves once both have arrived whole: index.html counts their bytes and
// moves the boot to its "python" stage then.  Told synchronously, since
// Python's start holds the main thread from that moment on (a queued callback
// would run seconds later).
function fetchRuntimeEarly(boot) {{
  const early = new Map();
  for (const name of ["pyodide.asm.wasm", "python_stdlib.zip"]) {{
    const url = here("./{pyodide_dir}/" + name);
    early.set(url, name === "python_stdlib.zip" ? fetchStdlib(url) : fetch(url));
  }}
  const arrived = new Promise((done) => {{
    if (!boot?.stage) return Promise.all(early.values()).then(done);
    const stage = boot.stage;
    boot.stage = function (name, label) {{
      if (name === "python") done();
      return stage.call(this, name, label);
    }};
  }});
  const onward = globalThis.fetch;
  const handOver = function (input, init) {{
    const asked = typeof input === "string" ? input : input.url ?? String(input);
    const url = new URL(asked, location.href).href;
    const response = early.get(url);
    if (!response) return onward.call(this, input, init);
    early.delete(url);
    if (!early.size && globalThis.fetch === handOver) globalThis.fetch = onward;
    return response;
  }};
  globalThis.fetch = handOver;
  return arrived;
}}
// The standard library: the gzipped file when this browser can unzip it, with
// its integrity checked; unzipped here unless the host already did (a server
// that sends .gz files with "Content-Encoding: gzip": no gzip header left).
const ZIP = {{ headers: {{ "Content-Type": "application/zip" }} }};
function fetchStdlib(url) {{
  if (!stdlib || typeof DecompressionStream !== "function") return fetch(url);
  return fetch(here(stdlib.url), {{ integrity: stdlib.integrity }}).then(async (r) => {{
    if (!r.ok) throw new Error(`${{stdlib.url}}: HTTP ${{r.status}}`);
    const buf = new Uint8Array(await r.arrayBuffer());
    const gzipped = buf[0] === 0x1f && buf[1] === 0x8b;
    const body = gzipped
      ? new Blob([buf]).stream().pipeThrough(new DecompressionStream("gzip"))
      : buf;
    return new Response(body, ZIP);
  }}).catch((err) => {{
    console.warn("wiggum boot: the gzipped standard library did not load, taking the zip:", err);
    return fetch(url);
  }});
}}
function stored(key, value) {{
  try {{
    if (value === undefined) return globalThis.localStorage?.getItem(key) ?? null;
    globalThis.localStorage?.setItem(key, value);
  }} catch {{}}
  return null;
}}
// Whether the wheels come in xz, and why.
async function chooseWheels() {{
  if (!Object.keys(xz).length) return {{ xz: false, why: "none in this build" }};
  let asked = null;
  try {{
    asked = new URLSearchParams(location.search).get("wheels");
  }} catch {{}}
  asked ??= stored("wiggum.wheels");
  if (asked === "xz" || asked === "zip") return {{ xz: asked === "xz", why: "asked" }};
  try {{
    if (appWheel && globalThis.caches && (await caches.match(here(appWheel.url)))) {{
      return {{ xz: false, why: "cached" }};
    }}
  }} catch {{}}
  const mbps = await linkMbps(1500);
  if (mbps === null) {{
    // from the HTTP cache: what the last visit downloaded is what is there
    const last = stored("wiggum.wheels.last");
    return {{ xz: last === "xz", why: "link unknown, as the last visit" }};
  }}
  return {{ xz: mbps < XZ_MBPS, why: `link ${{Math.round(mbps)}} Mbit/s` }};
}}
// Python's lzma, for the xz files: bytes in, bytes out.
let unxzFn = null;
function unxz(py, buf) {{
  unxzFn ??= py.runPython("lambda b: __import__('lzma').decompress(b.to_bytes())");
  const out = unxzFn(new Uint8Array(buf));
  try {{
    return out.toJs();
  }} finally {{
    out.destroy();
  }}
}}
function fetchXz(file, init) {{
  return fetch(here(file.url), {{ ...init, integrity: file.integrity }}).then((r) => {{
    if (!r.ok) throw new Error(`${{file.url}}: HTTP ${{r.status}}`);
    return r.arrayBuffer();
  }});
}}
// From now on a request for one of those wheels (Pyodide's loadPackage()) is
// answered with its xz file, decoded; its plain wheel if that fails.
function serveXz(py) {{
  const byURL = new Map(Object.entries(xz).map(([rel, file]) => [here(rel), file]));
  const onward = globalThis.fetch;
  globalThis.fetch = function (input, init) {{
    const asked = typeof input === "string" ? input : input.url ?? String(input);
    const file = byURL.get(new URL(asked, location.href).href);
    if (!file) return onward.call(this, input, init);
    return fetchXz(file)
      .then((buf) => new Response(unxz(py, buf), ZIP))
      .catch((err) => {{
        console.warn(`wiggum boot: ${{file.url}} not used, taking the wheel:`, err);
        return onward.call(this, input, init);
      }});
  }};
}}
// ``rels`` with the one whose xz file is the biggest first.
function biggestFirst(rels) {{
  const size = (rel) => xz[rel]?.size ?? 0;
  const lead = rels.reduce((a, b) => (size(b) > size(a) ? b : a), rels[0]);
  return lead && xz[lead] ? [lead, ...rels.filter((rel) => rel !== lead)] : [null, ...rels];
}}
// Into the HTTP cache, where Pyodide's loadPackage() then finds it.
function warm(rel, init) {{
  return fetch(here(rel), init).then((r) => r.arrayBuffer()).catch(() => {{}});
}}
// The wheels installed with Python (the preload list but wiggum, which start()
// fetches itself): requested at once, not after Python has started.
export const preloadFiles = {preload_files};
// The wheels the app installs right after its first screen (pyscript.toml's
// after_ready, with their dependencies), requested once the runtime has arrived
// (not sooner: they would slow it down; not later, see start()): the network is
// busy while Python starts and the first screen is drawn, and their install
// then reads them from the HTTP cache.
export const afterReady = {after_ready};
let started = null;
export function start() {{
  started ??= (async () => {{
    const boot = globalThis.wiggumBoot;
    // The runtime first, alone: Python's start waits for it, and for nothing
    // else until its end.  Then, while Python starts, the wheels: the app's and
    // the markdown ones (installed at the end of the start) and pydantic & co.
    // (after the first screen).  loadPyodide() having returned also means the
    // runtime is in, should the boot's stage never say so.
    let pythonUp;
    const runtimeIn = Promise.race([
      fetchRuntimeEarly(boot),
      new Promise((done) => (pythonUp = done)),
    ]);
    const wheels = chooseWheels();
    const packed = (rel) => wheels.then((w) => (w.xz && xz[rel] ? xz[rel].url : rel));
    const fetchPlainWheel = () => fetch(here(appWheel.url), {{ integrity: appWheel.integrity }})
      .then((r) => {{
        if (!r.ok) throw new Error(`HTTP ${{r.status}}`);
        return r.arrayBuffer();
      }})
      .catch((err) => {{
        throw new Error(`could not load ${{appWheel.url}}: ${{err.message}}`);
      }});
    // The app's wheel: {{ buf, xz }} (xz: still to decode, once Python is up).
    const fetchWheel = async () => {{
      const file = (await wheels).xz && xz[appWheel.url];
      if (file) {{
        try {{
          return {{ buf: await fetchXz(file), xz: true }};
        }} catch (err) {{
          console.warn(`wiggum boot: ${{file.url}} not used, taking the wheel:`, err);
        }}
      }}
      return {{ buf: await fetchPlainWheel(), xz: false }};
    }};
    const wheel = appWheel && runtimeIn.then(fetchWheel);
    wheel?.catch(() => {{}});  // reported where it is awaited, not as unhandled
    // pydantic & co. at once too, never after the first screen's wheels: Python's
    // start then holds the main thread, a request waits for it, and the link would
    // sit idle (at 8 Mbit/s the whole app was ready 0.5 s later that way, the
    // first screen 0.3 s sooner).  On a slow link (xz) the biggest of them first
    // and alone: its install compiles its WebAssembly, which then no longer waits
    // for the others' last byte.
    runtimeIn.then(async () => {{
      preloadFiles.forEach((rel) => packed(rel).then((url) => warm(url)));
      const inXz = (await wheels).xz;
      const [lead, ...rest] = inXz ? biggestFirst(afterReady) : [null, ...afterReady];
      if (lead) await warm(xz[lead].url);
      rest.forEach((rel) => packed(rel).then((url) => warm(url, {{ priority: "low" }})));
    }});
    boot?.mark?.("loadPyodide:start");
    const inXz = (await wheels).xz;
    if (boot) [boot.wheels, boot.wheelsChoice] = [inXz ? "xz" : "zip", (await wheels).why];
    stored("wiggum.wheels.last", inXz ? "xz" : "zip");
    const packages = preload.filter((p) => p !== appWheel?.name);
    const options = {{
      indexURL: here("./{pyodide_dir}/"),
      lockFileURL,
      // in xz, installed below: decoding them needs Python up
      packages: inXz ? [] : packages,
      stdout: (s) => out.stdout(s),
      stderr: (s) => out.stderr(s),
    }};
    const py = await _loadPyodide(options);
    pythonUp();
    if (inXz) {{
      serveXz(py);
      if (packages.length) await py.loadPackage(packages);
    }}
    if (wheel) {{
      const got = await wheel;
      let bytes = got.buf;
      if (got.xz) {{
        try {{
          bytes = unxz(py, got.buf);
        }} catch (err) {{
          console.warn("wiggum boot: the app's xz file did not decode, taking the wheel:", err);
          bytes = await fetchPlainWheel();
        }}
      }}
      const site = py.runPython("__import__('site').getsitepackages()[0]");
      py.unpackArchive(bytes, "zip", {{ extractDir: site }});
      py.runPython("__import__('importlib').invalidate_caches()");
    }}
    boot?.mark?.("loadPyodide:end");
    if (boot) boot.pyodide = py;
    // loadPackage() only logs failures: check that everything really arrived.
    const missing = expected.filter((p) => !py.loadedPackages[p]);
    if (missing.length) {{
      throw new Error("wiggum boot: packages failed to load: " + missing.join(", "));
    }}
    return py;
  }})();
  return started;
}}
// PyScript's call: of its options only the output writers (and packages, if it
// ever passes any) apply; the index URL and lock file are ours, and PyScript's
// own package cache is off (pyscript.toml: packages_cache = "never").
export async function loadPyodide(options = {{}}) {{
  if (options.stdout) out.stdout = options.stdout;
  if (options.stderr) out.stderr = options.stderr;
  const py = await start();
  if (options.packages?.length) await py.loadPackage(options.packages);
  globalThis.wiggumBoot?.stage?.("packages");
  return py;
}}
"""


def cmd_build(args=None) -> dict:
    t0 = time.monotonic()
    if getattr(args, "update_lock", False):
        cmd_lock()
    lock = load_lock()
    VENDOR.mkdir(parents=True, exist_ok=True)

    pyo = lock["npm"]["pyodide"]
    pys = lock["npm"]["@pyscript/core"]
    vendor_npm("pyodide", pyo)
    vendor_npm("@pyscript/core", pys)
    if AXE in lock["npm"]:
        vendor_npm(AXE, lock["npm"][AXE])
    vendor_wheels(lock)
    vendor_esm(lock)
    if write_importmap(lock):
        log("index.html: import map rewritten from build_lock.json")
    src = Path(getattr(args, "wiggum_src", None) or WIGGUM_SRC).resolve()
    manifest = generate_app(VENDOR, lock, src)
    if write_csp(ROOT / "index.html"):
        log("index.html: Content-Security-Policy updated to its inline scripts' hashes")
    write_service_worker(ROOT, manifest)  # last: it hashes index.html as written
    total = sum(f.stat().st_size for f in VENDOR.rglob("*") if f.is_file())
    log(
        f"ready in {time.monotonic() - t0:.1f}s: static/vendor = {total / 1e6:.1f} MB; "
        f"runtime and wheels before the first screen "
        f"{sum(manifest['progress_bytes'].values()) / 1e6:.1f} MB "
        "(the whole first load, JavaScript and the app's wheels included: "
        "bench/browser_boot.py); "
        f"wiggum {manifest['wiggum']['version']}@{manifest['wiggum']['hash']}"
    )
    return manifest


# ---------------------------------------------------------------------------
# Content-Security-Policy: static hosts send no headers, so the page
# carries its policy in a <meta http-equiv>.  Inline scripts run only by their
# sha256 hash, which build.py recomputes from whatever inline <script> elements
# index.html holds (the boot script, the import map, ...);
# tests/test_csp.py fails when the meta and the scripts drift apart.
# ---------------------------------------------------------------------------
#: 'self': the vendored runtime, PyScript, the boot module, the editor's ESM.
#: 'wasm-unsafe-eval': Pyodide compiles WebAssembly (nothing else allows that).
#: 'unsafe-eval': PyScript 0.7 cannot start without it: creating the
#: interpreter reads its ``onBeforeRunAsync`` hooks, which it joins into one
#: function with ``Function(`return(w,x)=>...`)`` (``jo`` in core-*.js; the
#: e2e's boot fails with an EvalError without it).  Pyodide itself needs no
#: eval here: its ``eval`` serves EM_ASM/EM_JS code, which neither its main
#: module nor our wheels' extension modules contain.  No 'unsafe-inline':
#: inline scripts run by hash only.
CSP_SCRIPT_SRC = ["'self'", "'wasm-unsafe-eval'", "'unsafe-eval'"]
CSP_REST = [
    "default-src 'self'",
    # Providers are wherever the person points them (Ollama on localhost,
    # an OpenAI-compatible server on the LAN, any https API).
    "connect-src * data: blob:",
    "img-src 'self' data: blob:",
    # Stylesheets from our origin; no style="" attribute (style-src-attr falls
    # back to this): the app styles elements through the CSSOM only.
    "style-src 'self'",
    # <style> elements: CodeMirror puts its theme in one (style-mod takes a
    # <style> element for a document root, adoptedStyleSheets only in shadow
    # roots).  Without script, injected CSS can load nothing from elsewhere
    # (img-src, font-src), so it cannot carry anything out.
    "style-src-elem 'self' 'unsafe-inline'",
    "font-src 'self' data:",
    # The preview's sandboxed frames load our static/preview.html (a URL, so
    # the person's site there has its own rules, not these); nothing else is framed.
    "frame-src 'self'",
    "object-src 'none'",
    "base-uri 'none'",
]
_INLINE_SCRIPT = re.compile(r"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.S | re.I)
_CSP_META = re.compile(r'(<meta http-equiv="Content-Security-Policy" content=")([^"]*)(">)', re.I)


def inline_script_hashes(html: str) -> list[str]:
    """CSP source expressions for every inline <script> of ``html``, in order."""
    out = []
    # Comments first: index.html's boot notes mention `<script type="py">`.
    for m in _INLINE_SCRIPT.finditer(re.sub(r"<!--.*?-->", "", html, flags=re.S)):
        digest = hashlib.sha256(m.group(1).encode("utf-8")).digest()
        out.append(f"'sha256-{base64.b64encode(digest).decode('ascii')}'")
    return out


def csp_for(html: str) -> str:
    script_src = " ".join(["script-src", *CSP_SCRIPT_SRC, *inline_script_hashes(html)])
    return "; ".join([CSP_REST[0], script_src, *CSP_REST[1:]])


def write_csp(path: Path) -> bool:
    """Rewrite the CSP meta of ``path`` (if it has one) for its current inline scripts."""
    html = path.read_text(encoding="utf-8")
    if not _CSP_META.search(html):
        return False
    new = _CSP_META.sub(lambda m: m.group(1) + csp_for(html) + m.group(3), html, count=1)
    return write_if_changed(path, new.encode("utf-8"))


def generate_app(out: Path, lock: dict, src: Path = WIGGUM_SRC) -> dict:
    """Write the content-hashed app files (wiggum wheel, Pyodide lock, boot module)
    and manifest.json into `out`, a static/vendor folder that already holds the
    vendored runtime and wheels.  Returns the manifest."""
    pyo = lock["npm"]["pyodide"]
    pys = lock["npm"]["@pyscript/core"]
    pyodide_dir = out / f"{NPM_DIRNAME['pyodide']}-{pyo['version']}"
    pyscript_dir = out / f"{NPM_DIRNAME['@pyscript/core']}-{pys['version']}"

    # -- wiggum package ------------------------------------------------------
    version, deps = project_meta()
    available = set(lock["wheels"])
    depends = [d for d in deps if d in available]
    for d in set(deps) - available:
        log(f"warning: wiggum depends on {d}, which is not in build_lock.json")
    whl = pack_wiggum(version, depends, src)
    whl_hash = sha256_bytes(whl)
    whl_name = f"wiggum-{version}-py3-none-any.whl"
    # The source wheel is what the bytecode is compiled from; the page gets it
    # as bytecode when the build has Node (see bytecode_wheel), else as it is.
    source_whl = CACHE / "app" / _short(whl_hash) / whl_name
    source_whl.parent.mkdir(parents=True, exist_ok=True)
    write_if_changed(source_whl, whl)
    _prune([d for d in source_whl.parent.parent.iterdir() if d.is_dir()], source_whl.parent.name, 3)
    app_rel = f"app/{_short(whl_hash)}/{whl_name}"

    # -- Pyodide lock: only vendored wheels, local relative URLs --------------
    packages = {}
    for name, w in lock["wheels"].items():
        packages[name] = {
            "name": name,
            "version": w["version"],
            "file_name": f"wheels/{w['filename']}",
            "install_dir": "site",
            "sha256": w["sha256"],
            "package_type": "package",
            "imports": w["imports"],
            "depends": w["depends"],
            "unvendored_tests": False,
            "tool": {},
        }
    packages["wiggum"] = {
        "name": "wiggum",
        "version": version,
        "file_name": app_rel,
        "install_dir": "site",
        "sha256": whl_hash,
        "package_type": "package",
        "imports": ["wiggum"],
        # Empty on purpose: the first screen runs on wiggum alone; its declared
        # dependencies (pydantic & co.) are pyscript.toml's `after_ready`.
        "depends": [],
        "unvendored_tests": False,
        "tool": {},
    }

    def lock_json() -> bytes:
        pyodide_lock = {
            "info": pyo["lock_info"],
            "packages": dict(sorted(packages.items())),
            "tool": {},
        }
        return (json.dumps(pyodide_lock, indent=1, sort_keys=True) + "\n").encode()

    source_lock = CACHE / "app" / f"lock-{_short(sha256_bytes(lock_json()))}.json"
    write_if_changed(source_lock, lock_json())

    # -- PyScript config + boot module -----------------------------------------
    ps_cfg, w_cfg = read_site_config()
    preload = [canon(p) for p in w_cfg.get("preload", ["wiggum"])]
    after_ready = [canon(p) for p in w_cfg.get("after_ready", [])]
    for p in preload + after_ready:
        if p not in packages:
            raise SystemExit(f"[build] pyscript.toml: {p} is not vendored")
    # Installed before app-ready: preload + dependencies; right after it: the rest
    # of after_ready's closure.
    closure = _closure(preload, packages)
    later = [n for n in _closure(after_ready, packages) if n not in closure]
    if "wiggum" in closure:
        missing = sorted(set(depends) - set(closure) - set(later))
        if missing:
            raise SystemExit(
                f"[build] pyscript.toml: wiggum needs {', '.join(missing)}; "
                "add them to [wiggum].preload or [wiggum].after_ready"
            )
    # wiggum itself bypasses loadPackage() (see BOOT_TEMPLATE); it depends on
    # nothing in the lock (its dependencies are after_ready's).
    app_wheel = None
    if "wiggum" in preload:
        app_wheel = {
            "name": "wiggum",
            "url": f"./{app_rel}",
            "integrity": "sha256-" + base64.b64encode(bytes.fromhex(whl_hash)).decode(),
        }
    sources = {
        n: source_whl if n == "wiggum" else out / packages[n]["file_name"]
        for n in sorted(set(closure) | set(later))
    }
    stdlib, stdlib_rest = stdlib_split(
        pyodide_dir / "python_stdlib.zip", w_cfg.get("stdlib_later", [])
    )
    # The wheels' modules and the standard library modules the whole app imports
    # as bytecode (one Node run).
    pyc, stdlib_code = compile_bytecode(
        pyodide_dir, source_lock, list(sources.values()), stdlib
    ) or (None, None)
    if stdlib_code:
        stdlib = stdlib_with_bytecode(stdlib, stdlib_code)
    # No byte sent twice: with bytecode, the wheels the page installs carry it
    # in place of their source (see bytecode_wheel); without, as they are.
    shipped = {n: source_whl.read_bytes() for n in ["wiggum"]}
    if pyc:
        compiled = pyc_members(pyc)
        for n, path in sources.items():
            data = bytecode_wheel(path.read_bytes(), compiled)
            digest = sha256_bytes(data)
            rel = f"app/{_short(digest)}/{path.name}"
            write_if_changed(out / rel, data)
            packages[n]["file_name"], packages[n]["sha256"] = rel, digest
            if n == "wiggum":
                shipped["wiggum"], app_rel, whl_hash = data, rel, digest
    else:
        write_if_changed(out / app_rel, shipped["wiggum"])
    lock_bytes = lock_json()
    lock_name = f"lock-{_short(sha256_bytes(lock_bytes))}.json"
    write_if_changed(out / lock_name, lock_bytes)
    if app_wheel:
        app_wheel["url"] = f"./{app_rel}"
        app_wheel["integrity"] = "sha256-" + base64.b64encode(bytes.fromhex(whl_hash)).decode()
    log(f"wiggum {version}: {len(shipped['wiggum'])} bytes -> {app_rel}")
    # The same wheels in xz, for a first visit on a slow network (BOOT_TEMPLATE).
    xz_files, xz_saved, xz_out = {}, 0, 0
    for n in sources:
        whl = out / packages[n]["file_name"]
        packed = xz_copy(whl)
        xz_files[f"./{packages[n]['file_name']}"] = {
            "url": f"./{packages[n]['file_name']}.xz",
            "integrity": _sri(packed),
            "size": packed.stat().st_size,
        }
        xz_saved += whl.stat().st_size - packed.stat().st_size
        with zipfile.ZipFile(whl) as zf:
            xz_out += sum(i.file_size for i in zf.infolist())
    xz_cost_s = XZ_S_PER_MB * xz_out / 1e6
    stdlib_gz = stdlib_gzip(out, stdlib)
    stdlib_later_gz = stdlib_gzip(out, stdlib_rest)
    boot_src = BOOT_TEMPLATE.format(
        after_ready=json.dumps([f"./{packages[n]['file_name']}" for n in later]),
        preload_files=json.dumps(
            [f"./{packages[n]['file_name']}" for n in closure if n != "wiggum"]
        ),
        app_wheel=json.dumps(app_wheel),
        xz=json.dumps(xz_files),
        xz_mb=f"{xz_saved / 1e6:.1f}",
        xz_cost=f"{xz_cost_s:.2f}",
        xz_mbps=round(xz_saved * 8 / 1e6 / max(xz_cost_s, 0.05)),
        stdlib=json.dumps({"url": f"./{stdlib_gz.name}", "integrity": _sri(stdlib_gz)}),
        expected=json.dumps([n for n in closure if n != "wiggum"]),
        pyodide_dir=pyodide_dir.name,
        lock_name=lock_name,
        preload=json.dumps(preload),
        build=_short(sha256_bytes(lock_bytes)),
    ).encode()
    boot_name = f"boot-{_short(sha256_bytes(boot_src))}.mjs"
    write_if_changed(out / boot_name, boot_src)
    ps_cfg["interpreter"] = f"./static/vendor/{boot_name}"

    # Bytes the page downloads before app-ready (drives the progress bar).
    sizes = {
        f"{pyodide_dir.name}/pyodide.asm.wasm": (pyodide_dir / "pyodide.asm.wasm").stat().st_size,
        stdlib_gz.name: stdlib_gz.stat().st_size,
    }
    for n in sorted(closure):
        rel = packages[n]["file_name"]
        sizes[rel] = (out / rel).stat().st_size

    manifest = {
        "build": _short(sha256_bytes(boot_src + lock_bytes)),
        "pyodide": {"version": pyo["version"], "dir": f"static/vendor/{pyodide_dir.name}/"},
        "pyscript": {
            "version": pys["version"],
            "core": f"static/vendor/{pyscript_dir.name}/core.js",
            "css": f"static/vendor/{pyscript_dir.name}/core.css",
        },
        "boot_module": f"static/vendor/{boot_name}",
        "lock_file": f"static/vendor/{lock_name}",
        # Loaded by the site checks' audit frame only (wiggum.web.checkers).
        "axe": axe_dir(lock) and f"static/vendor/{axe_dir(lock)}/axe.min.js",
        # what the page fetches in place of the runtime's python_stdlib.zip
        "stdlib": f"static/vendor/{stdlib_gz.name}",
        # and the modules taken out of it, loaded once the app is up
        "stdlib_later": {
            "url": f"static/vendor/{stdlib_later_gz.name}",
            "integrity": _sri(stdlib_later_gz),
            "modules": sorted(w_cfg.get("stdlib_later", [])),
        },
        # the wheels carry their bytecode themselves (bytecode_wheel)
        "bytecode": bool(pyc),
        "wiggum": {
            "version": version,
            "hash": _short(whl_hash),
            "wheel": f"static/vendor/{app_rel}",
        },
        "preload": preload,
        "after_ready": sorted(later),
        "deferred": sorted(set(packages) - set(closure) - set(later)),
        "progress_bytes": sizes,
        "config": ps_cfg,
    }
    write_if_changed(
        out / "manifest.json", (json.dumps(manifest, indent=1, sort_keys=True) + "\n").encode()
    )

    # -- prune old generated files (keep the previous app/boot/lock: a page that
    #    loaded the old manifest a moment ago can still finish booting) ----------
    _prune(out.glob("boot-*.mjs"), keep=boot_name)
    _prune(out.glob("lock-*.json"), keep=lock_name)
    _prune(out.glob("python_stdlib-*.zip.gz"), keep=stdlib_gz.name, previous=0)
    _prune(out.glob("python_stdlib_later-*.zip.gz"), keep=stdlib_later_gz.name, previous=0)
    # what earlier builds wrote and none reads any more: the bytecode overlay (now
    # in the wheels) and the memory snapshot (restoring it saved no time)
    for old in [*out.glob("pyc-*.zip"), *out.glob("snapshot-*.bin.gz")]:
        old.unlink()
    current = {Path(p["file_name"]).parts[1] for p in packages.values()}
    old_apps = [p for p in (out / "app").iterdir() if p.is_dir() and p.name not in current]
    _prune(old_apps, keep="", previous=len(current))
    for p in out.iterdir():
        if (
            p.is_dir()
            and p.name.startswith(("pyodide-", "pyscript-", "axe-core-"))
            and p not in (pyodide_dir, pyscript_dir)
            and p.name != axe_dir(lock)
        ):
            shutil.rmtree(p)
    return manifest


def _sri(path: Path) -> str:
    return "sha256-" + base64.b64encode(hashlib.sha256(path.read_bytes()).digest()).decode()


BYTECODE_SCRIPT = ROOT / "scripts" / "compile_bytecode.mjs"
#: What the page imports up to the whole app (wiggum.web.boot imports the shell
#: for the first screen, then the app), and email.message, which pydantic's
#: plugin lookup imports (through importlib.metadata) when the first model is
#: built: compile_bytecode imports them to learn the standard library modules
#: the page needs as bytecode.
PAGE_IMPORTS = ["wiggum.web.boot", "wiggum.web.shell", "wiggum.web.app", "email.message"]
#: Seconds of the page's CPU per MB of wheel that xz gives back (Python's lzma
#: in Pyodide decoded 5 MB in 85-90 ms in Node; doubled for a slower machine).
#: With the bytes xz saves it sets the link speed under which a first visit
#: downloads the wheels in xz.
XZ_S_PER_MB = 0.04
# Never imported by Wiggum: no bytecode for them in the .pyc overlay (bytes).
PYC_SKIP = ["pydantic/v1/", "pydantic/deprecated/", "pydantic/experimental/"]
# Left out of the wheels the page installs at start (bytecode_wheel), ~0.1 MB:
# pydantic 1's API (imported only by `import pydantic.v1`, or to warn about a v1
# model mixed into a v2 one, neither of which Wiggum has), the mypy plugin (read
# by mypy, never at run time), and software bills of materials (read by
# scanners).  The licenses stay.
WHEEL_DROP = ["pydantic/v1/", "pydantic/mypy.py", ".dist-info/sboms/"]


def metadata_headers(data: bytes) -> bytes:
    """A wheel's METADATA without its body (the project's long description, read
    by package indexes; importlib.metadata reads the headers)."""
    head, sep, _ = data.partition(b"\n\n")
    return head + b"\n" if sep else data


def compile_bytecode(
    pyodide_dir: Path, lock_file: Path, wheels: list[Path], stdlib: Path
) -> tuple[Path, Path] | None:
    """``(wheels' .pyc zip, standard library .pyc zip)``: every module of
    ``wheels`` (but PYC_SKIP's) and the standard library modules PAGE_IMPORTS
    import, compiled by the vendored Pyodide in Node (scripts/compile_bytecode.mjs)
    from ``stdlib``, the zip the page starts with; kept in .cache/build/bytecode/
    under a key of everything they depend on, so unchanged builds reuse them.

    Optional: without ``node`` (or with WIGGUM_BYTECODE=0) or when Node fails,
    the build goes on and the page gets the sources (it compiles them itself)."""
    node = shutil.which("node")
    if os.environ.get("WIGGUM_BYTECODE", "1") == "0" or not node:
        if not node:
            log("no `node` on PATH: no bytecode (the page compiles the sources)")
        return None
    key = hashlib.sha256()
    runtime = [pyodide_dir / f for f in ("pyodide.asm.wasm", "pyodide.asm.mjs")]
    for part in [BYTECODE_SCRIPT, *runtime, lock_file, *wheels, stdlib]:
        key.update(sha256_file(part).encode())
    key.update(json.dumps([PAGE_IMPORTS, PYC_SKIP]).encode())
    cached = CACHE / "bytecode" / f"{key.hexdigest()[:32]}.pyc.zip"
    cached_stdlib = cached.with_name(cached.name.replace(".pyc.zip", ".stdlib-pyc.zip"))
    if not (cached.exists() and cached_stdlib.exists()):
        t0 = time.monotonic()
        cached.parent.mkdir(parents=True, exist_ok=True)
        cfg = {
            "pyodide": str(pyodide_dir),
            "lock": str(lock_file),
            "stdlib": str(stdlib),
            "wheels": [str(w) for w in wheels],
            "pyc_skip": PYC_SKIP,
            "app_imports": PAGE_IMPORTS,
        }
        report = _run_node(cfg, {"pyc_out": cached, "stdlib_pyc_out": cached_stdlib})
        if report is None:
            return None
        for failure in report["failed"]:
            log(f"warning: bytecode: not imported at build time: {failure}")
        # every wiggum change makes another: keep the cache to the latest few
        _prune(cached.parent.glob("*.stdlib-pyc.zip"), keep=cached_stdlib.name, previous=3)
        others = (p for p in cached.parent.glob("*.pyc.zip") if "stdlib-pyc" not in p.name)
        _prune(others, keep=cached.name, previous=3)
        log(
            f"bytecode: wheels {report['pyc'] / 1e6:.1f} MB, standard library "
            f"{report['stdlibPyc'] / 1e6:.1f} MB; in {time.monotonic() - t0:.1f}s"
        )
    return cached, cached_stdlib


def _run_node(cfg: dict, outputs: dict[str, Path]) -> dict | None:
    """Run scripts/compile_bytecode.mjs with ``cfg`` and ``outputs`` (config key
    -> where the file it writes goes, moved there only when all were written);
    its report, or None (logged) when Node failed."""
    import subprocess
    import tempfile

    node = shutil.which("node")
    with tempfile.TemporaryDirectory(prefix="wiggum-bytecode-") as tmp:
        parts = {key: Path(tmp) / dest.name for key, dest in outputs.items()}
        path = Path(tmp) / "config.json"
        path.write_text(json.dumps({**cfg, **{k: str(p) for k, p in parts.items()}}))
        try:
            run = subprocess.run(
                [node or "node", str(BYTECODE_SCRIPT), str(path)],
                capture_output=True,
                text=True,
                timeout=300,
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            log(f"warning: no bytecode ({exc}); the page compiles the sources")
            return None
        if run.returncode != 0 or not all(p.exists() for p in parts.values()):
            tail = (run.stderr or run.stdout).strip().splitlines()[-3:]
            log(f"warning: no bytecode (node: {' | '.join(tail)[:400]})")
            return None
        for key, dest in outputs.items():
            os.replace(parts[key], dest)
        return json.loads(run.stdout.strip().splitlines()[-1])


def stdlib_with_bytecode(stdlib: Path, compiled: Path) -> Path:
    """``stdlib`` (a stored zip) with each module that has bytecode in ``compiled``
    (see compile_bytecode) as ``mod.pyc`` in place of ``mod.py``: zipimport takes a
    .pyc without source beside it, and Python compiles none of them in the
    browser.  Kept under .cache, named by both."""
    key = _short(sha256_bytes((sha256_file(stdlib) + sha256_file(compiled)).encode()))
    dest = stdlib.with_name(stdlib.name.replace(".zip", f"-{key}.zip"))
    if not dest.exists():
        with zipfile.ZipFile(compiled) as zf:
            code = {name: zf.read(name) for name in zf.namelist()}
        members = []
        for info, data in _members_in_order(stdlib.read_bytes()):
            pyc = info.filename[:-3] + ".pyc" if info.filename.endswith(".py") else None
            if pyc in code:
                info = zipfile.ZipInfo(pyc, date_time=info.date_time)
                info.external_attr = 0o644 << 16
                data = code[pyc]
            members.append((info, data))
        write_if_changed(dest, _zip_infos(members))
        # each change to what the app imports makes another: keep the latest few
        _prune(stdlib.parent.glob(f"{stdlib.stem}-*.zip"), keep=dest.name, previous=2)
    return dest


def pyc_members(pyc_zip: Path) -> dict[str, bytes]:
    """The wheels' bytecode compile_bytecode compiled, by the source file it stands for
    (``pkg/mod.py`` for ``pkg/__pycache__/mod.cpython-3XY.pyc``)."""
    out = {}
    with zipfile.ZipFile(pyc_zip) as zf:
        for name in zf.namelist():
            folder, _, file = name.rpartition("/__pycache__/")
            stem = file.split(".", 1)[0]
            out[f"{folder}/{stem}.py" if folder else f"{stem}.py"] = zf.read(name)
    return out


def bytecode_wheel(wheel: bytes, compiled: dict[str, bytes]) -> bytes:
    """``wheel`` with each module that has bytecode in ``compiled`` shipped as
    ``mod.pyc`` in place of ``mod.py`` (Python imports a .pyc without source
    beside it); WHEEL_DROP's members left out and METADATA cut to its headers;
    everything else, data, licenses and the rest of dist-info, as it is, RECORD
    rewritten.  Tracebacks keep their file and line (``mod.pyc``), not the
    line's text; the bytecode is unchecked-hash, so nothing compares it with a
    source."""
    entries: list[tuple[str, bytes]] = []
    record = None
    with zipfile.ZipFile(io.BytesIO(wheel)) as zf:
        for info in zf.infolist():
            if info.is_dir() or any(d in info.filename for d in WHEEL_DROP):
                continue
            if info.filename.endswith(".dist-info/RECORD"):
                record = info.filename
                continue
            if info.filename.endswith(".dist-info/METADATA"):
                entries.append((info.filename, metadata_headers(zf.read(info))))
                continue
            code = compiled.get(info.filename)
            if code is not None:
                entries.append((info.filename[:-3] + ".pyc", code))
            else:
                entries.append((info.filename, zf.read(info)))
    if record:
        entries.append(_record(entries, record))
    return zip_entries(entries, compresslevel=9)


def stored_zip(data: bytes) -> bytes:
    """The zip ``data`` with every member stored as it is (no compression): what
    an outer compressor then compresses as one stream."""
    return _zip_infos(_stored_members(data))


def _stored_members(data: bytes) -> list[tuple[zipfile.ZipInfo, bytes]]:
    """The members of the zip ``data``, in order, each to be written stored."""
    members = []
    with zipfile.ZipFile(io.BytesIO(data)) as src:
        for info in src.infolist():
            out = zipfile.ZipInfo(info.filename, date_time=(1980, 1, 1, 0, 0, 0))
            out.external_attr = info.external_attr
            out.compress_type = zipfile.ZIP_STORED
            members.append((out, src.read(info)))
    return members


def xz_copy(wheel: Path) -> Path:
    """``wheel`` + ``.xz``: the wheel stored (see stored_zip) and compressed with
    xz, which the page decodes with Python's own ``lzma`` when the network is slow
    (see BOOT_TEMPLATE): about half a wheel's bytes, at ~20 ms of CPU per MB.
    Its folder is named by the wheel's hash, so one made before is reused."""
    import lzma

    dest = wheel.with_name(wheel.name + ".xz")
    if not dest.exists():
        packed = lzma.compress(stored_zip(wheel.read_bytes()), preset=9 | lzma.PRESET_EXTREME)
        write_if_changed(dest, packed)
    return dest


def stdlib_top(member: str) -> str:
    """The top-level module a member of a standard library zip belongs to."""
    return member.split("/", 1)[0].removesuffix(".py")


def stdlib_split(stdlib: Path, later: list[str]) -> tuple[Path, Path]:
    """Pyodide's standard library zip as two zips with their members stored (so
    that gzip compresses each as one stream; kept under .cache): all but
    ``later``'s top-level modules, which the page's Python gets as
    ``/lib/python3XY.zip`` (compile_bytecode compiles from it, by member name),
    and ``later``'s, which the page loads once the app is up
    (wiggum/web/stdlib_later.py).  Nothing depends on where a member starts."""
    key = _short(sha256_bytes(sha256_file(stdlib).encode() + json.dumps(sorted(later)).encode()))
    first = CACHE / "stdlib" / f"python_stdlib-{key}.zip"
    rest = CACHE / "stdlib" / f"python_stdlib_later-{key}.zip"
    if not (first.exists() and rest.exists()):
        first.parent.mkdir(parents=True, exist_ok=True)
        members = _stored_members(stdlib.read_bytes())
        for dest, keep in ((first, False), (rest, True)):
            picked = [(i, d) for i, d in members if (stdlib_top(i.filename) in later) == keep]
            write_if_changed(dest, _zip_infos(picked))
    return first, rest


def _members_in_order(data: bytes) -> list[tuple[zipfile.ZipInfo, bytes]]:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return [(info, zf.read(info)) for info in zf.infolist()]


def _zip_infos(members: list[tuple[zipfile.ZipInfo, bytes]]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        for info, data in members:
            zf.writestr(info, data)
    return buf.getvalue()


def stdlib_gzip(out: Path, stored: Path) -> Path:
    """``out/<stored's name>.gz``: ``stored`` (see stdlib_split) gzipped as one
    stream.  The page gets the first in place of ``python_stdlib.zip`` and unzips
    it with the browser's own DecompressionStream (1.7 MB to download instead of
    2.5), the later one with Python's gzip once the app is up."""
    dest = out / f"{stored.name}.gz"
    if not dest.exists():
        import gzip

        write_if_changed(dest, gzip.compress(stored.read_bytes(), 9, mtime=0))
    return dest


def _closure(names: list[str], packages: dict) -> list[str]:
    """``names`` and everything they depend on, by the Pyodide lock entries."""
    out: list[str] = []
    todo = list(names)
    while todo:
        n = todo.pop()
        if n in out or n not in packages:
            continue
        out.append(n)
        todo += packages[n]["depends"]
    return sorted(out)


def _prune(paths, keep: str, previous: int = 1) -> None:
    items = sorted(
        (p for p in paths if p.name != keep), key=lambda p: p.stat().st_mtime, reverse=True
    )
    for p in items[previous:]:
        shutil.rmtree(p) if p.is_dir() else p.unlink()


# ---------------------------------------------------------------------------
# Installable and offline: the web app manifest (manifest.webmanifest, committed)
# and the service worker (sw.js, written from sw.template.js for each build, beside
# index.html so that its scope is the site's folder, a Pages subpath included).
# ---------------------------------------------------------------------------
SW_TEMPLATE = ROOT / "sw.template.js"
WEBMANIFEST = ROOT / "manifest.webmanifest"


def precache_files(site: Path, manifest: dict) -> list[str]:
    """The files of this build a visit may load, relative to the site's root: the
    page, its static files, and of static/vendor only what the current manifest
    names (the previous build's files, kept for a page still booting, are not)."""
    vendor = site / "static" / "vendor"
    names = {"index.html", WEBMANIFEST.name, "static/vendor/manifest.json"}
    for f in (site / "static").rglob("*"):
        rel = f.relative_to(site).as_posix()
        if f.is_file() and not rel.startswith("static/vendor/") and not f.name.endswith(".tmp"):
            names.add(rel)
    for key in ("boot_module", "lock_file", "stdlib"):
        if manifest.get(key):
            names.add(manifest[key])
    names.add(manifest["wiggum"]["wheel"])
    pyodide_lock = json.loads((site / manifest["lock_file"]).read_text(encoding="utf-8"))
    for package in pyodide_lock["packages"].values():
        names.add(f"static/vendor/{package['file_name']}")
    folders = [manifest["pyodide"]["dir"], str(Path(manifest["pyscript"]["core"]).parent), ESM_DIR]
    for folder in folders:
        root = site / folder if folder != ESM_DIR else vendor / ESM_DIR
        for f in root.rglob("*"):
            if f.is_file() and not f.name.endswith(".tmp"):
                names.add(f.relative_to(site).as_posix())
    if manifest.get("stdlib"):  # the page never asks for the runtime's own zip
        names.discard(manifest["pyodide"]["dir"] + "python_stdlib.zip")
    if manifest.get("stdlib_later"):
        names.add(manifest["stdlib_later"]["url"])
    return sorted(names)


def write_service_worker(site: Path, manifest: dict) -> Path:
    """Write ``site/sw.js`` for this build.  Its build id hashes the names of the
    files and the content of those without a hash in their name (index.html,
    app.css...), so any change a visitor would see makes a new worker."""
    files = precache_files(site, manifest)
    digest = hashlib.sha256()
    for rel in files:
        digest.update(rel.encode() + b"\0")
        if not IMMUTABLE.search("/" + rel):
            digest.update(sha256_file(site / rel).encode())
    build = _short(digest.hexdigest())
    src = SW_TEMPLATE.read_text(encoding="utf-8")
    src = src.replace('"__BUILD__"', json.dumps(build)).replace(
        "__FILES__", json.dumps(files, indent=1)
    )
    out = site / "sw.js"
    if write_if_changed(out, src.encode("utf-8")):
        log(f"sw.js: build {build}, {len(files)} files precached")
    return out


# ---------------------------------------------------------------------------
# serve
# ---------------------------------------------------------------------------
MIME = {
    ".html": "text/html; charset=utf-8",
    ".js": "text/javascript; charset=utf-8",
    ".mjs": "text/javascript; charset=utf-8",
    ".css": "text/css; charset=utf-8",
    ".json": "application/json",
    ".map": "application/json",
    ".wasm": "application/wasm",
    ".whl": "application/zip",
    ".zip": "application/zip",
    ".py": "text/x-python; charset=utf-8",
    ".toml": "text/plain; charset=utf-8",
    ".txt": "text/plain; charset=utf-8",
    ".svg": "image/svg+xml",
    ".png": "image/png",
    ".ico": "image/x-icon",
    ".webmanifest": "application/manifest+json",
}
# Immutable under their URL (name carries a version or a content hash).
IMMUTABLE = re.compile(
    r"/static/vendor/(pyodide-[^/]+/|pyscript-[^/]+/|wheels/|app/[0-9a-f]+/|boot-[0-9a-f]+\.mjs$"
    r"|lock-[0-9a-f]+\.json$|pyc-[0-9a-f]+\.zip$"
    r"|python_stdlib(_later)?(-[0-9a-f]+)+\.zip\.gz$)"
)
SERVED_TOP = (
    "/index.html",
    "/pyscript.toml",
    "/static/",
    "/favicon.ico",
    "/.nojekyll",
    "/sw.js",
    "/manifest.webmanifest",
)


class SiteHandler(http.server.SimpleHTTPRequestHandler):
    """Serves the site (index.html, pyscript.toml, static/) and nothing else of the repo."""

    extensions_map: ClassVar[dict[str, str]] = {
        **http.server.SimpleHTTPRequestHandler.extensions_map,
        **MIME,
        "": "application/octet-stream",
    }
    quiet = False
    restrict = True  # only the site's files, never the rest of the repository

    def _allowed(self) -> bool:
        if not self.restrict:
            return True
        path = urllib.parse.urlsplit(self.path).path
        return path == "/" or path.startswith(SERVED_TOP)

    def do_GET(self):
        if not self._allowed():
            self.send_error(404)
            return
        super().do_GET()

    def do_HEAD(self):
        if not self._allowed():
            self.send_error(404)
            return
        super().do_HEAD()

    def end_headers(self):
        path = urllib.parse.urlsplit(self.path).path
        if IMMUTABLE.search(path):
            self.send_header("Cache-Control", "public, max-age=31536000, immutable")
        else:
            self.send_header("Cache-Control", "no-cache")
        super().end_headers()

    def guess_type(self, path):
        return MIME.get(Path(str(path)).suffix.lower()) or super().guess_type(path)

    def log_message(self, format, *args):
        if not self.quiet:
            super().log_message(format, *args)


def make_server(
    host: str = "127.0.0.1",
    port: int = 8000,
    root: Path = ROOT,
    quiet: bool = False,
    restrict: bool | None = None,
) -> http.server.ThreadingHTTPServer:
    """A ThreadingHTTPServer for the site in `root` (port 0 = any free port).
    Serving the repository itself (the default) exposes only index.html,
    pyscript.toml and static/; any other root (a dist) is served whole."""
    if restrict is None:
        restrict = Path(root).resolve() == ROOT
    attrs = {"quiet": quiet, "restrict": restrict}
    handler = functools.partial(type("H", (SiteHandler,), attrs), directory=str(root))
    server = http.server.ThreadingHTTPServer((host, port), handler)
    server.daemon_threads = True
    return server


def cmd_serve(args) -> None:
    cmd_build(args)
    root = Path(args.root).resolve() if args.root else ROOT
    server = make_server(args.host, args.port, root)
    host, port = server.server_address[:2]
    log(f"serving {root} at http://{host}:{port}/  (Ctrl-C to stop)")
    with contextlib.suppress(KeyboardInterrupt):
        server.serve_forever()
    server.server_close()


# ---------------------------------------------------------------------------
# dist
# ---------------------------------------------------------------------------
DIST_MARKER = ".wiggum-dist"


def cmd_dist(args) -> None:
    cmd_build(argparse.Namespace(update_lock=getattr(args, "update_lock", False)))
    lock = load_lock()
    out = Path(args.dir).resolve()
    if out == ROOT or ROOT.is_relative_to(out):
        raise SystemExit("[build] refusing to write dist over the repository")
    if out.exists() and any(out.iterdir()):
        if not (out / DIST_MARKER).exists():
            raise SystemExit(f"[build] {out} is not empty and was not made by `build.py dist`")
        shutil.rmtree(out)
    out.mkdir(parents=True, exist_ok=True)
    shutil.copy2(ROOT / "index.html", out / "index.html")
    shutil.copy2(PYSCRIPT_TOML, out / "pyscript.toml")
    pyodide_dir = f"{NPM_DIRNAME['pyodide']}-{lock['npm']['pyodide']['version']}"
    pyscript_dir = f"{NPM_DIRNAME['@pyscript/core']}-{lock['npm']['@pyscript/core']['version']}"

    def ignore(directory: str, names: list[str]) -> set[str]:
        if Path(directory) == VENDOR:  # generated app files are re-made below
            keep = (pyodide_dir, pyscript_dir, axe_dir(lock), "wheels", ESM_DIR)
            return {n for n in names if n not in keep}
        return {n for n in names if n.endswith(".tmp")}

    shutil.copytree(ROOT / "static", out / "static", ignore=ignore)
    (out / "static" / "vendor" / "app").mkdir(parents=True, exist_ok=True)
    src = Path(getattr(args, "wiggum_src", None) or WIGGUM_SRC).resolve()
    manifest = generate_app(out / "static" / "vendor", lock, src)
    # PyPI's wheels that the page gets as bytecode wheels (app/) are not published
    used = json.loads((out / manifest["lock_file"]).read_text(encoding="utf-8"))["packages"]
    for whl in (out / "static" / "vendor" / "wheels").glob("*.whl"):
        if f"wheels/{whl.name}" not in {p["file_name"] for p in used.values()}:
            whl.unlink()
    shutil.copy2(WEBMANIFEST, out / WEBMANIFEST.name)
    write_service_worker(out, manifest)
    (out / ".nojekyll").write_text("")
    (out / DIST_MARKER).write_text(manifest["build"] + "\n")
    total = sum(f.stat().st_size for f in out.rglob("*") if f.is_file())
    log(f"dist written to {out} ({total / 1e6:.1f} MB, wiggum@{manifest['wiggum']['hash']})")


# ---------------------------------------------------------------------------
# registry (delegated)
# ---------------------------------------------------------------------------
def cmd_registry(argv: list[str]) -> int:
    script = ROOT / "scripts" / "gen_registry.py"
    if not script.exists():
        raise SystemExit("[build] scripts/gen_registry.py does not exist yet")
    spec = importlib.util.spec_from_file_location("gen_registry", script)
    mod = importlib.util.module_from_spec(spec)
    sys.modules["gen_registry"] = mod
    spec.loader.exec_module(mod)
    return mod.main(argv) or 0


# ---------------------------------------------------------------------------
def main(argv: list[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["registry"]:
        return cmd_registry(argv[1:])
    update_lock = "--update-lock" in argv
    argv = [a for a in argv if a != "--update-lock"]
    p = argparse.ArgumentParser(prog="build.py", description=__doc__.split("\n")[0])
    p.add_argument(
        "--update-lock",
        action="store_true",
        help="re-resolve SPECS and rewrite build_lock.json before building",
    )
    sub = p.add_subparsers(dest="cmd")
    sub.add_parser("build", help="fetch, verify and generate static/vendor (default)")
    sub.add_parser("lock", help="re-resolve pinned versions and rewrite build_lock.json")
    s = sub.add_parser("serve", help="build, then serve the site on localhost")
    s.add_argument("--port", type=int, default=8000)
    s.add_argument("--host", default="127.0.0.1")
    s.add_argument("--root", default=None, help="serve this directory (e.g. a dist) instead")
    d = sub.add_parser("dist", help="write a self-contained static site to DIR")
    d.add_argument("dir")
    d.add_argument(
        "--wiggum-src",
        default=None,
        help="pack this folder as the wiggum package (tests use a scratch copy)",
    )
    sub.add_parser("registry", help="run scripts/gen_registry.py (args are passed through)")
    args = p.parse_args(argv)
    args.update_lock = update_lock
    cmd = args.cmd or "build"
    if cmd == "lock":
        cmd_lock(args)
    elif cmd == "build":
        cmd_build(args)
    elif cmd == "serve":
        cmd_serve(args)
    elif cmd == "dist":
        cmd_dist(args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
