"""The site's storage per project, and what Fix / Ask Chief send, under CPython."""

from __future__ import annotations

from wiggum.fs import MemoryFileStore
from wiggum.persist import MemoryAppStorage
from wiggum.session.site_fix import Problem, ProblemDesk, ask_chief_text, excerpt, fix_task
from wiggum.session.site_storage import SLOT, SiteStorages


async def test_local_storage_and_cookies_are_kept_per_project_and_session_storage_per_tab():
    app = MemoryAppStorage()
    one, two = [await app.create_project(n) for n in ("One", "Two")]
    tab = SiteStorages(app)
    site = tab.for_project(one["id"])
    assert site.apply("local", {"todos": "[1]"}) and site.apply("session", {"v": "1"})
    assert site.apply("cookie", {"last": "x"})
    assert not site.apply("local", {"todos": 1})  # not a storage message: ignored
    await site.saved()
    assert (await app.load_messages(one["id"], SLOT))[-1] == {
        "local": {"todos": "[1]"},
        "cookie": {"last": "x"},
    }
    assert await tab.for_project(two["id"]).snapshot() == {"local": {}, "session": {}, "cookie": {}}
    # A reload of the page (a new tab's storages): kept ones back, the session's gone.
    again = await SiteStorages(app).for_project(one["id"]).snapshot()
    assert again == {"local": {"todos": "[1]"}, "session": {}, "cookie": {"last": "x"}}
    await app.delete_project(one["id"])
    assert await SiteStorages(app).for_project(one["id"]).snapshot() == {
        "local": {},
        "session": {},
        "cookie": {},
    }


def test_an_excerpt_numbers_the_lines_around_the_problem_and_marks_it():
    text = "\n".join(f"line {n}" for n in range(1, 31))
    shown = excerpt(text, 12, around=2).splitlines()
    assert shown == [
        " 10 | line 10",
        " 11 | line 11",
        ">12 | line 12",
        " 13 | line 13",
        " 14 | line 14",
    ]
    assert excerpt("", 3) == "" and excerpt("a\nb", 0).splitlines() == [" 1 | a", " 2 | b"]


PROBLEM = Problem(
    "TypeError: Cannot set properties of null (setting 'textContent')",
    "js/app.js",
    5,
    "TypeError: ...\n    at HTMLButtonElement.<anonymous> (js/app.js:5)",
    what="An uncaught error in the preview",
)


def test_the_fix_task_carries_the_error_its_place_stack_code_and_console():
    source = "const go = 1;\n\n\nconst out = null;\nout.textContent = 'x';\n"
    task = fix_task(PROBLEM, source, ["[warn] old data", "[error] TypeError ..."])
    for part in (
        PROBLEM.text,
        "Where: js/app.js line 5",
        "at HTMLButtonElement.<anonymous> (js/app.js:5)",
        ">5 | out.textContent = 'x';",
        "- [warn] old data",
        "Done when",
    ):
        assert part in task, part
    bare = fix_task(Problem("no <title>", "index.html", what="A site check", hint="add one"), None)
    assert "Suggested fix: add one" in bare and "## Stack" not in bare and "around line" not in bare
    assert "js/app.js line 5" in ask_chief_text(PROBLEM) and PROBLEM.text in ask_chief_text(PROBLEM)


async def test_fix_reads_the_file_and_starts_ralph_and_ask_fills_chiefs_box():
    fs = MemoryFileStore()
    await fs.write_text("js/app.js", "a\nb\nc\nd\nout.textContent = 'x';\n")
    started: list[str] = []
    drafts: list[str] = []

    async def start(task: str) -> None:
        started.append(task)

    desk = ProblemDesk(lambda: fs, start, drafts.append, lambda coro, what: coro)
    task = await desk.fix(PROBLEM, ["[log] ready"])
    assert started == [task] and ">5 | out.textContent = 'x';" in task and "[log] ready" in task
    desk.ask(PROBLEM)
    assert drafts == [ask_chief_text(PROBLEM)]
    gone = Problem("x", "gone.js", 2)
    assert "around line" not in await desk.fix_now(gone, [])
