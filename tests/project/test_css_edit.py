"""Declarations edited in place in real-world stylesheet shapes: the edit changes
what it must and every other byte stays.  Each result is read back by tinycss2
(a parser we did not write): no new parse error, and the rule's declarations
are what the edit meant."""

from __future__ import annotations

import pytest
import tinycss2

from wiggum.project.css_edit import (
    CssEditError,
    declarations,
    find_rule,
    parse_error_count,
    set_rule,
    style_rules,
)


def declared(css: str, selector: str) -> dict[str, str]:
    """What tinycss2 reads in the last top-level rule that is exactly ``selector``
    (the value the cascade keeps for each property: the last)."""
    out: dict[str, str] = {}
    for rule in tinycss2.parse_stylesheet(css, skip_comments=True, skip_whitespace=True):
        if rule.type != "qualified-rule":
            continue
        if tinycss2.serialize(rule.prelude).strip() != selector:
            continue
        out = {}
        for d in tinycss2.parse_blocks_contents(rule.content, skip_whitespace=True):
            if d.type == "declaration":
                value = tinycss2.serialize(d.value).strip()
                out[d.lower_name] = value + (" !important" if d.important else "")
    return out


def edited(css: str, selector: str, **changes: str | None) -> str:
    out = set_rule(css, selector, {k.replace("_", "-"): v for k, v in changes.items()})
    assert parse_error_count(out) <= parse_error_count(css)
    return out


def test_a_value_is_replaced_where_it_is_and_nothing_else_moves():
    css = "/* Brand */\n.cta {\n  color: red; /* brand red */\n  padding: 4px 8px;\n}\n\n.x{color:blue}\n"
    out = edited(css, ".cta", color="#cc0000")
    assert out == css.replace("color: red;", "color: #cc0000;")
    assert declared(out, ".cta") == {"color": "#cc0000", "padding": "4px 8px"}


def test_a_new_declaration_follows_the_rules_own_layout():
    css = "body {\n\tmargin: 0;\n}\n.cta {\n    color: red;\n}\n"
    out = edited(css, ".cta", font_size="18px")
    assert out == "body {\n\tmargin: 0;\n}\n.cta {\n    color: red;\n    font-size: 18px;\n}\n"
    one_line = ".cta { color: red }\n"
    assert edited(one_line, ".cta", width="10rem") == ".cta { color: red; width: 10rem; }\n"
    packed = ".cta{color:red}"
    assert edited(packed, ".cta", width="50%") == ".cta{color:red; width: 50%; }"
    assert declared(edited(packed, ".cta", width="50%"), ".cta") == {"color": "red", "width": "50%"}


#: Edits of ``.cta`` in small files: (the file, the changes, the file after).
EDITS = {
    "a missing last semicolon is added before a new declaration": (
        ".cta {\n  color: red\n}\n",
        {"text-align": "center"},
        ".cta {\n  color: red;\n  text-align: center;\n}\n",
    ),
    "a comment ending the last line stays with its declaration": (
        ".cta {\n  color: red; /* brand */\n}\n",
        {"padding": "1rem"},
        ".cta {\n  color: red; /* brand */\n  padding: 1rem;\n}\n",
    ),
    "only media rules for the class: a new top-level rule": (
        "@media (min-width: 40em) { .cta { color: blue } }\n",
        {"color": "red"},
        "@media (min-width: 40em) { .cta { color: blue } }\n\n.cta {\n  color: red;\n}\n",
    ),
    "a later longhand makes the shorthand go to the end": (
        ".cta { margin: 0; margin-top: 2rem; }",
        {"margin": "8px"},
        ".cta { margin-top: 2rem; margin: 8px; }",
    ),
}


@pytest.mark.parametrize("case", EDITS)
def test_an_edit_changes_what_it_must_and_keeps_the_rest(case):
    before, changes, after = EDITS[case]
    assert edited(before, ".cta", **{k.replace("-", "_"): v for k, v in changes.items()}) == after


def test_empty_blocks_and_an_empty_file():
    assert edited(".cta {}\n", ".cta", color="red") == ".cta { color: red; }\n"
    assert edited(".cta {\n}\n", ".cta", color="red") == ".cta {\n  color: red;\n}\n"
    assert edited("", ".cta", color="red") == ".cta {\n  color: red;\n}\n"
    assert edited("\n", ".cta", color="red") == "\n.cta {\n  color: red;\n}\n"


def test_a_missing_rule_is_added_at_the_end_with_the_files_indent():
    css = "body {\n    margin: 0;\n}"  # no newline at the end
    out = edited(css, ".cta", color="#c00", font_weight="700")
    assert out == css + "\n\n.cta {\n    color: #c00;\n    font-weight: 700;\n}\n"
    crlf = "body {\r\n  margin: 0;\r\n}\r\n"
    out = edited(crlf, ".cta", color="red")
    assert out == crlf + "\r\n.cta {\r\n  color: red;\r\n}\r\n"


def test_media_blocks_and_selector_lists_are_not_the_rule_edited():
    css = (
        ".cta { color: red; }\n"
        "@media (max-width: 600px) {\n  .cta { color: blue; }\n}\n"
        ".btn, .cta { color: green; }\n"
    )
    out = edited(css, ".cta", color="black")
    assert out == css.replace(".cta { color: red; }", ".cta { color: black; }")
    rules = style_rules(css)
    assert [(r.selectors, r.context) for r in rules] == [
        ((".cta",), ()),
        ((".cta",), ("@media (max-width: 600px)",)),
        ((".btn", ".cta"), ()),
    ]
    assert [r.line for r in rules] == [1, 3, 5]


