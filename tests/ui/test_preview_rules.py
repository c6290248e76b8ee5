"""What the preview takes from its frame and its toolbar (``wiggum.ui.preview``)."""

from __future__ import annotations

from types import SimpleNamespace

import pytest

from wiggum.preview import ERROR_MESSAGE, NAV_MESSAGE
from wiggum.ui.preview import (
    MAX_ERROR,
    MAX_ERRORS,
    error_text,
    is_root,
    keep_error,
    nav_path,
    read_message,
    typed_page,
    width_title,
)


@pytest.mark.parametrize(
    ("page", "root"),
    [
        ("", True),
        ("/", True),
        ("./", True),
        ("index.html", True),
        ("/index.html", True),
        ("about.html", False),
        ("pages/", False),
        ("../x", False),
    ],
)
def test_the_sites_root(page, root):
    assert is_root(page) is root


def test_a_navigation_path_is_a_string_of_sane_length():
    assert nav_path("about.html") == "about.html"
    assert nav_path("") is None
    assert nav_path("a" * 2049) is None
    assert nav_path("a" * 2048) == "a" * 2048
    assert nav_path(3) is None


def test_errors_are_cut_kept_up_to_a_limit_and_once_where_asked():
    assert error_text("x" * 5000) == "x" * 2000
    assert error_text(None) is None
    errors: list[str] = []
    assert keep_error(errors, "boom")
    assert keep_error(errors, "boom")  # the preview lists each report
    assert not keep_error(errors, "boom", once=True)  # the gates' checker, each error once
    assert not keep_error(errors, {"message": "x"})
    for i in range(MAX_ERRORS):
        keep_error(errors, str(i))
    assert len(errors) == MAX_ERRORS


def test_what_a_person_types_is_a_page():
    assert typed_page("  /about.html ") == "about.html"
    assert typed_page("   ") == "index.html"
    assert typed_page("pages/menu.html#top") == "pages/menu.html#top"


def test_width_titles():
    assert width_title(390) == "Show the site 390 px wide"
    assert width_title(None) == "Show the site full width"


def test_a_frames_message_is_read_only_in_the_shapes_the_site_runtime_sends():
    nav = SimpleNamespace(type=NAV_MESSAGE, path="about.html")
    assert read_message(NAV_MESSAGE, nav) == (NAV_MESSAGE, "about.html")
    error = SimpleNamespace(type=ERROR_MESSAGE, message="x" * (MAX_ERROR + 5))
    assert read_message(ERROR_MESSAGE, error) == (ERROR_MESSAGE, "x" * MAX_ERROR)
    # A navigation carries its path in "path", an error its text in "message": not the other's.
    assert read_message(NAV_MESSAGE, SimpleNamespace(message="about.html")) is None
    assert read_message(ERROR_MESSAGE, SimpleNamespace(path="boom")) is None
    assert read_message(NAV_MESSAGE, SimpleNamespace(path=42)) is None
    assert read_message("wiggum-preview-ready", nav) is None
    assert read_message(None, None) is None


def test_a_device_frame_is_scaled_to_fit_its_box_and_says_so():
    from wiggum.ui.preview import DEVICES, MIN_SCALE, device_label, device_scale

    assert DEVICES["phone"] == (390, 844) and DEVICES["tablet"] == (768, 1024)
    # Room enough: drawn at its own size.
    assert device_scale("phone", 1400, 900) == 1.0
    # The pane of a 1280×800 window: the height decides, rounded down to a percent.
    assert device_scale("phone", 724, 480) == 0.56
    assert device_scale("tablet", 724, 480) == 0.46
    # The width decides in a narrow pane.
    assert device_scale("tablet", 384, 2000) == 0.5
    # Never smaller than MIN_SCALE; unmeasured (0) or the pane's own width: not scaled.
    assert device_scale("phone", 50, 50) == MIN_SCALE
    assert device_scale("phone", 0, 0) == 1.0
    assert device_scale("desktop", 300, 300) == 1.0
    assert device_label("phone", 0.62) == "Phone 390 × 844 · 62%"
    assert device_label("tablet", 1.0) == "Tablet 768 × 1024 · 100%"
    assert device_label("desktop", 1.0) == ""


def test_on_a_phones_screen_a_device_frame_fits_the_width_alone():
    from wiggum.ui.preview import NARROW_PANE, device_room, device_scale

    # A 390x844 phone's preview pane: as wide as the pane, not half its size.
    assert device_scale("phone", *device_room(366, 600)) == 0.93
    assert device_scale("tablet", *device_room(366, 600)) == 0.47
    # A desktop's pane keeps the whole frame in view, the height deciding.
    assert device_room(724, 480) == (724, 480)
    assert device_scale("phone", *device_room(724, 480)) == 0.56
    assert device_room(NARROW_PANE, 480) == (NARROW_PANE, 480)
    # Not measured yet: left to device_scale's own rule (not scaled).
    assert device_scale("phone", *device_room(0, 0)) == 1.0
