// Pyodide memory snapshot of Wiggum's start-up, made by `python build.py` in Node.
//
//   node scripts/make_snapshot.mjs CONFIG.json
//
// CONFIG: { pyodide: dir of the vendored pyodide.mjs, lock: Pyodide lock file,
//           wheels: [pure-Python wheels to unpack], imports: [modules], out: file,
//           pyc_out: file, pyc_skip: [path prefixes], binary_wheels: [compiled wheels],
//           stdlib: the standard library zip to start with (optional),
//           stdlib_pyc_out: file (optional), app_imports: [modules] }
//
// Boots the vendored Pyodide with `_makeSnapshot`, unpacks the wheels straight
// into site-packages (not through loadPackage(): a non-empty loadedPackages
// cannot be snapshotted, and the page installs the same wheels again anyway,
// because the file system is not part of the snapshot), imports the modules,
// and writes `makeMemorySnapshot()` gzip-compressed to `out`.  The page then
// starts from that memory (`_loadSnapshot`) instead of initialising Python and
// importing all this again.  Prints one JSON line: {"bytes", "gzip", "failed"}.
//
// Limits (Pyodide 314): no compiled extension (.so) may be loaded before the
// snapshot (the page's fresh wasm table would not hold its functions), so
// pydantic_core and whatever imports it load after the restore; and no live
// JavaScript object may be referenced except by a path from globalThis (the
// stubs below stand for the page's globals Node does not have; modules that
// keep `js.document` at import keep the path "document", which the page
// resolves to its own document).  What Python computed at start-up from its
// machine is the build's too: the boot module re-seeds `random` and sets the
// time zone constants and LANG again after a restore; the str hash seed stays
// the build's on every visit (its randomness guards servers against crafted
// hash collisions; a page needs none of it).
import { readFileSync, writeFileSync } from "node:fs";
import { gzipSync } from "node:zlib";
import { pathToFileURL } from "node:url";

const cfg = JSON.parse(readFileSync(process.argv[2], "utf8"));
const { loadPyodide } = await import(pathToFileURL(cfg.pyodide + "/pyodide.mjs").href);
const PAGE_GLOBALS = ["document", "window", "location", "navigator", "localStorage",
  "sessionStorage", "indexedDB", "wiggumBoot"];
const jsglobals = Object.create(globalThis);
for (const name of PAGE_GLOBALS) if (!(name in globalThis)) jsglobals[name] = {};

const quiet = () => {};
const py = await loadPyodide({
  indexURL: cfg.pyodide + "/",
  lockFileURL: cfg.lock,
  jsglobals,
  stdout: quiet,
  stderr: quiet,
  // Bytecode without column positions (-X no_debug_ranges): about a fifth less
  // for the page to download, and tracebacks keep their file and line (the page
  // has no source to underline anyway).
  env: { PYTHONNODEBUGRANGES: "1" },
  // the standard library's zip as the page gets it (build.py's stdlib_stored):
  // zipimport keeps where each member starts, and the snapshot keeps zipimport
  ...(cfg.stdlib ? { stdLibURL: cfg.stdlib } : {}),
  _makeSnapshot: Boolean(cfg.out),
});
const site = py.runPython("__import__('site').getsitepackages()[0]");
for (const wheel of cfg.wheels) {
  py.unpackArchive(new Uint8Array(readFileSync(wheel)), "zip", { extractDir: site });
}
const names = py.toPy(cfg.imports);
py.globals.set("_wiggum_imports", names);
names.destroy();
const result = py.runPython(`
import importlib, gc
importlib.invalidate_caches()
_failed = []
for _name in _wiggum_imports:
    try:
        importlib.import_module(_name)
    except Exception as exc:  # reported by build.py, left to the page to import
        _failed.append(f"{_name}: {exc!r}")
del _name, _wiggum_imports
gc.collect()
_failed
`);
const failed = result.toJs();
result.destroy();
py.runPython("del _failed");
// No snapshot when cfg.out is null: a run for the bytecode alone (below).
const snapshot = cfg.out ? py.makeMemorySnapshot() : new Uint8Array();
const gz = gzipSync(snapshot, { level: 9 });
if (cfg.out) writeFileSync(cfg.out, gz);

