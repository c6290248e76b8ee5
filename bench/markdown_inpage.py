"""In-page half of bench/browser_markdown.py (runs in Pyodide; also importable under CPython
with a fake DOM-less mode: only the parse figures).  Prints nothing; returns figures."""

from __future__ import annotations

import time


def _stats(xs: list[float]) -> dict[str, float]:
    xs = sorted(xs)
    if not xs:
        return {}
    return {
        "n": len(xs),
        "median": xs[len(xs) // 2],
        "p95": xs[min(len(xs) - 1, int(len(xs) * 0.95))],
        "max": xs[-1],
        "total": sum(xs),
    }


def run(text: str, chunk: int, *, dom: bool) -> dict:
    from wiggum.ui.markdown import parser, render
    from wiggum.ui.markdown_stream import MarkdownStream

    now = time.perf_counter
    out: dict = {}
    t = now()
    md = parser()
    md.parse("warm *up*")
    if dom:  # what the page does while idle after boot
        from wiggum.web.markdown_view import _WARM_UP

        MarkdownStream().feed(_WARM_UP, final=True)
    out["parser_ms"] = (now() - t) * 1000
    t = now()
    md.parse(text)
    out["markdown_it_parse_ms"] = (now() - t) * 1000
    t = now()
    render(text)
    out["tree_at_once_ms"] = (now() - t) * 1000
    ends = [*range(chunk, len(text), chunk), len(text)]
    # The reference, in the same run: markdown-it-py alone, parsing the whole text
    # so far at every chunk (what a naive re-render would parse).
    naive: list[float] = []
    for end in ends:
        t = now()
        md.parse(text[:end])
        naive.append((now() - t) * 1000)
    out["markdown_it_per_chunk"] = _stats(naive)
    per: list[float] = []
    if dom:
        import js

        from wiggum.web.dom import render_markdown
        from wiggum.web.markdown_view import StreamingMarkdown

        host = js.document.createElement("div")
        js.document.body.appendChild(host)
        t = now()
        host.appendChild(render_markdown(text))
        out["dom_at_once_ms"] = (now() - t) * 1000
        host.replaceChildren()
        # As the page renders a stream: each chunk fed, then slices until the work is
        # done (the page runs each slice in a task of its own); the last chunk is
        # finish(), and its code blocks are coloured in slices after it.
        view = StreamingMarkdown(host, interval=0)  # every chunk rendered (the page: ~30/s)
        slices: list[float] = []
        for end in ends:
            spent = 0.0
            if end == len(text):
                t = now()
                view.finish(text)
                spent = (now() - t) * 1000
                slices.append(spent)
            else:
                view._pace.latest = text[:end]
            while view._slices or view._pace.latest is not None:
                t = now()
                view._slices.run()
                ms = (now() - t) * 1000
                slices.append(ms)
                spent += ms
            per.append(spent)
        out["slices"] = _stats(slices)
        out["renders"] = view.renders
        host.remove()
    else:
        stream = MarkdownStream()
        for end in ends:
            t = now()
            stream.feed(text[:end], final=end == len(text))
            per.append((now() - t) * 1000)
    out["per_chunk"] = _stats(per)
    out["slowest"] = sorted(((round(ms, 1), i) for i, ms in enumerate(per)), reverse=True)[:5]
    return out
