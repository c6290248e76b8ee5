"""build.py's bytecode wheels: the wheels the page installs at start carry the
bytecode compile_bytecode compiled in place of their source (no byte sent twice),
and whatever has no bytecode (data, dist-info, modules left out) stays as it was."""

from __future__ import annotations

import base64
import hashlib
import io
import zipfile

from tests.test_csp import build  # build.py, loaded once as a module


def _wheel(files: dict[str, bytes]) -> bytes:
    return build.zip_entries(list(files.items()), compresslevel=6)


def _pyc_zip(tmp_path, files: dict[str, bytes]):
    path = tmp_path / "pyc.zip"
    path.write_bytes(_wheel(files))
    return path


WHEEL = {
    "pkg/__init__.py": b"from .mod import x\n",
    "pkg/mod.py": b"x = 1\n",
    "pkg/legacy/old.py": b"y = 2\n",
    "pkg/data/models.json": b'{"a": 1}',
    "pkg-1.0.dist-info/METADATA": b"Name: pkg\nVersion: 1.0\n",
    "pkg-1.0.dist-info/RECORD": b"stale,,\n",
}


def test_modules_ship_as_bytecode_in_place_of_their_source(tmp_path):
    pyc = _pyc_zip(
        tmp_path,
        {
            "pkg/__pycache__/__init__.cpython-314.pyc": b"INIT-CODE",
            "pkg/__pycache__/mod.cpython-314.pyc": b"MOD-CODE",
        },
    )
    out = zipfile.ZipFile(io.BytesIO(build.bytecode_wheel(_wheel(WHEEL), build.pyc_members(pyc))))
    names = set(out.namelist())
    assert out.read("pkg/__init__.pyc") == b"INIT-CODE"
    assert out.read("pkg/mod.pyc") == b"MOD-CODE"
    assert not {"pkg/__init__.py", "pkg/mod.py"} & names
    # no bytecode for it (pyscript.toml never imports it): its source stays
    assert out.read("pkg/legacy/old.py") == b"y = 2\n"
    assert out.read("pkg/data/models.json") == b'{"a": 1}'
    assert out.read("pkg-1.0.dist-info/METADATA") == WHEEL["pkg-1.0.dist-info/METADATA"]


def test_the_record_lists_what_the_wheel_holds_now(tmp_path):
    pyc = _pyc_zip(tmp_path, {"pkg/__pycache__/mod.cpython-314.pyc": b"MOD-CODE"})
    out = zipfile.ZipFile(io.BytesIO(build.bytecode_wheel(_wheel(WHEEL), build.pyc_members(pyc))))
    rows = [line.split(",") for line in out.read("pkg-1.0.dist-info/RECORD").decode().splitlines()]
    listed = {name: (digest, size) for name, digest, size in rows}
    assert set(listed) == set(out.namelist())
    assert listed["pkg-1.0.dist-info/RECORD"] == ("", "")
    digest = base64.urlsafe_b64encode(hashlib.sha256(b"MOD-CODE").digest()).rstrip(b"=").decode()
    assert listed["pkg/mod.pyc"] == (f"sha256={digest}", "8")


def test_the_same_input_gives_the_same_bytes(tmp_path):
    """Content-hashed URLs: an unchanged build must not make a new wheel."""
    pyc = build.pyc_members(_pyc_zip(tmp_path, {"pkg/__pycache__/mod.cpython-314.pyc": b"M"}))
    assert build.bytecode_wheel(_wheel(WHEEL), pyc) == build.bytecode_wheel(_wheel(WHEEL), pyc)


def test_what_nothing_reads_at_run_time_is_left_out(tmp_path):
    """WHEEL_DROP (pydantic 1's API, the mypy plugin, bills of materials) is not
    shipped, METADATA keeps its headers (what importlib.metadata reads) but not
    the long description, and the licenses stay."""
    wheel = {
        "pydantic/main.py": b"x = 1\n",
        "pydantic/v1/main.py": b"old = 1\n",
        "pydantic/mypy.py": b"plugin = 1\n",
        "pydantic-2.dist-info/METADATA": b"Metadata-Version: 2.4\nName: pydantic\n"
        b"Version: 2\n\n# Pydantic\n\nA long README.\n",
        "pydantic-2.dist-info/sboms/pydantic.cyclonedx.json": b"{}",
        "pydantic-2.dist-info/licenses/LICENSE": b"MIT",
        "pydantic-2.dist-info/RECORD": b"",
    }
    out = zipfile.ZipFile(io.BytesIO(build.bytecode_wheel(_wheel(wheel), {})))
    assert set(out.namelist()) == {
        "pydantic/main.py",
        "pydantic-2.dist-info/METADATA",
        "pydantic-2.dist-info/licenses/LICENSE",
        "pydantic-2.dist-info/RECORD",
    }
    assert out.read("pydantic-2.dist-info/METADATA") == (
        b"Metadata-Version: 2.4\nName: pydantic\nVersion: 2\n"
    )
    import email.parser

    headers = email.parser.BytesHeaderParser().parsebytes(out.read("pydantic-2.dist-info/METADATA"))
    assert (headers["Name"], headers["Version"]) == ("pydantic", "2")
