"""Whether the reader follows the end of the conversation: from what they did,
never from what the text did under them."""

from __future__ import annotations

from wiggum.ui.follow import EndFollower, near_end


def test_near_the_end_is_within_eighty_pixels_of_the_bottom():
    assert near_end(1000, 500, 421)  # 79 px below the view
    assert not near_end(1000, 500, 420)  # 80 px
    assert near_end(300, 0, 400)  # all of it in view


def test_a_reader_who_scrolls_up_stops_following_and_follows_again_back_at_the_end():
    f = EndFollower()
    assert f.at_end
    f.put_at_end(600.0)
    f.scrolled(600.0, near=False)  # the text grew below where the page put it
    assert f.at_end
    f.scrolled(350.0, near=False)  # the reader scrolled up
    assert not f.at_end
    f.scrolled(350.0, near=False)
    assert not f.at_end
    f.scrolled(900.0, near=True)  # back at the end
    assert f.at_end
