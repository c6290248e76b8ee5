"""build.py's smaller first download: each wheel the page installs at start also
in xz (its members stored, the whole compressed as one stream), and Pyodide's
standard library gzipped as one stream.  The page decodes them back (Python's
lzma, the browser's DecompressionStream); what it gets must be the same files,
byte for byte, and a zip that Python's zipimport reads (the e2e boot tests load
the app from them)."""

from __future__ import annotations

import gzip
import io
import lzma
import zipfile
import zipimport

from tests.test_csp import build  # build.py, loaded once as a module

WHEEL = {
    "pkg/__init__.pyc": b"\x00INIT" * 50,
    "pkg/mod.py": b"x = 1\n" * 200,
    "pkg/_native.cpython-314-wasm32-emscripten.so": bytes(range(256)) * 40,
    "pkg-1.0.dist-info/METADATA": b"Name: pkg\nVersion: 1.0\n",
}


def _members(data: bytes) -> dict[str, bytes]:
    with zipfile.ZipFile(io.BytesIO(data)) as zf:
        return {i.filename: zf.read(i) for i in zf.infolist()}


def test_a_stored_zip_holds_the_same_files_uncompressed():
    wheel = build.zip_entries(list(WHEEL.items()), compresslevel=9)
    stored = build.stored_zip(wheel)
    assert _members(stored) == WHEEL
    with zipfile.ZipFile(io.BytesIO(stored)) as zf:
        assert {i.compress_type for i in zf.infolist()} == {zipfile.ZIP_STORED}
    assert build.stored_zip(wheel) == stored  # the same bytes every build


def test_the_xz_copy_decodes_to_the_wheel_s_files_and_is_smaller(tmp_path):
    path = tmp_path / "pkg-1.0-py3-none-any.whl"
    path.write_bytes(build.zip_entries(list(WHEEL.items()), compresslevel=9))
    packed = build.xz_copy(path)
    assert packed.name == "pkg-1.0-py3-none-any.whl.xz"
    assert _members(lzma.decompress(packed.read_bytes())) == WHEEL
    assert packed.stat().st_size < path.stat().st_size
    # one made before (its folder is named by the wheel's hash) is kept as it is
    packed.write_bytes(b"kept")
    assert build.xz_copy(path).read_bytes() == b"kept"


STDLIB = {
    "greet.py": b"def hello():\n    return 'hi'\n",
    "pkg/__init__.py": b"",
    "pkg/sub.py": b"z = 3\n",
    "unittest/__init__.py": b"",
    "unittest/case.py": b"class TestCase: pass\n",
    "pdb.py": b"def set_trace(): pass\n",
}


def _run_from_zip(zip_path, module: str) -> dict:
    namespace: dict = {}
    exec(zipimport.zipimporter(str(zip_path)).get_code(module), namespace)
    return namespace


def test_the_standard_library_splits_in_two_gzipped_zips_that_import(tmp_path, monkeypatch):
    monkeypatch.setattr(build, "CACHE", tmp_path / "cache")
    original = tmp_path / "python_stdlib.zip"
    original.write_bytes(build.zip_entries(list(STDLIB.items()), 9))
    first, later = build.stdlib_split(original, ["unittest", "pdb"])
    assert _members(first.read_bytes()) == {
        k: v for k, v in STDLIB.items() if not k.startswith(("unittest/", "pdb."))
    }
    assert _members(later.read_bytes()) == {
        k: v for k, v in STDLIB.items() if k.startswith(("unittest/", "pdb."))
    }
    out = tmp_path / "vendor"
    out.mkdir()
    gz = build.stdlib_gzip(out, first)
    assert gz.parent == out and gz.name == first.name + ".gz"
    assert gz.name.startswith("python_stdlib-") and gz.name.endswith(".zip.gz")
    unzipped = gzip.decompress(gz.read_bytes())
    assert unzipped == first.read_bytes()
    # what Pyodide does with it: /lib/python3XY.zip on sys.path, read by zipimport
    page_zip = tmp_path / "python314.zip"
    page_zip.write_bytes(unzipped)
    assert _run_from_zip(page_zip, "greet")["hello"]() == "hi"
    later_zip = tmp_path / "later.zip"
    later_zip.write_bytes(gzip.decompress(build.stdlib_gzip(out, later).read_bytes()))
    assert "set_trace" in _run_from_zip(later_zip, "pdb")
    # another list, another pair (the key holds the list)
    assert build.stdlib_split(original, ["pdb"])[0] != first


def test_the_standard_library_takes_bytecode_in_place_of_source(tmp_path, monkeypatch):
    """build.py's stdlib_with_bytecode: each module compile_bytecode compiled is
    ``mod.pyc`` in place of ``mod.py`` (zipimport reads it without source), the
    others stay as they were, in the same order."""
    import importlib.util
    import marshal
    from importlib._bootstrap_external import _code_to_hash_pyc

    monkeypatch.setattr(build, "CACHE", tmp_path / "cache")
    original = tmp_path / "python_stdlib.zip"
    original.write_bytes(build.zip_entries(list(STDLIB.items()), 9))
    first, _ = build.stdlib_split(original, ["unittest", "pdb"])
    source = STDLIB["greet.py"]
    code = compile(source, "/lib/python314.zip/greet.py", "exec", dont_inherit=True)
    pyc = bytes(_code_to_hash_pyc(code, importlib.util.source_hash(source), False))
    compiled = tmp_path / "stdlib-pyc.zip"
    compiled.write_bytes(build.zip_entries([("greet.pyc", pyc)], 6))
    merged = build.stdlib_with_bytecode(first, compiled)
    names = list(_members(merged.read_bytes()))
    assert names == ["greet.pyc", "pkg/__init__.py", "pkg/sub.py"]
    assert _members(merged.read_bytes())["greet.pyc"] == pyc
    assert marshal.loads(pyc[16:]).co_filename == "/lib/python314.zip/greet.py"
    # zipimport takes the bytecode, with no source beside it
    assert _run_from_zip(merged, "greet")["hello"]() == "hi"
    assert zipimport.zipimporter(str(merged)).get_source("greet") is None
