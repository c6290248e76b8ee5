"""A scripted run of Ralph's for the run-review tests (CPython and e2e): five
iterations that each write one file, the fourth dropping the home page's
``<title>`` (the break bisect finds), then his report.

An iteration ends when his reply is no report twice (the loop asks for one
once): so each is his intent with a write, then two replies of words.
"""

from __future__ import annotations

import json

from tests.sim import ToolCall, Turn

__all__ = ["GOOD", "INTENTS", "MENU", "NO_TITLE", "RUN", "iteration"]

GOOD = (
    '<!doctype html>\n<html lang="en">\n<head>\n<title>Bakery</title>\n'
    '<meta name="viewport" content="width=device-width, initial-scale=1">\n</head>\n'
    '<body>\n<h1>Bakery</h1>\n<a href="menu.html">Menu</a>\n</body>\n</html>\n'
)
MENU = GOOD.replace('href="menu.html">Menu', 'href="index.html">Home')
NO_TITLE = GOOD.replace("<title>Bakery</title>\n", "")
#: Each iteration's intent, in order.
INTENTS = [
    "Write the home page.",
    "Write the menu.",
    "Add a stylesheet.",
    "Shorten the home page's head.",
    "Add a footer note.",
]
WRITES = [
    ("index.html", GOOD),
    ("menu.html", MENU),
    ("style.css", "h1 { margin: 0 }\n"),
    ("index.html", NO_TITLE),
    ("footer.txt", "(c) the bakery\n"),
]


def iteration(intent: str, path: str, content: str) -> list[Turn]:
    """His intent with a write, then words that are no report: the iteration ends."""
    call = ToolCall("write_file", {"path": path, "content": content})
    return [Turn(intent, call), Turn("Carrying on."), Turn("Still carrying on.")]


RUN = [
    *(
        turn
        for intent, write in zip(INTENTS, WRITES, strict=True)
        for turn in iteration(intent, *write)
    ),
    Turn(json.dumps({"status": "complete", "summary": "The bakery's site is built."})),
]
