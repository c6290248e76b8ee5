"""What both backends derive the same way (``FileStoreBase``), and the one ``is_binary``."""

from __future__ import annotations

import asyncio

import pytest

from wiggum.fs import FileStoreBase, MemoryFileStore, NotText, is_binary


@pytest.mark.parametrize(
    ("data", "binary"),
    [
        (b"", False),
        (b"<h1>Hi</h1>\n", False),
        ("été".encode(), False),
        (b"a\x00b", True),
        (b"\xff\xfe", True),
        (b"\x89PNG\r\n\x1a\n\x00", True),
        # A NUL past the first 8 KiB is not looked for; the text is still UTF-8.
        (b"a" * 9000 + b"\x00", False),
    ],
)
def test_is_binary(data, binary):
    assert is_binary(data) is binary


class KindOnly(FileStoreBase):
    """A backend with only the primitives: the base gives it the rest."""

    def __init__(self) -> None:
        self.files = {"a/b.txt": b"hi", "img.png": b"\xff"}
        self.asked: list[str] = []

    async def read_bytes(self, path: str) -> bytes:
        return self.files[path]

    async def write_bytes(self, path: str, data: bytes) -> None:
        self.files[path] = data

    async def kind(self, path: str):
        self.asked.append(path)
        if path in self.files:
            return "file"
        return "dir" if not path or any(p.startswith(path + "/") for p in self.files) else None


def test_the_base_derives_text_and_existence_from_the_primitives():
    async def go():
        fs = KindOnly()
        assert await fs.read_text("a/b.txt") == "hi"
        with pytest.raises(NotText):
            await fs.read_text("img.png")
        await fs.write_text("new.txt", "été")
        assert fs.files["new.txt"] == "été".encode()
        with pytest.raises(TypeError):
            await fs.write_text("x.txt", b"bytes")
        assert [await fs.exists(p) for p in ("a", "a/b.txt", "c", "")] == [True, True, False, True]
        assert [await fs.is_dir(p) for p in ("a", "a/b.txt", "c", "")] == [True, False, False, True]
        assert "a" in fs.asked and "./a" not in fs.asked  # asked with the normalized path
        await fs.exists("./a")
        assert fs.asked[-1] == "a"

    asyncio.run(go())


def test_the_memory_store_is_built_on_the_base():
    async def go():
        fs = MemoryFileStore({"a/b.txt": "x"})
        assert isinstance(fs, FileStoreBase)
        assert [await fs.kind(p) for p in ("", "a", "a/b.txt", "nope")] == [
            "dir",
            "dir",
            "file",
            None,
        ]

    asyncio.run(go())
