"""What Ralph keeps between runs: his reflections, and the commands he missed.

At the end of a run one structured call (``output_schema=RalphReflection``,
through the client like any other) asks him what worked, what failed and what
to try next; :func:`render_reflection` turns it into a section of
``.ralph/reflections.md`` (one per run, newest last) and the next run's context
shows the latest :data:`SHOWN_RUNS` sections.  When that call cannot be made
(the cap is reached, the provider fails) :func:`plain_reflection` writes what
is known without a model: how the run ended and the commands he missed, so the
next run learns those anyway.

Commands the shell lacks answer "command not found" with the alternative
(``wiggum.tools.shell.safety.ALTERNATIVES``); :func:`missing_commands` reads
which from a shell result, so the run can record them.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Awaitable, Callable, Iterable

from wiggum.llm import LLMError, LLMResponse, Message, parse_output

from .state import REFLECTIONS, RalphState
from .types import RalphReflection

__all__ = [
    "REFLECTION_PROMPT",
    "SHOWN_RUNS",
    "latest_reflections",
    "missing_commands",
    "plain_reflection",
    "reflect",
    "reflection_messages",
    "render_reflection",
]

#: Sections of ``reflections.md`` shown in his context (the file keeps them all).
SHOWN_RUNS = 3
_NOT_FOUND = re.compile(r"^([\w.+-]+): command not found", re.M)
_HEADING = "## Run "

REFLECTION_PROMPT = """\
You are Ralph, a build agent, looking back at a run that just ended. Answer with
JSON only: {"worked": [...], "failed": [...], "try_next": [...]}, each a list of
short sentences (at most five each) that will help the next run on this project:
approaches and files that worked, what failed and why, what to do differently.
Be concrete (file names, commands); no praise, no apologies."""


def reflection_messages(
    status: str, error: str | None, summary: str, progress: str, missing: Iterable[str]
) -> list[Message]:
    """The one call's messages: the run's end, his last summary and progress."""
    parts = [f"The run ended: {status}."]
    if error:
        parts.append(f"Why: {error}")
    missing = sorted(set(missing))
    if missing:
        parts.append("Commands the shell did not have: " + ", ".join(missing))
    parts.append(f"## Last iteration (.ralph/summary.md)\n{summary.strip() or '(none)'}")
    parts.append(f"## Progress (.ralph/progress.md)\n{progress.strip()[-4000:] or '(none)'}")
    return [Message.system(REFLECTION_PROMPT), Message.user("\n\n".join(parts))]


def plain_reflection(status: str, error: str | None, missing: Iterable[str]) -> RalphReflection:
    """What is known without asking the model (the call could not be made)."""
    failed = [f"The run ended {status}: {error}"] if error else []
    missing = sorted(set(missing))
    try_next = [f"Do not call {name}: the shell has no such command." for name in missing]
    return RalphReflection(failed=failed, try_next=try_next)


def _items(title: str, items: list[str]) -> str:
    lines = "\n".join(f"- {' '.join(i.split())}" for i in items if i.strip())
    return f"### {title}\n{lines or '- (nothing)'}\n"


def render_reflection(
    run_id: str, status: str, reflection: RalphReflection, missing: Iterable[str]
) -> str:
    """One run's section of ``reflections.md``."""
    missing = sorted(set(missing))
    parts = [
        f"{_HEADING}{run_id or '?'} ({status})\n",
        _items("What worked", reflection.worked),
        _items("What failed", reflection.failed),
        _items("What to try next", reflection.try_next),
    ]
    if missing:
        parts.append(_items("Commands the shell does not have", missing))
    return "\n".join(parts)


def latest_reflections(text: str, runs: int = SHOWN_RUNS) -> str:
    """The last ``runs`` sections of ``reflections.md``."""
    sections = [s for s in re.split(rf"(?m)^(?={re.escape(_HEADING)})", text) if s.strip()]
    return "\n".join(s.strip() + "\n" for s in sections[-runs:])


def missing_commands(output: str) -> list[str]:
    """The commands a shell result said it does not have."""
    return _NOT_FOUND.findall(output)


async def reflect(
    state: RalphState,
    ask: Callable[[list[Message]], Awaitable[LLMResponse | None]],
    run_id: str,
    status: str,
    error: str | None,
    missing: list[str],
) -> RalphReflection:
    """Ask him (``ask``: the one structured call, ``None`` when it may not be made)
    what the run taught, append it to ``reflections.md`` and return it; without an
    answer, :func:`plain_reflection`."""
    reflection = plain_reflection(status, error, missing)
    messages = reflection_messages(
        status, error, await state.summary(), await state.progress(), missing
    )
    try:
        reply = await ask(messages)
    except LLMError as err:
        logging.getLogger("wiggum.ralph").warning(
            "ralph: the reflection call failed: %s", type(err).__name__
        )
        reply = None
    if reply is not None:
        if isinstance(reply.output, RalphReflection):
            reflection = reply.output
        else:
            parsed, _ = parse_output(reply.content, RalphReflection)
            reflection = parsed or reflection
    earlier = (await state.reflections()).rstrip()
    section = render_reflection(run_id, status, reflection, missing)
    await state.write(REFLECTIONS, f"{earlier}\n\n{section}" if earlier else section)
    return reflection
