"""The site checks that need no model, and how their findings reach Ralph's next context."""

from __future__ import annotations

import json

from tests.ralph.script import PROVIDER, Script, completion, sent_messages, transport
from wiggum.fs import MemoryFileStore
from wiggum.ralph import RalphConfig, RalphLoop, RunRequest
from wiggum.ralph.gates import EntryPageGate, LocalRefsGate
from wiggum.ralph.site_checks import (
    PHONE,
    PageBasicsGate,
    audit_site,
    page_basics,
    run_site_checks,
    site_check_gates,
)
from wiggum.ralph.types import GateIssue

GOOD = (
    '<!DOCTYPE html>\n<html lang="en">\n<head><meta charset="utf-8"><title>Good</title>\n'
    '<meta name="viewport" content="width=device-width, initial-scale=1"></head>\n'
    '<body><img src="a.png" alt="A cat"><img src="b.png" alt=""></body></html>\n'
)
BARE = "<!DOCTYPE html>\n<html>\n<head></head>\n<body>\n<p>x</p>\n<img src='cat.png'>\n</body>\n</html>\n"


FIXED = GOOD.replace('<img src="a.png" alt="A cat"><img src="b.png" alt="">', "<p>ok</p>")
BROKEN_LINK = BARE.replace("<p>x</p>", '<a href="nope.html">x</a>')


def test_a_page_without_title_lang_viewport_or_alt_is_told_where():
    assert page_basics("index.html", GOOD) == []
    issues = page_basics("index.html", BARE)
    assert [(i.line, i.message.split(" ")[0]) for i in issues] == [
        (1, "the"),
        (2, "<html>"),
        (1, "no"),
        (6, "<img"),
    ]
    assert "title" in issues[0].message and "lang" in issues[1].message
    assert "viewport" in issues[2].message and "alt" in issues[3].message
    assert all(i.hint for i in issues)
    empty_title = GOOD.replace("<title>Good</title>", "<title> </title>")
    assert page_basics("a.html", empty_title)[0].message.startswith("the page has no")


async def test_the_checks_run_in_order_and_a_check_that_breaks_says_so():
    fs = MemoryFileStore()
    await fs.write_text("index.html", BARE.replace("<p>x</p>", '<a href="nope.html">x</a>'))
    await fs.write_text(".ralph/plan.md", "<html>")  # not the site

    class Broken:
        name = "broken"

        async def check(self, fs):
            raise RuntimeError("no engine")

    async def audit(fs):
        return [("overflow", [GateIssue(path="index.html", line=5, message="too wide")])]

    report = await run_site_checks(fs, [*site_check_gates(), Broken()], audit)
    names = [(r.gate, r.passed) for r in report.results]
    assert names == [
        ("html_parses", True),
        ("local_refs", False),
        ("page_basics", False),
        ("broken", True),
        ("overflow", False),
    ]
    assert report.results[3].message == "not run: RuntimeError: no engine"
    assert report.issues == 2 + 4 + 1  # the link, the image; the basics; the overflow
    assert "nope.html" in report.results[1].message and "390 px" in report.results[4].message


async def test_what_the_site_checks_find_goes_into_the_next_iteration_once():
    fs = MemoryFileStore()
    s = Script()
    t = transport(
        s.reply("Writing.", ("write_file", {"path": "index.html", "content": BROKEN_LINK})),
        s.reply(completion()),
        s.reply("Fixing.", ("write_file", {"path": "index.html", "content": FIXED})),
        s.reply(completion()),
    )
    rounds = []

    async def site_checks(fs):
        report = await run_site_checks(fs, [LocalRefsGate(), PageBasicsGate()])
        rounds.append(report)
        return report

    loop = RalphLoop(
        PROVIDER,
        fs,
        config=RalphConfig(max_iterations=3),
        transport=t,
        gates=[EntryPageGate(), LocalRefsGate()],
        site_checks=site_checks,
    )
    result = await loop.run(RunRequest("Build a page."))
    assert str(result.status) == "complete" and result.iterations == 2
    # Iteration 1 ended on a failed gate; the site checks found more, fed back with it.
    assert len(rounds) == 1
    second = json.dumps(sent_messages(t, 2))
    assert "Site checks after your last iteration" in second
    assert "## page_basics" in second and "index.html line 6" in second
    assert second.count("## local_refs") == 1  # the gate's, not said twice


WIDE = (
    '<!DOCTYPE html>\n<html lang="en">\n<body>\n<main>\n'
    '<div id="wide" style="width: 900px">x</div>\n<p class="banner big">y</p>\n</main>\n'
    "</body>\n</html>\n"
)


async def test_the_browser_audit_loads_the_entry_page_at_a_phones_width_and_places_what_it_found():
    fs = MemoryFileStore({"index.html": WIDE})
    loads: list[tuple[str, int]] = []

    async def load(html: str, width: int):
        loads.append((html, width))
        found = {
            "overflow": [
                {"tag": "div", "id": "wide", "cls": "", "right": 900},
                {"tag": "p", "id": "", "cls": "banner big", "right": 640},
                {"tag": "canvas", "id": "", "cls": "", "right": 500},  # made by a script
            ]
        }
        return found, ["TypeError: x is null (index.html line 9)"]

    found = dict(await audit_site(fs, load))
    ((html, width),) = loads
    assert width == PHONE == 390
    assert html.index('data-wiggum-preview="storage"') < html.index("<main>")
    assert html.rstrip().endswith("</script>") and "wiggum-preview-audit" in html
    assert [(i.line, i.message) for i in found["overflow"]] == [
        (5, '<div id="wide"> reaches 900 px on a 390 px wide phone'),
        (6, '<p class="banner big"> reaches 640 px on a 390 px wide phone'),
        (None, "<canvas> reaches 500 px on a 390 px wide phone"),
    ]
    assert [i.message for i in found["console"]] == ["TypeError: x is null (index.html line 9)"]

    async def silent(html: str, width: int):
        return None, []  # the audit never answered: nothing to place

    assert dict(await audit_site(fs, silent)) == {"overflow": [], "console": []}
    assert await audit_site(MemoryFileStore({"notes.txt": "x"}), load) == []
    assert len(loads) == 1  # no entry page: nothing is loaded (its gate says why)
