"""Small presentation rules: the failure line, a code block's language, lexer requests."""

from __future__ import annotations

from wiggum.ui.format import failure_text
from wiggum.ui.highlight import LexerRequests
from wiggum.ui.markdown import El, code_lang, code_text, render


def test_the_failure_line_names_what_failed_and_that_the_rest_works():
    text = failure_text("files refresh", KeyError("x"))
    assert text == (
        "Something went wrong: files refresh failed (KeyError). "
        "The rest of Wiggum still works; the Log has the details."
    )


def test_a_code_blocks_language_and_text():
    pre = render("```python\nx = 1\n```\n")[0]
    assert (code_lang(pre), code_text(pre)) == ("python", "x = 1\n")
    plain = render("```\nplain\n```\n")[0]
    assert (code_lang(plain), code_text(plain)) == ("", "plain\n")
    assert (code_lang(El("pre")), code_text(El("pre"))) == ("", "")


def test_each_lexer_is_asked_for_once_whatever_its_case():
    lexers = LexerRequests()
    assert lexers.wanted(["Python", ""])
    assert lexers.claim(["Python", "python", "", "css"]) == ("python", "css")
    assert lexers.claim(["CSS", "sh"]) == ("sh",)
    assert not lexers.wanted(["PYTHON", "", "sh"])
    assert lexers.wanted(["rust"])
