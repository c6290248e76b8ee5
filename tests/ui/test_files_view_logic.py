"""What the file tree lists and how the viewer shows a file (``wiggum.ui.files``)."""

from __future__ import annotations

from wiggum.ui.files import Entry, Folder, file_tree, show_as


def names(nodes) -> list:
    return [(n.name, names(n.children)) if isinstance(n, Folder) else n.path for n in nodes]


def test_folders_first_then_files_each_sorted_agents_memory_included():
    files = [
        "index.html",
        "README.md",
        "data.bin",
        "css/site.css",
        ".ralph/state.json",
        ".chief/notes.md",
        "img/logo.png",
    ]
    assert names(file_tree(files)) == [
        (".chief", [".chief/notes.md"]),
        (".ralph", [".ralph/state.json"]),
        ("css", ["css/site.css"]),
        ("img", ["img/logo.png"]),
        "README.md",
        "data.bin",
        "index.html",
    ]


def test_empty_folders_are_listed_and_folders_carry_their_path():
    tree = file_tree(["a/b/c.txt"], ["a/empty", "top"])
    assert tree[0] == Folder(
        "a",
        "a",
        (Folder("b", "a/b", (Entry("c.txt", "a/b/c.txt"),)), Folder("empty", "a/empty", ())),
    )
    assert tree[1] == Folder("top", "top", ())
    assert file_tree([]) == ()


def test_a_file_and_a_folder_of_one_name_are_both_kept():
    tree = file_tree(["x", "x/y.txt"])
    assert tree == (Folder("x", "x", (Entry("y.txt", "x/y.txt"),)), Entry("x", "x"))


def test_text_shows_in_the_editor_with_its_lines_and_size():
    assert show_as("a.html", b"<h1>Hi</h1>\n<p>two</p>\n").note == "2 lines, 23 B"
    assert show_as("a.txt", b"one").note == "1 line, 3 B"
    assert show_as("empty.txt", b"").note == "0 lines, 0 B"
    shown = show_as("a.css", b"x\ny")
    assert (shown.kind, shown.svg) == ("text", False)


def test_images_by_extension_and_other_bytes_as_binary():
    png = show_as("img/logo.png", b"\x89PNG\x00\x00")
    assert (png.kind, png.note, png.svg) == ("image", "image, 6 B", False)
    data = show_as("data.bin", b"\x00\xff\x10binary")
    assert (data.kind, data.note, data.body) == ("binary", "9 B, binary", "binary, 9 bytes")
    big = show_as("x.bin", b"\x00" * 2048)
    assert big.body == "binary, 2,048 bytes" and big.note == "2.0 KB, binary"


def test_an_svg_is_an_image_that_also_offers_its_source():
    svg = b'<svg xmlns="http://www.w3.org/2000/svg"/>\n'
    image = show_as("logo.SVG", svg)
    assert (image.kind, image.svg) == ("image", True)
    source = show_as("logo.svg", svg, svg_source=True)
    assert (source.kind, source.svg, source.note) == ("text", True, "1 line, 42 B")
    # Bytes that are not text under an .svg name are an image with no source to offer.
    assert show_as("bad.svg", b"\xff\x00", svg_source=True) == show_as("bad.svg", b"\xff\x00")
    assert not show_as("bad.svg", b"\xff\x00").svg
