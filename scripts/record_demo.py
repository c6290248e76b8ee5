"""Record the demo ("See it build a site") from the provider simulator.

    python scripts/record_demo.py        # writes wiggum/session/data/demo.json

The real app's session layer (Chief, the hand-off, Ralph's loop with his
tools, checkpoints) runs under CPython against the provider simulator, whose
turns below are the session; every answer it sends is kept as it was sent,
marked with who asked (``wiggum.session.demo.asker``).  The page replays
them through ``wiggum.session.demo.DemoTransport``; ``tests/session/test_demo.py``
replays the committed file the same way.
"""

from __future__ import annotations

import asyncio
import json
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "tests" / "session")]

from fakes import ProjectRig, sim_settings  # noqa: E402

from tests.sim import Simulator, ToolCall, Turn  # noqa: E402
from wiggum.llm.httpx_transport import HttpxTransport  # noqa: E402
from wiggum.llm.transport import ReplayResponse  # noqa: E402
from wiggum.session.demo import LABEL, Recorded, Recording, asker  # noqa: E402

OUT = ROOT / "wiggum" / "session" / "data" / "demo.json"
MODEL = "recorded-session"  # no price, no context window: nothing is billed
PERSON = [
    "A one-page site for my bakery, Crumb & Co: opening hours, three breads, how to find us.",
    "Yes, that's it. Build it.",
]
PAGE = """<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Crumb &amp; Co</title>
<link rel="stylesheet" href="style.css">
</head>
<body>
<header><h1>Crumb &amp; Co</h1><p>Bread baked at dawn, every day but Monday.</p></header>
<main>
<section><h2>Opening hours</h2><p>Tuesday to Sunday, 7:00 to 14:00.</p></section>
<section><h2>Our breads</h2>
<ul><li>Sourdough country loaf</li><li>Rye with caraway</li><li>Milk brioche</li></ul>
</section>
<section><h2>Find us</h2><p>12 Mill Lane, next to the old bridge.</p></section>
</main>
</body>
</html>
"""
STYLE = """body { font-family: Georgia, serif; margin: 0; color: #3b2a1a; background: #fdf8f0; }
header { background: #c8893c; color: #fff; padding: 2rem 1rem; text-align: center; }
main { max-width: 40rem; margin: 0 auto; padding: 1rem; }
h2 { border-bottom: 2px solid #e8d3b0; }
"""
PLAN = (
    "Build a one-page site for Crumb & Co, a bakery: a header with its name and a line "
    "about it; sections for opening hours (Tue-Sun 7:00-14:00), three breads "
    "(sourdough, rye with caraway, milk brioche) and where to find it (12 Mill Lane). "
    "index.html and style.css, warm colours, readable on a phone."
)
TURNS = [
    Turn(
        "A warm one-pager suits a bakery. I would make it: a header with Crumb & Co and a "
        "line about your bread; **opening hours**; **three breads**; **how to find you**. "
        "Shall I hand this to Ralph to build?",
        chunks=12,
    ),
    Turn(
        "Handing it to Ralph now.",
        ToolCall("send_to_ralph", {"prompt": PLAN, "plan_summary": "A one-page bakery site"}),
    ),
    Turn("Ralph is building it now: watch his tab.", chunks=4),
    Turn("Writing the page.", ToolCall("write_file", {"path": "index.html", "content": PAGE})),
    Turn("Adding the styles.", ToolCall("write_file", {"path": "style.css", "content": STYLE})),
    Turn(json.dumps({"status": "complete", "summary": "index.html and style.css are written."})),
    Turn(
        "Ralph finished your page: the header, hours, breads and directions are in "
        "index.html, styled by style.css. The preview shows it.",
        chunks=8,
    ),
]


class Recorder:
    """The simulator's answers as sent, each marked with who asked."""

    def __init__(self) -> None:
        self.inner = HttpxTransport()
        self.answers: list[Recorded] = []

    async def send(self, request):
        response = await self.inner.send(request)
        body = await response.aread()
        kind = response.headers.get("content-type", "text/event-stream").split(";")[0]
        answer = Recorded(
            asker=asker(request.body), status=response.status, content_type=kind, body=body.decode()
        )
        self.answers.append(answer)
        return ReplayResponse(body, response.status, dict(response.headers))


async def record() -> Recording:
    recorder = Recorder()
    with Simulator() as sim:
        sim.script(TURNS)
        settings = sim_settings(sim)
        settings.providers[0].model = MODEL
        rig = ProjectRig(settings, transport=recorder)
        await rig.open(LABEL)
        for text in PERSON:
            rig.chief.send(text)
            await rig.host.settle()
            await rig.session.coordinator.wait()
            await rig.host.settle()
        files = sorted(p for p in await rig.session.fs.list() if not p.startswith("."))
        print("files:", files, "answers:", [a.asker for a in recorder.answers])
    return Recording(model=MODEL, project=LABEL, person=PERSON, answers=recorder.answers)


def main() -> None:
    recording = asyncio.run(record())
    OUT.parent.mkdir(parents=True, exist_ok=True)
    OUT.write_text(recording.model_dump_json(indent=1) + "\n", encoding="utf-8")
    print(f"wrote {OUT.relative_to(ROOT)} ({OUT.stat().st_size} bytes)")


if __name__ == "__main__":
    main()