// Then (the snapshot is taken) the bytecode of all the wheels' modules (but
// those under cfg.pyc_skip), as unchecked hash-based .pyc files in one zip, from
// which build.py makes the wheels the page installs: bytecode in place of
// source, so imports skip compiling.  Those imported into the snapshot too: the
// page starts without it on a cold cache and a slow network.
let pyc = 0;
// now the compiled wheels too (only their .py files matter for the bytecode):
// unpacked before the snapshot, an optional import could have loaded their .so
// into it
for (const wheel of cfg.binary_wheels || []) {
  py.unpackArchive(new Uint8Array(readFileSync(wheel)), "zip", { extractDir: site });
}
if (cfg.pyc_out) {
  py.globals.set("_wiggum_site", site);
  const skip = py.toPy(cfg.pyc_skip || []);
  py.globals.set("_wiggum_skip", skip);
  skip.destroy();
  py.runPython(`
import io, os, py_compile, sys, zipfile
_buf = io.BytesIO()
with zipfile.ZipFile(_buf, "w", zipfile.ZIP_DEFLATED) as _zf:
    for _dir, _subdirs, _files in sorted(os.walk(_wiggum_site)):
        _subdirs[:] = sorted(d for d in _subdirs if d != "__pycache__" and not d.endswith(".dist-info"))
        for _f in sorted(_files):
            _src = os.path.join(_dir, _f)
            _rel = os.path.relpath(_src, _wiggum_site)
            if _f.endswith(".py") and not _rel.startswith(tuple(_wiggum_skip)):
                _out = py_compile.compile(
                    _src, doraise=True, invalidation_mode=py_compile.PycInvalidationMode.UNCHECKED_HASH
                )
                _info = zipfile.ZipInfo(os.path.relpath(_out, _wiggum_site), (1980, 1, 1, 0, 0, 0))
                _info.compress_type = zipfile.ZIP_DEFLATED
                with open(_out, "rb") as _fh:
                    _zf.writestr(_info, _fh.read())
open("/tmp/wiggum-pyc.zip", "wb").write(_buf.getvalue())
`);
  const data = py.FS.readFile("/tmp/wiggum-pyc.zip");
  writeFileSync(cfg.pyc_out, data);
  pyc = data.length;
}

// And the standard library modules the whole app imports (cfg.app_imports, after
// the wheels: pydantic_core's .so may load now), compiled from the zip Python
// started with, as unchecked hash-based .pyc files named as in that zip
// (`argparse.pyc`, `email/__init__.pyc`): build.py puts them in place of their
// source, so the page compiles none of them either.  Compiled as `python -OO`
// would (no docstrings, no asserts: about a tenth of the bytes; the standard
// library supports it, and nothing here reads its docstrings).
let stdlibPyc = 0;
if (cfg.stdlib_pyc_out) {
  const apps = py.toPy(cfg.app_imports || []);
  py.globals.set("_wiggum_apps", apps);
  apps.destroy();
  py.runPython(`
import importlib, importlib.util, io, sys, zipfile, zipimport
from importlib._bootstrap_external import _code_to_hash_pyc
for _name in _wiggum_apps:
    try:
        importlib.import_module(_name)
    except Exception:  # then its standard library modules stay source
        pass
_zip = next(p for p in sys.path if p.endswith(".zip")) + "/"
_buf = io.BytesIO()
with zipfile.ZipFile(_buf, "w", zipfile.ZIP_DEFLATED) as _zf:
    for _name, _mod in sorted(sys.modules.items()):
        _file = getattr(_mod, "__file__", None) or ""
        # (frozen modules carry a file name in the zip too; they were never read from it)
        _frozen = not isinstance(getattr(_mod, "__loader__", None), zipimport.zipimporter)
        if _frozen or not (_file.startswith(_zip) and _file.endswith(".py")):
            continue
        _src = _mod.__loader__.get_data(_file)
        _code = compile(_src, _file, "exec", dont_inherit=True, optimize=2)
        _data = _code_to_hash_pyc(_code, importlib.util.source_hash(_src), False)
        _info = zipfile.ZipInfo(_file[len(_zip):-3] + ".pyc", (1980, 1, 1, 0, 0, 0))
        _info.compress_type = zipfile.ZIP_DEFLATED
        _zf.writestr(_info, bytes(_data))
open("/tmp/wiggum-stdlib-pyc.zip", "wb").write(_buf.getvalue())
`);
  const data = py.FS.readFile("/tmp/wiggum-stdlib-pyc.zip");
  writeFileSync(cfg.stdlib_pyc_out, data);
  stdlibPyc = data.length;
}
console.log(JSON.stringify({ bytes: snapshot.length, gzip: gz.length, pyc, stdlibPyc, failed }));
