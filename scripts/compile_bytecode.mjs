// Bytecode of what the page imports, compiled by the vendored Pyodide in Node
// (`python build.py` runs it; without Node the page gets the sources).
//
//   node scripts/compile_bytecode.mjs CONFIG.json
//
// CONFIG: { pyodide: dir of the vendored pyodide.mjs, lock: Pyodide lock file,
//           stdlib: the standard library zip the page starts with,
//           wheels: [wheels to unpack], pyc_skip: [path prefixes],
//           app_imports: [modules], pyc_out: file, stdlib_pyc_out: file }
//
// Unpacks the wheels into site-packages and writes two zips of unchecked
// hash-based .pyc files: `pyc_out`, every module of the wheels (but those under
// pyc_skip), from which build.py makes the wheels the page installs with
// bytecode in place of source; and `stdlib_pyc_out`, the standard library
// modules that importing `app_imports` loads, named as in the standard library's
// zip (`argparse.pyc`), which build.py puts there in place of their source.  So
// the page compiles no Python at start.  Compiled by the very Python the page
// runs, so its bytecode is that Python's (the magic number, the opcodes).
// Prints one JSON line: {"pyc", "stdlibPyc", "failed"} (bytes, bytes, the
// imports that failed: their standard library modules stay source).
//
// The page's globals Node lacks are stubbed (empty objects), so that modules
// which keep `js.document` & co. at import time import here too.
import { readFileSync, writeFileSync } from "node:fs";
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
  // the standard library's zip as the page gets it (build.py's stdlib_split):
  // its modules' names in the bytecode zip are their names in this one
  stdLibURL: cfg.stdlib,
});
const site = py.runPython("__import__('site').getsitepackages()[0]");
for (const wheel of cfg.wheels) {
  py.unpackArchive(new Uint8Array(readFileSync(wheel)), "zip", { extractDir: site });
}
py.globals.set("_wiggum_site", site);
for (const [name, value] of [["_wiggum_skip", cfg.pyc_skip || []], ["_wiggum_apps", cfg.app_imports || []]]) {
  const proxy = py.toPy(value);
  py.globals.set(name, proxy);
  proxy.destroy();
}

// The standard library modules the whole app imports, compiled from the zip
// Python started with, as `python -OO` would (no docstrings, no asserts: about
// a tenth of the bytes; the standard library supports it, and nothing here reads
// its docstrings).  First, so that only what the app (and this code) imports is
// in sys.modules.
const result = py.runPython(`
import importlib, importlib.util, io, sys, zipfile, zipimport
from importlib._bootstrap_external import _code_to_hash_pyc
importlib.invalidate_caches()
_failed = []
for _name in _wiggum_apps:
    try:
        importlib.import_module(_name)
    except Exception as exc:  # reported by build.py; its modules stay source
        _failed.append(f"{_name}: {exc!r}")
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
_failed
`);
const failed = result.toJs();
result.destroy();
const stdlibPyc = py.FS.readFile("/tmp/wiggum-stdlib-pyc.zip");
writeFileSync(cfg.stdlib_pyc_out, stdlibPyc);

// Then every module of the wheels (those the app imports or not: a module
// loaded on first use skips compiling too).
py.runPython(`
import io, os, py_compile, zipfile
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
const pyc = py.FS.readFile("/tmp/wiggum-pyc.zip");
writeFileSync(cfg.pyc_out, pyc);
console.log(JSON.stringify({ pyc: pyc.length, stdlibPyc: stdlibPyc.length, failed }));
