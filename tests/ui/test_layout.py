from __future__ import annotations

import json

from wiggum.ui.layout import (
    BIG_STEP,
    DEFAULTS,
    MINIMUMS,
    SPLITTER_PX,
    SPLITTERS,
    STAGE_MIN,
    STAGE_SHARE,
    STEP,
    clamp_sizes,
    is_narrow,
    key_step,
    max_size,
    pane_attrs,
    parse_sizes,
    shown_tabs,
    sized_room,
    stage_attrs,
    stage_pane,
    storage_key,
)


def test_breakpoint():
    assert is_narrow(390)
    assert is_narrow(899)
    assert not is_narrow(900)
    assert not is_narrow(1280)


def test_sizes_that_fit_are_kept():
    assert clamp_sizes(DEFAULTS, 1900) == DEFAULTS


def stage(sizes: dict[str, int], room: float) -> float:
    return room - sum(sizes.values())


def test_the_stage_is_the_widest_pane_at_every_width_whatever_was_stored():
    wishes = [DEFAULTS, {"transcript": 900, "files": 700}, {"transcript": 10_000, "files": 140}]
    for room in (900, 1268, 1908, 2548):
        for wish in wishes:
            out = clamp_sizes(wish, room)
            assert stage(out, room) >= max(out.values()), (room, wish, out)
            assert stage(out, room) >= room * STAGE_SHARE - 1


def test_the_empty_editor_takes_no_room_the_stage_takes_the_rest():
    # At 2560 px the stage (the preview) gets all but the transcript and the files.
    room = 2560 - SPLITTER_PX * len(SPLITTERS)
    assert stage(clamp_sizes(DEFAULTS, room), room) == room - 320 - 200
    # At 1280 px, ~750 px: the preview is far the widest pane.
    room = 1280 - SPLITTER_PX * len(SPLITTERS)
    assert stage(clamp_sizes(DEFAULTS, room), room) >= 740


def test_sizes_shrink_in_proportion_and_the_stage_keeps_its_share():
    out = clamp_sizes({"transcript": 600, "files": 300}, 1000)
    assert sum(out.values()) <= sized_room(1000) == 500
    assert all(out[n] >= MINIMUMS[n] for n in out)
    assert out["transcript"] > out["files"]  # the widest wish stays the widest


def test_sized_room_leaves_the_stage_its_minimum_on_a_small_row():
    assert sized_room(500) == 500 - STAGE_MIN
    assert sized_room(2000) == 1000


def test_sizes_below_minimums_fall_to_minimums():
    assert clamp_sizes({"transcript": 50, "files": 10}, 2000) == MINIMUMS
    assert clamp_sizes(DEFAULTS, 300) == MINIMUMS


def test_max_size_leaves_the_stage_its_share():
    assert max_size("files", DEFAULTS, 1280) == 640 - DEFAULTS["transcript"]
    assert max_size("files", DEFAULTS, 100) == MINIMUMS["files"]


def test_key_steps():
    assert key_step("ArrowRight", 200) == 200 + STEP
    assert key_step("ArrowLeft", 200) == 200 - STEP
    assert key_step("ArrowRight", 200, shift=True) == 200 + BIG_STEP
    # a pane right of its splitter: moving the splitter left widens it
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
    raw = json.dumps({"transcript": 500, "files": 3, "code": 9})
    assert parse_sizes(raw) == {"transcript": 500, "files": MINIMUMS["files"]}
    assert parse_sizes(json.dumps({"files": True})) == DEFAULTS


def test_sizes_stored_by_the_four_pane_layout_never_leave_the_preview_tiny():
    # The old layout stored the preview's width too (here its minimum, the pane squeezed):
    # it is not read, and the others are clamped so that the stage keeps half the row.
    old = json.dumps({"transcript": 700, "files": 500, "preview": 220})
    sizes = parse_sizes(old)
    assert set(sizes) == {"transcript", "files"}
    room = 1280 - SPLITTER_PX * len(SPLITTERS)
    from wiggum.ui.layout import fitted

    shown = fitted(sizes, 1280)
    assert stage(shown, room) >= room / 2


def test_storage_key_is_per_project():
    assert storage_key("a") != storage_key("b")


def test_fitted_sizes_leave_room_for_the_splitters_and_wait_for_a_measured_row():
    from wiggum.ui.layout import fitted

    assert fitted(DEFAULTS, 0) == DEFAULTS  # a hidden tab's row measures 0
    row = 2 * sum(DEFAULTS.values()) + SPLITTER_PX * len(SPLITTERS)
    assert fitted(DEFAULTS, row) == DEFAULTS
    # One pixel less and the panes give way: the splitters' room counts.
    assert sum(fitted(DEFAULTS, row - 2).values()) < sum(DEFAULTS.values())


def test_resized_keeps_a_pane_within_its_range():
    from wiggum.ui.layout import resized, splitter_values

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


def test_dragging_a_splitter_right_widens_its_pane():
    from wiggum.ui.layout import drag_size

    assert drag_size("files", 200, 40) == 240
    assert drag_size("transcript", 380, -40.6) == 339


def test_sub_tab_keys_wrap_around_the_tabs_shown():
    from wiggum.ui.tabs import tab_after

    tabs = shown_tabs(has_file=True)
    assert tabs == ("transcript", "files", "preview", "code", "history")
    assert tab_after("ArrowRight", "preview", tabs) == "code"
    assert tab_after("ArrowRight", "history", tabs) == "transcript"
    assert tab_after("Home", "code", tabs) == "transcript"
    # Without a file the code pane has no tab: the keys skip it.
    tabs = shown_tabs(has_file=False)
    assert "code" not in tabs
    assert tab_after("ArrowRight", "preview", tabs) == "history"


def test_the_stage_shows_the_preview_unless_code_or_history_was_chosen():
    assert stage_pane("preview", False) == "preview"
    assert stage_pane("code", True) == "code"
    assert stage_pane("code", False) == "preview"  # the file closed: no empty editor
    assert stage_pane("history", False) == "history"
    assert stage_pane("transcript", True) == "preview"


def test_which_panes_show_wide_and_narrow():
    wide = {n: pane_attrs(n, "transcript", False, "history")["data-active"] for n in DEFAULTS}
    assert wide == {"transcript": "true", "files": "true"}
    assert pane_attrs("history", "files", False, "history")["data-active"] == "true"
    assert pane_attrs("preview", "files", False, "history")["data-active"] == "false"
    assert pane_attrs("preview", "files", False, "history")["aria-labelledby"] == "ws-show-preview"
    assert pane_attrs("files", "files", False, "preview")["role"] is None
    # Narrow: only the sub-tab's pane, labelled by it.
    assert pane_attrs("files", "files", True, "preview")["data-active"] == "true"
    assert pane_attrs("preview", "files", True, "preview")["data-active"] == "false"
    assert pane_attrs("code", "code", True, "code")["aria-labelledby"] == "ws-tab-code"
    assert stage_attrs("files", True) == {"data-active": "false"}
    assert stage_attrs("code", True) == {"data-active": "true"}
    assert stage_attrs("files", False) == {"data-active": "true"}


def test_sizes_dumped_read_back():
    from wiggum.ui.layout import dump_sizes

    sizes = {"transcript": 300, "files": 222, "preview": 400, "code": 999}
    assert json.loads(dump_sizes(sizes)) == {"transcript": 300, "files": 222}
    assert parse_sizes(dump_sizes(sizes)) == {"transcript": 300, "files": 222}
