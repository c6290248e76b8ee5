"""wiggum.ui.highlight: Pygments into element-tree spans, only with a loaded lexer."""

from __future__ import annotations

import itertools

from wiggum.ui.highlight import highlight, highlight_steps, lexer_pending, load_lexer
from wiggum.ui.markdown import El, plain_text


def test_highlight_after_the_lexer_is_loaded():
    code = "def f(x):\n    return '<b>' # c\n"
    load_lexer("python")
    assert not lexer_pending("python")
    spans = highlight(code, "python")
    assert plain_text(spans) == code  # every character kept, as text
    classes = {n.attrs["class"] for n in spans if isinstance(n, El)}
    assert {"hl-k", "hl-nf", "hl-c1"} <= classes
    assert all(n.tag == "span" and set(n.attrs) == {"class"} for n in spans if isinstance(n, El))


def test_no_highlight_without_a_loaded_lexer_or_language():
    assert lexer_pending("rust")
    assert highlight("fn main() {}", "rust") is None  # loads nothing by itself
    assert highlight("x", "") is None
    assert load_lexer("no-such-language") is None
    assert highlight("x", "no-such-language") is None
    assert not lexer_pending("no-such-language")


def test_highlight_steps_hand_out_the_same_nodes_one_at_a_time():
    code = (
        "def f(x):\n    '''doc\n    string'''\n    return x  # c\n\n" * 40 + "s = 'unterminated\n"
    )
    load_lexer("python")
    at_once = highlight(code, "python")
    steps = highlight_steps(code, "python")
    first = next(steps)  # lazily: a node at a time
    rest = list(steps)
    assert [first, *rest] == at_once
    assert plain_text([first, *rest]) == code
    # Each node handed out is final: neighbours never share a class (they would merge).
    classes = [n.attrs["class"] if isinstance(n, El) else None for n in at_once]
    assert all(a != b for a, b in itertools.pairwise(classes))
    assert highlight_steps(code, "") is None and highlight_steps(code, "rust") is None
