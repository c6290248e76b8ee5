"""Time to give up on each fault: wiggum.llm beside the official openai and anthropic SDKs.

    python bench/faults.py [--timeout 2] [--only NAME ...] [--mode stream|chat]

The fault server of the tests (``tests/llm/fault_server.py``, ``faults.py``)
commits each fault on loopback, in the OpenAI and the Anthropic wire format.
Each client makes the same call against it with the same bound:

* wiggum    -- ``wiggum.llm.stream()`` / ``chat()`` as the page makes them:
               ``timeout`` and ``idle_timeout`` both ``--timeout``, default retries;
* openai    -- ``AsyncOpenAI(timeout=--timeout)``, default retries (2);
* anthropic -- ``AsyncAnthropic(timeout=--timeout)``, default retries (2).

Retry waits are real (this measures what a person would wait).  Per fault
and mode it prints, for each client, the seconds until it returned or gave
up, and what it returned: ``ok`` (the expected reply), ``ok?`` (a "success"
whose text is not the reply the server meant: a cut reply, a web page, an
empty reply), or the exception's class.  Nothing is asserted; the tests
assert behaviour (``tests/llm/test_fault_matrix.py``).
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import anthropic  # noqa: E402  (after the path: the tests' fault server is imported too)
import openai  # noqa: E402

from tests.llm.fault_server import FaultServer, refused_port  # noqa: E402
from tests.llm.faults import FAULTS, HANDLERS, Fault  # noqa: E402
from wiggum.llm import LLMError, Message, ProviderConfig, RequestOptions, chat, stream  # noqa: E402
from wiggum.llm.httpx_transport import HttpxTransport  # noqa: E402

KEY = "sk-bench-faults-0123456789"
#: Past this a client is taken to hang (it is stopped and "hung" is printed).
HANG = 120.0


def _base(server: FaultServer, fault: Fault, case: str, dialect: str) -> str:
    if fault.name == "refused":
        return f"http://127.0.0.1:{refused_port()}/{case}/ok/{dialect}" + (
            "/v1" if dialect == "openai" else ""
        )
    return server.base_url(case, fault.name, dialect)


def _said(text: str | None, expected: str | None) -> str:
    """``ok``: the reply the server meant; ``ok?``: a success that is not it (or
    a success where the server meant a failure: a cut reply, an error)."""
    return "ok" if expected is not None and text == expected else "ok?"


async def wiggum(base: str, dialect: str, mode: str, timeout: float, expected: str | None) -> str:
    provider = ProviderConfig(
        id="bench", kind=dialect, base_url=base, model="m", api_key=KEY, name="Bench"
    )
    options = RequestOptions(timeout=timeout, idle_timeout=timeout)
    transport = HttpxTransport()
    messages = [Message(role="user", content="hello")]
    try:
        if mode == "chat":
            reply = await chat(provider, messages, options, transport=transport)
        else:
            reply = await (await stream(provider, messages, options, transport=transport)).response
        return _said(reply.content, expected)
    except LLMError as err:
        return err.name
    finally:
        await transport.aclose()


async def _openai_text(client, mode: str) -> str | None:
    messages = [{"role": "user", "content": "hello"}]
    if mode == "chat":
        reply = await client.chat.completions.create(model="m", messages=messages)
        return reply.choices[0].message.content if reply.choices else None
    chunks = await client.chat.completions.create(model="m", messages=messages, stream=True)
    return "".join([c.choices[0].delta.content or "" async for c in chunks if c.choices])


async def _anthropic_text(client, mode: str) -> str | None:
    messages = [{"role": "user", "content": "hello"}]
    reply = await client.messages.create(
        model="m", max_tokens=64, messages=messages, stream=mode == "stream"
    )
    if mode == "chat":
        return "".join(b.text for b in reply.content if b.type == "text")
    return "".join(
        [
            e.delta.text
            async for e in reply
            if e.type == "content_block_delta" and e.delta.type == "text_delta"
        ]
    )


async def sdk(name: str, base: str, mode: str, timeout: float, expected: str | None) -> str:
    """One call through an official SDK (``openai`` or ``anthropic``), default retries."""
    if name == "openai":
        client, text = openai.AsyncOpenAI(base_url=base, api_key=KEY, timeout=timeout), _openai_text
    else:
        client = anthropic.AsyncAnthropic(base_url=base, api_key=KEY, timeout=timeout)
        text = _anthropic_text
    try:
        return _said(await text(client, mode), expected)
    except Exception as err:  # what the SDK raises is what is measured
        return type(err).__name__
    finally:
        await client.close()


def _call(column: str, base: str, mode: str, timeout: float, expected: str | None):
    if column.endswith(" SDK"):
        return sdk(column.split()[0], base, mode, timeout, expected)
    return wiggum(base, column.split("/")[1], mode, timeout, expected)


async def timed(call) -> tuple[float, str]:
    started = time.monotonic()
    try:
        said = await asyncio.wait_for(call, HANG)
    except TimeoutError:
        said = "hung"
    return time.monotonic() - started, said


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--timeout", type=float, default=2.0, help="every client's bound (s)")
    parser.add_argument("--only", nargs="*", help="fault names to run (default: all)")
    parser.add_argument("--mode", choices=["stream", "chat"], help="one mode only")
    args = parser.parse_args()
    faults = [f for f in FAULTS if not args.only or f.name in args.only]
    modes = [args.mode] if args.mode else ["stream", "chat"]
    head = f"{'fault':<24} {'mode':<6} "
    columns = ("wiggum/openai", "openai SDK", "wiggum/anthropic", "anthropic SDK")
    print(f"bound {args.timeout:g} s, default retries; seconds to return or give up, and what")
    print(head + "".join(f"{c:>26}" for c in columns))
    totals = dict.fromkeys(columns, 0.0)
    async with FaultServer(HANDLERS) as server:
        for fault in faults:
            for mode in modes:
                cells = []
                for column in columns:
                    dialect = "anthropic" if "anthropic" in column else "openai"
                    case = f"bench-{fault.name}-{mode}-{column.replace('/', '-').replace(' ', '-')}"
                    base = _base(server, fault, case, dialect)
                    # the reply the server meant (a success with other text is "ok?")
                    outcome = fault.expect(mode, dialect)
                    expected = outcome.content if outcome.error is None else None
                    call = _call(column, base, mode, args.timeout, expected)
                    seconds, said = await timed(call)
                    totals[column] += seconds
                    cells.append(f"{seconds:6.2f} s {said[:16]:<16}")
                print(f"{fault.name:<24} {mode:<6} " + "".join(f"{c:>26}" for c in cells))
    print(f"{'total':<31} " + "".join(f"{totals[c]:>24.1f} s" for c in columns))


if __name__ == "__main__":
    asyncio.run(main())
