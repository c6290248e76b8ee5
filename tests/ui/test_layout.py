from __future__ import annotations

import json

from wiggum.ui.layout import (
    BIG_STEP,
    CODE_MIN,
    DEFAULTS,
    MINIMUMS,
    STEP,
    clamp_sizes,
    is_narrow,
    key_step,
    max_size,
    parse_sizes,
    storage_key,
)


def test_breakpoint():
    assert is_narrow(390)
    assert is_narrow(899)
    assert not is_narrow(900)
    assert not is_narrow(1280)


def test_sizes_that_fit_are_kept():
    assert clamp_sizes(DEFAULTS, 1900) == DEFAULTS


def test_sizes_shrink_in_proportion_and_code_keeps_its_minimum():
    sizes = {"transcript": 600, "files": 300, "preview": 600}
    out = clamp_sizes(sizes, 1000)
    assert sum(out.values()) + CODE_MIN <= 1000
    assert all(out[n] >= MINIMUMS[n] for n in out)
    # the widest wish stays the widest
    assert out["transcript"] > out["files"] and out["preview"] > out["files"]


def test_sizes_below_minimums_fall_to_minimums():
    assert clamp_sizes({"transcript": 50, "files": 10, "preview": 5}, 2000) == MINIMUMS
    assert clamp_sizes(DEFAULTS, 300) == MINIMUMS


def test_max_size_leaves_room_for_the_others_and_code():
    others = DEFAULTS["transcript"] + DEFAULTS["preview"]
    assert max_size("files", DEFAULTS, 1280) == 1280 - CODE_MIN - others
    assert max_size("files", DEFAULTS, 100) == MINIMUMS["files"]


def test_key_steps():
    assert key_step("ArrowRight", 200) == 200 + STEP
    assert key_step("ArrowLeft", 200) == 200 - STEP
    assert key_step("ArrowRight", 200, shift=True) == 200 + BIG_STEP
    # the preview is right of its splitter: moving the splitter left widens it
    assert key_step("ArrowLeft", 300, grows_right=False) == 300 + STEP
    assert key_step("PageUp", 300, grows_right=False) == 300 + BIG_STEP
    assert key_step("PageDown", 300) == 300 - BIG_STEP
    assert key_step("Home", 300) == 0
    assert key_step("End", 300) >= 10_000
    assert key_step("a", 300) is None
    assert key_step("ArrowUp", 300) is None


def test_parse_sizes():
    assert parse_sizes(None) == DEFAULTS
    assert parse_sizes("not json") == DEFAULTS
    assert parse_sizes("[1, 2]") == DEFAULTS
    raw = json.dumps({"transcript": 500, "files": 3, "preview": "x", "code": 9})
    assert parse_sizes(raw) == {
        "transcript": 500,
        "files": MINIMUMS["files"],
        "preview": DEFAULTS["preview"],
    }
    assert parse_sizes(json.dumps({"files": True})) == DEFAULTS


def test_storage_key_is_per_project():
    assert storage_key("a") != storage_key("b")


def test_fitted_sizes_leave_room_for_the_splitters_and_wait_for_a_measured_row():
    from wiggum.ui.layout import SPLITTER_PX, SPLITTERS, fitted

    assert fitted(DEFAULTS, 0) == DEFAULTS  # a hidden tab's row measures 0
    row = sum(DEFAULTS.values()) + CODE_MIN + SPLITTER_PX * len(SPLITTERS)
    assert fitted(DEFAULTS, row) == DEFAULTS
    # One pixel less and the panes give way: the splitters' room counts.
    assert sum(fitted(DEFAULTS, row - 1).values()) < sum(DEFAULTS.values())


def test_resized_keeps_a_pane_within_its_range():
    from wiggum.ui.layout import SPLITTER_PX, SPLITTERS, resized, splitter_values

    row = 1280
    room = row - SPLITTER_PX * len(SPLITTERS)
    assert resized(DEFAULTS, "files", 10, row)["files"] == MINIMUMS["files"]
    widest = resized(DEFAULTS, "files", 10_000, row)["files"]
    assert widest == max_size("files", DEFAULTS, room)
    assert resized(DEFAULTS, "files", 260, row)["files"] == 260
    # Unmeasured: the value is taken (above the minimum) and fitted later.
    assert resized(DEFAULTS, "files", 900, 0)["files"] == 900
    values = splitter_values(DEFAULTS, row)
    assert values["files"] == (DEFAULTS["files"], MINIMUMS["files"], widest)
    assert splitter_values(DEFAULTS, 0)["files"] == (DEFAULTS["files"],) + (MINIMUMS["files"],) * 2


def test_dragging_the_preview_left_widens_it():
    from wiggum.ui.layout import drag_size

    assert drag_size("files", 200, 40) == 240
    assert drag_size("preview", 380, 40) == 340
    assert drag_size("preview", 380, -40.6) == 420


def test_sub_tab_keys_wrap_around():
    from wiggum.ui.layout import PANES
    from wiggum.ui.tabs import tab_after

    assert tab_after("ArrowRight", "code", PANES) == "preview"
    assert tab_after("ArrowRight", "preview", PANES) == "transcript"
    assert tab_after("ArrowLeft", "transcript", PANES) == "preview"
    assert tab_after("Home", "code", PANES) == "transcript"
    assert tab_after("End", "files", PANES) == "preview"
    assert tab_after("Enter", "files", PANES) is None


def test_sizes_dumped_read_back():
    from wiggum.ui.layout import dump_sizes

    sizes = {"transcript": 300, "files": 222, "preview": 400, "code": 999}
    assert json.loads(dump_sizes(sizes)) == {"transcript": 300, "files": 222, "preview": 400}
    assert parse_sizes(dump_sizes(sizes)) == {"transcript": 300, "files": 222, "preview": 400}
