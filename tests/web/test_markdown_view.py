"""A reply's markdown in the page: streamed in slices, it ends as the DOM that
rendering it at once builds (``wiggum.web.markdown_view``, ``wiggum.web.dom``),
attributes in the same order, code coloured, tables wrapped, at any depth."""

from __future__ import annotations

from typing import Any

REPLY = (
    "# Plan\n\nSome *words* and `code`.\n\n```python\nx = 1\nprint(x)\n```\n\n"
    "| a | b |\n|:--|--:|\n| 1 | 2 |\n\n"
    "- one\n\n  ```js\n  let y = 2;\n  ```\n\n  | q |\n  |---|\n  | 3 |\n- [x] two\n\n"
    "```\nplain text\n```\n\nThe end.\n"
)


def markup(node: Any) -> str:
    """``node``'s outer HTML as ``innerHTML`` orders it (attributes as set)."""
    if node.nodeType != 1:
        return repr(node.textContent)
    attrs = "".join(f' {k}="{v}"' for k, v in node._attrs.items())
    style = node.style.cssText
    inside = "".join(markup(child) for child in node.childNodes)
    return f"<{node.localName}{attrs}{f' style={style!r}' if style else ''}>{inside}</>"


async def test_a_reply_streamed_in_slices_ends_as_the_dom_rendered_at_once(dom):
    from wiggum.ui.highlight import load_lexer
    from wiggum.web.dom import render_markdown
    from wiggum.web.markdown_view import StreamingMarkdown

    for lang in ("python", "js"):
        load_lexer(lang)
    at_once = dom.document.createElement("div")
    at_once.appendChild(render_markdown(REPLY))
    host = dom.document.createElement("div")
    dom.document.body.appendChild(host)
    view = StreamingMarkdown(host, interval=0)
    for end in range(9, len(REPLY) + 9, 9):
        view.feed(REPLY[:end])
        await dom.flush()
    assert view.renders > 10  # drawn as it came, not once at the end
    view.finish(REPLY)
    await dom.until(lambda: not host.hasAttribute("data-rendering"))
    assert markup(host) == markup(at_once)
    assert len(host.querySelectorAll(".codeblock code.hl")) == 2  # python, js; plain stays so
    assert len(host.querySelectorAll(".table-wrap > table")) == 2
    assert host.querySelector("li .codeblock[data-lang=js] .codeblock-copy")
