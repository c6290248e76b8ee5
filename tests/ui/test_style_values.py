"""What the inspector's fields show of computed values, and which typed values
each property takes (with what a refusal says)."""

from __future__ import annotations

import re

import pytest

from wiggum.ui.style_values import StyleValueError, checked_value, shown_value

#: prop -> (the browser's computed value, what the field shows) of each case.
SHOWN = {
    "color": [
        ("rgb(204, 0, 0)", "#cc0000"),
        ("rgba(0, 0, 0, 0.5)", "#00000080"),
        ("oklch(0.5 0.1 20)", "oklch(0.5 0.1 20)"),  # kept as the browser says it
    ],
    "background-color": [("rgba(0, 0, 0, 0)", "transparent")],
    "font-size": [("13.3333px", "13.33px")],
    "margin": [("8px 0px 16.5px", "8px 0px 16.5px")],
    "width": [("-0.001px", "0px"), ("auto", "auto")],
    "font-weight": [("700", "700")],
    "font-family": [('"Open Sans",  sans-serif', '"Open Sans", sans-serif')],
}
#: prop -> (typed, what the stylesheet gets) of each value a property takes.
KEPT = {
    "color": [
        ("#CC0000", "#cc0000"),
        ("rebeccapurple",) * 2,
        ("#CCC8", "#ccc8"),  # #rgba: a colour in CSS Color 4
        ("rgb(204 0 0 / 50%)",) * 2,
        ("inherit",) * 2,
    ],
    "background-color": [("transparent",) * 2, ("hsl(120, 50%, 50%)",) * 2],
    "font-size": [(" 1.25REM ", "1.25rem"), ("large",) * 2, ("clamp(1rem, 2vw, 2rem)",) * 2],
    "font-weight": [("Bold", "bold"), ("650",) * 2],
    "margin": [("0 auto",) * 2, ("-4px  8px 0 1em", "-4px 8px 0 1em")],
    "padding": [("1rem 2rem",) * 2],
    "text-align": [("Center", "center")],
    "width": [("50%",) * 2, ("fit-content",) * 2],
    "font-family": [
        ('"Open Sans", sans-serif',) * 2,
        ("'Open Sans',serif",) * 2,
        ("Times New Roman, serif",) * 2,
        ("system-ui",) * 2,
    ],
}
#: prop -> (typed, words of the refusal) of each value a property refuses.
REFUSED = {
    "color": [
        ("blu", "is not a colour. Use a name (red)"),
        ("cc0000", "a hex colour starts with #: #cc0000"),
        ("#ccg", "is not a colour"),
        ("red; display: none", "characters a value cannot have"),
        ('"red"', "characters a value cannot have"),  # quotes only in a font list
    ],
    "font-size": [
        ("16", "needs a unit, such as 16px or 16rem"),
        ("-2px", "cannot be negative"),
        ("big", "is not a size; use a length such as 16px"),
    ],
    "font-weight": [("heavy", "use normal, bold or a number 100–900"), ("1200", "or a number")],
    "margin": [("1px 2px 3px 4px 5px", "takes one to 4 values")],
    "padding": [("-1px", "cannot be negative"), ("auto", "is not a size")],
    "text-align": [("middle", "use start, left, center, right, justify, end")],
    "width": [("calc(100% - (2rem)", "unbalanced parentheses"), ("", "type a value")],
    "font-family": [
        ('"Open Sans, serif', "is not a list of fonts"),  # the quote never closed
        ("Arial,, serif", "Separate fonts with commas"),
        ('"Open" Sans', "put a name with spaces in quotes"),
        ("url(x.woff)", "is not a list of fonts"),
        ('"a"; color: red', "characters a value cannot have"),
        ('"<b>"', "characters a value cannot have"),
    ],
}


def cases(table: dict[str, list[tuple[str, ...]]]) -> list[tuple[str, ...]]:
    return [(prop, *case) for prop, items in table.items() for case in items]


@pytest.mark.parametrize(("prop", "computed", "shown"), cases(SHOWN))
def test_computed_values_shown_as_hex_and_px(prop, computed, shown):
    assert shown_value(prop, computed) == shown


@pytest.mark.parametrize(("prop", "typed", "kept"), cases(KEPT))
def test_values_a_stylesheet_keeps(prop, typed, kept):
    assert checked_value(prop, typed) == kept


@pytest.mark.parametrize(("prop", "typed", "says"), cases(REFUSED))
def test_refusals_say_what_is_wrong_and_what_would_do(prop, typed, says):
    with pytest.raises(StyleValueError, match=re.escape(says)) as exc:
        checked_value(prop, typed)
    assert exc.value.prop == prop


def test_a_colour_input_shows_six_digit_hex_only():
    from wiggum.ui.style_values import swatch_value

    assert swatch_value(" #ABC ") == "#aabbcc"
    assert swatch_value("#cc0000") == "#cc0000"
    assert swatch_value("#cc000080") is None  # an alpha: the input cannot show it
    assert swatch_value("red") is None and swatch_value("transparent") is None


#: prop -> (a value written, what the field shows once the browser computes it).
COMPUTES = {
    "color": [("#C00", "#cc0000"), ("red", "#ff0000"), ("hsl(0 100% 40% / 50%)", "#cc000080")],
    "background-color": [("transparent", "transparent"), ("rgb(1 2 3)", "#010203")],
    "font-size": [("18px", "18px"), ("13.3333px", "13.33px")],
    "font-weight": [("bold", "700"), ("650", "650")],
    "text-align": [("Center", "center")],
    "margin": [
        ("0", "0px"),
        ("8px 0", "8px 0px"),
        ("4px 4px 4px", "4px"),
        ("1px 2px 3px", "1px 2px 3px"),
    ],
    "padding": [("1px 2px 1px 2px", "1px 2px"), ("1px 2px 3px 4px", "1px 2px 3px 4px")],
    "width": [("120px", "120px")],
}
#: prop -> values whose computed form depends on the page.
UNKNOWN = {
    "color": ["currentcolor", "inherit"],
    "font-size": ["1.5rem", "larger", "50%"],
    "text-align": ["start"],
    "margin": ["0 auto", "calc(1px + 1em)"],
    "width": ["auto"],
}


@pytest.mark.parametrize(("prop", "written", "computed"), cases(COMPUTES))
def test_what_the_browser_will_compute_when_the_value_tells(prop, written, computed):
    from wiggum.ui.style_values import computes_as

    assert computes_as(prop, written) == computed


def test_what_depends_on_the_page_is_not_foretold():
    from wiggum.ui.style_values import computes_as

    for prop, values in UNKNOWN.items():
        for value in values:
            assert computes_as(prop, value) is None, (prop, value)
