"""wiggum.ui.markdown_stream: streamed blocks add up to the whole render; open blocks look final."""

from __future__ import annotations

import pytest

from wiggum.ui.markdown import plain_text, render, to_html
from wiggum.ui.markdown_stream import MarkdownStream, close_open_inline, provisional

REPLY = "\n\n".join(
    [
        "# Plan\n\nSome **bold** and *italic* text with `code` and a [link](https://x.org).",
        "```python\ndef f(x):\n    return x * 2  # **not bold**\n```",
        "| a | b |\n|:--|--:|\n| 1 | **2** |\n| 3 | 4 |",
        "- [ ] todo\n- [x] done\n  - nested *item*",
        "1. one\n2. two\n\n   still two",
        "> quote with ~~strike~~\n> more",
        "---",
        "Plain https://example.com/path paragraph.",
    ]
    * 6
)


def stream(text: str, size: int):
    s = MarkdownStream()
    blocks = []
    opens = []
    for end in range(size, len(text) + size, size):
        finished, open_ = s.feed(text[: min(end, len(text))])
        blocks.extend(finished)
        opens.append(open_)
    finished, open_ = s.feed(text, final=True)
    blocks.extend(finished)
    return s, [n for b in blocks for n in b] + open_, opens


@pytest.mark.parametrize("size", [1, 7, 200])
def test_streamed_equals_rendered_at_once(size):
    text = REPLY[:3000] if size == 1 else REPLY
    s, nodes, _ = stream(text, size)
    assert not s.needs_full_render()
    assert to_html(nodes) == to_html(render(text))


def test_only_the_open_block_is_parsed_again():
    s = MarkdownStream()
    s.feed(REPLY)
    assert s.done > len(REPLY) - 200  # everything before the last block is finished


def test_open_emphasis_renders_as_it_will_look():
    for partial in ["Some **bold", "Some *it", "a `code", "a ~~gone", "Some **"]:
        _, open_ = MarkdownStream().feed(partial)
        assert "*" not in plain_text(open_) and "`" not in plain_text(open_)
        assert "~" not in plain_text(open_)
    _, open_ = MarkdownStream().feed("Some **bold")
    assert to_html(open_) == "<p>Some <strong>bold</strong></p>\n"


def test_no_false_closing():
    assert close_open_inline("snake_case_name") == "snake_case_name"
    assert close_open_inline("* item") == "* item"
    assert close_open_inline("2 * 3") == "2 * 3"


def test_reference_definitions_ask_for_a_full_render():
    s = MarkdownStream()
    s.feed("see [x]\n\npara\n\n[x]: https://x.org\n", final=True)
    assert s.needs_full_render()


XSS_SPLIT = (
    "[cl](java" + "script:alert(1)) <scr" + "ipt>alert(1)</scr" + "ipt> ![a](data:text/html,x)"
)


@pytest.mark.parametrize("size", [1, 3, 9])
def test_payload_split_across_chunks_never_links(size):
    from tests.ui.test_markdown import assert_inert

    _, nodes, opens = stream(XSS_SPLIT, size)
    assert_inert(nodes)
    for open_ in opens:
        assert_inert(open_)


def test_an_open_code_fence_is_marked_streaming_until_it_is_finished():
    from wiggum.ui.markdown_stream import STREAMING

    text = "Intro.\n\n```python\nx = 1\ny = 2\n"
    stream = MarkdownStream()
    _, open_ = stream.feed(text)
    assert [n.tag for n in open_] == ["pre"] and STREAMING in open_[0].attrs
    finished, open_ = stream.feed(text + "```\n\nAfter.\n")
    # Finished: the same code block, without the mark (so it is highlighted once).
    assert [STREAMING in n.attrs for block in finished for n in block if n.tag == "pre"] == [False]
    _, last = MarkdownStream().feed(text, final=True)
    assert STREAMING not in last[0].attrs


def test_provisional_leaves_out_a_half_arrived_closing_fence():
    assert provisional("```python\nx = 1\n``") == "```python\nx = 1\n"
    assert provisional("```python\nx = 1\n`") == "```python\nx = 1\n"
    assert provisional("~~~\nx\n~~") == "~~~\nx\n"
    assert provisional("```sh\nmake && echo ok\n") == "```sh\nmake && echo ok\n"
    assert provisional("```sh\nmake *all") == "```sh\nmake *all"  # code: nothing closed
    assert provisional("```sh\nx\n~~") == "```sh\nx\n~~"  # not this fence's character
    assert provisional("    indented *code") == "    indented *code"


def test_provisional_closes_open_inline_markup():
    assert provisional("Some **bold") == "Some **bold**"
    assert provisional("a `code") == "a `code`"
    assert provisional("a ~~gone") == "a ~~gone~~"
    assert provisional("Some **") == "Some "
    assert provisional("a [the docs](https://exa") == "a [the docs](#)"
    _, open_ = MarkdownStream().feed("and a link to [the docs](http")
    assert to_html(open_) == '<p>and a link to <a href="#">the docs</a></p>\n'
    assert provisional("a [label] (x") == "a [label] (x"  # not a link


@pytest.mark.parametrize("cut", range(1, 40))
def test_an_open_fence_looks_at_every_cut_as_it_will_once_closed(cut):
    text = "```python\ndef f():\n    return 1\n```\n"
    _, open_ = MarkdownStream().feed(text[: len("```python\n") + cut])
    final = render(text)[0]
    shown = open_[0] if open_ else None
    if shown is not None:
        assert shown.tag == "pre"
        code = plain_text(shown)
        assert final.children[0].children[0].startswith(code)  # never a stray backtick
