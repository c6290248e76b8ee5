"""What the inspector's fields show of computed values, and which typed values
each property takes (with what a refusal says)."""

from __future__ import annotations

import pytest

from wiggum.ui.style_values import StyleValueError, checked_value, shown_value


@pytest.mark.parametrize(
    ("prop", "computed", "shown"),
    [
        ("color", "rgb(204, 0, 0)", "#cc0000"),
        ("color", "rgba(0, 0, 0, 0.5)", "#00000080"),
        ("background-color", "rgba(0, 0, 0, 0)", "transparent"),
        ("color", "oklch(0.5 0.1 20)", "oklch(0.5 0.1 20)"),  # kept as the browser says
        ("font-size", "13.3333px", "13.33px"),
        ("margin", "8px 0px 16.5px", "8px 0px 16.5px"),
        ("width", "-0.001px", "0px"),
        ("width", "auto", "auto"),
        ("font-weight", "700", "700"),
    ],
)
def test_computed_values_shown_as_hex_and_px(prop, computed, shown):
    assert shown_value(prop, computed) == shown


@pytest.mark.parametrize(
    ("prop", "typed", "kept"),
    [
        ("color", "#CC0000", "#cc0000"),
        ("color", "rebeccapurple", "rebeccapurple"),
        ("color", "#CCC8", "#ccc8"),  # #rgba: a colour in CSS Color 4
        ("color", "rgb(204 0 0 / 50%)", "rgb(204 0 0 / 50%)"),
        ("background-color", "transparent", "transparent"),
        ("background-color", "hsl(120, 50%, 50%)", "hsl(120, 50%, 50%)"),
        ("font-size", " 1.25REM ", "1.25rem"),
        ("font-size", "large", "large"),
        ("font-size", "clamp(1rem, 2vw, 2rem)", "clamp(1rem, 2vw, 2rem)"),
        ("font-weight", "Bold", "bold"),
        ("font-weight", "650", "650"),
        ("margin", "0 auto", "0 auto"),
        ("margin", "-4px  8px 0 1em", "-4px 8px 0 1em"),
        ("padding", "1rem 2rem", "1rem 2rem"),
        ("text-align", "Center", "center"),
        ("width", "50%", "50%"),
        ("width", "fit-content", "fit-content"),
        ("color", "inherit", "inherit"),
    ],
)
def test_values_a_stylesheet_keeps(prop, typed, kept):
    assert checked_value(prop, typed) == kept


@pytest.mark.parametrize(
    ("prop", "typed", "says"),
    [
        ("color", "blu", "is not a colour. Use a name (red)"),
        ("color", "cc0000", "a hex colour starts with #: #cc0000"),
        ("color", "#ccg", "is not a colour"),
        ("font-size", "16", "needs a unit, such as 16px or 16rem"),
        ("font-size", "-2px", "cannot be negative"),
        ("font-size", "big", "is not a size; use a length such as 16px"),
        ("font-weight", "heavy", "use normal, bold or a number 100–900"),
        ("font-weight", "1200", "use normal, bold or a number"),
        ("margin", "1px 2px 3px 4px 5px", "takes one to 4 values"),
        ("padding", "-1px", "cannot be negative"),
        ("padding", "auto", "is not a size"),
        ("text-align", "middle", "use start, left, center, right, justify, end"),
        ("width", "calc(100% - (2rem)", "unbalanced parentheses"),
        ("color", "red; display: none", "characters a value cannot have"),
        ("width", "", "type a value"),
    ],
)
def test_refusals_say_what_is_wrong_and_what_would_do(prop, typed, says):
    with pytest.raises(StyleValueError, match=says.replace("(", r"\(").replace(")", r"\)")) as exc:
        checked_value(prop, typed)
    assert exc.value.prop == prop


def test_a_colour_input_shows_six_digit_hex_only():
    from wiggum.ui.style_values import swatch_value

    assert swatch_value(" #ABC ") == "#aabbcc"
    assert swatch_value("#cc0000") == "#cc0000"
    assert swatch_value("#cc000080") is None  # an alpha: the input cannot show it
    assert swatch_value("red") is None and swatch_value("transparent") is None