def test_duplicate_selectors_edit_the_last_rule_as_the_cascade_does():
    css = ".cta { color: red; }\n.other { color: red; }\n.cta { padding: 0; }\n"
    out = edited(css, ".cta", color="blue")
    assert (
        out == ".cta { color: red; }\n.other { color: red; }\n.cta { padding: 0; color: blue; }\n"
    )
    assert find_rule(css, " .cta ").start == css.rindex(".cta")


def test_important_is_kept_on_a_replaced_value():
    css = ".cta { color: red !important; }"
    assert edited(css, ".cta", color="blue") == ".cta { color: blue !important; }"
    assert declared(edited(css, ".cta", color="blue"), ".cta") == {"color": "blue !important"}


def test_a_later_shorthand_makes_the_longhand_go_to_the_end_where_it_wins():
    css = ".cta {\n  background-color: white;\n  background: url(a.png) red;\n}\n"
    out = edited(css, ".cta", background_color="#000000")
    assert out == ".cta {\n  background: url(a.png) red;\n  background-color: #000000;\n}\n"
    assert list(declared(out, ".cta")) == ["background", "background-color"]


def test_an_important_shorthand_makes_the_appended_longhand_important():
    css = ".cta { font: bold 12px serif !important; }"
    out = edited(css, ".cta", font_size="20px")
    assert declared(out, ".cta")["font-size"] == "20px !important"


def test_removing_a_declaration_takes_its_line_when_alone_on_it():
    css = ".cta {\n  color: red;\n  padding: 0;\n}\n"
    assert edited(css, ".cta", color=None) == ".cta {\n  padding: 0;\n}\n"
    inline = ".cta { color: red; padding: 0 }"
    assert edited(inline, ".cta", color=None) == ".cta { padding: 0 }"
    assert edited(".cta { color: red; color: blue; }", ".cta", color=None) == ".cta { }"


def test_comments_and_strings_holding_braces_and_semicolons_stay_as_written():
    css = (
        '/* .cta { color: pink } */\n.cta::before {\n  content: "a; b { }";\n}\n'
        '.cta {\n  font-family: "x;y", serif; /* ; { } */\n  color: red;\n}\n'
    )
    out = edited(css, ".cta", color="blue")
    assert out == css.replace("color: red;", "color: blue;")
    assert declared(out, ".cta::before") == {"content": '"a; b { }"'}


def test_nested_rules_inside_a_rule_are_left_alone():
    css = ".card {\n  color: red;\n  & .title { color: blue; }\n}\n"
    out = edited(css, ".card", color="green")
    assert out == css.replace("color: red", "color: green")
    rule = find_rule(css, ".card")
    assert [d.name for d in declarations(css, rule)] == ["color"]


def test_keyframes_and_font_face_are_not_rules_of_a_selector():
    css = "@keyframes spin { from { color: red } to { color: blue } }\n@font-face { font-family: X; }\n"
    assert style_rules(css) == []
    assert edited(css, "from", color="green").endswith("\nfrom {\n  color: green;\n}\n")


def test_a_block_without_its_closing_brace_is_refused_with_its_line():
    css = "body { margin: 0; }\n.cta {\n  color: red;\n"
    with pytest.raises(CssEditError, match=r"line 2 .*never closed"):
        set_rule(css, ".cta", {"color": "blue"})


def test_values_that_would_break_out_of_the_declaration_are_refused():
    for bad in ("red; } body { display: none", "red /* x", "red\n}"):
        with pytest.raises(CssEditError):
            set_rule(".cta { color: red }", ".cta", {"color": bad})


def test_unreadable_parts_of_a_file_stay_and_count_no_new_error():
    css = ".a { color: red; ; 12: x; }\n.cta { color: red }\n"
    out = edited(css, ".cta", color="blue")
    assert out == css.replace(".cta { color: red }", ".cta { color: blue }")
    # A stray "}" makes the next rule's selector unreadable, in browsers too
    # (CSS Syntax 3 keeps it in the prelude): that rule is not the one edited.
    stray = "} stray\n.cta { color: red }\n"
    assert edited(stray, ".cta", color="blue") == stray + "\n.cta {\n  color: blue;\n}\n"


def test_a_declaration_reads_its_value_and_importance():
    css = ".cta{ color : red ! important ;margin:0 auto}"
    rule = find_rule(css, ".cta")
    got = [(d.name, d.value, d.important) for d in declarations(css, rule)]
    assert got == [("color", "red", True), ("margin", "0 auto", False)]


def test_every_rule_of_a_long_real_stylesheet_edits_in_place():
    """The app's own stylesheet (950 lines: @media, dark mode, comments, selector
    lists): each plain top-level rule gets a colour; the file before and after
    the rule's block is untouched and tinycss2 reads the value in the block."""
    from pathlib import Path

    css = (Path(__file__).resolve().parents[2] / "static" / "app.css").read_text()
    plain = {r.selectors[0] for r in style_rules(css) if not r.context and len(r.selectors) == 1}
    assert len(plain) > 100
    for selector in sorted(plain):
        rule = find_rule(css, selector)
        out = set_rule(css, selector, {"color": "#123456"})
        tail = css[rule.close + 1 :]
        assert out[: rule.open] == css[: rule.open] and out.endswith(tail), selector
        piece = tinycss2.parse_one_rule(out[rule.start : len(out) - len(tail)])
        values = {
            d.lower_name: tinycss2.serialize(d.value).strip()
            for d in tinycss2.parse_blocks_contents(piece.content, skip_whitespace=True)
            if d.type == "declaration"
        }
        assert values["color"] == "#123456", selector
