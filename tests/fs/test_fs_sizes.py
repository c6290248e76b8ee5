from wiggum.fs.sizes import format_size


def test_each_unit_and_its_edges():
    assert format_size(0) == "0 B"
    assert format_size(1023) == "1023 B"
    assert format_size(1024) == "1.0 KB"
    assert format_size(28_877) == "28.2 KB"
    assert format_size(5 * 1024**2) == "5.0 MB"
    assert format_size(int(1.25 * 1024**3)) == "1.2 GB"
