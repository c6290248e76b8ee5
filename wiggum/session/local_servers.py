"""Model servers on this machine, found by themselves: which ports to look at,
what each answer means, and what the first screen says of it.

A person who runs Ollama, LM Studio, llama.cpp or vLLM should not have to know
its address: the first screen asks each well-known port for its model list
(the same request Settings' "Load models" sends, through the same transport)
with a short timeout, and lists what answered with its models.  A browser
cannot tell a server that is off from one that refuses this page's origin
(both are a failed ``fetch``), so a refused list is followed by a ``no-cors``
request (``reachable``): an answer to that means the server is there and
only the origin is wrong, and the fix says exactly which origin to allow.

Something else on a port (Wiggum itself under ``python build.py serve`` on
8000, any web page) answers, but with no model list: it is not listed.

Where browsers ask the person before a public page reaches this machine
(Chrome's local network access prompt), probing on its own would greet every
first visit with that question: :func:`probe_on_open` says to look by
itself only when the page itself is served from this machine or the local
network, and otherwise behind a button.
"""

from __future__ import annotations

import asyncio
import ipaddress
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Literal
from urllib.parse import urlsplit

from wiggum.llm import LLMError, NetworkError
from wiggum.llm.transport import Transport
from wiggum.ui.markup.onboarding import LocalRow
from wiggum.ui.models import ModelOption, list_models
from wiggum.ui.presets import preset
from wiggum.ui.settings import ProviderSettings

__all__ = [
    "PROBE_TIMEOUT",
    "SERVERS",
    "Found",
    "LocalServer",
    "extra_servers",
    "find_local_servers",
    "probe_on_open",
    "rows",
]

#: Seconds a port has to answer: a server on this machine answers in
#: milliseconds; waiting longer only holds the list back.
PROBE_TIMEOUT = 1.5


@dataclass(frozen=True, slots=True)
class LocalServer:
    """A well-known local server: its name, port and the preset it is set up with."""

    name: str
    port: int
    preset: Literal["ollama", "local"]

    def base_url(self, host: str = "localhost") -> str:
        path = "" if self.preset == "ollama" else "/v1"
        return f"http://{host}:{self.port}{path}"


SERVERS = (
    LocalServer("Ollama", 11434, "ollama"),
    LocalServer("LM Studio", 1234, "local"),
    LocalServer("llama.cpp", 8080, "local"),
    LocalServer("vLLM", 8000, "local"),
)


#: Where more ports to ask are kept (localStorage), comma-separated: a server
#: started on a port of its own.
EXTRA_PORTS_KEY = "wiggum.local.ports"


def extra_servers(stored: str | None) -> tuple[LocalServer, ...]:
    """The OpenAI-compatible servers on the ports stored under
    :data:`EXTRA_PORTS_KEY` (anything that is not a port is left out)."""
    ports = [p.strip() for p in (stored or "").split(",")]
    found = sorted({int(p) for p in ports if p.isdigit() and 0 < int(p) < 65536})
    return tuple(LocalServer(f"Server on port {port}", port, "local") for port in found)


@dataclass(frozen=True, slots=True)
class Found:
    """A server that answered: its models, or why this page cannot use it yet."""

    server: LocalServer
    base_url: str
    models: list[ModelOption] = field(default_factory=list)
    #: Set when the server is there but refuses this page's origin: the fix.
    fix: str | None = None

    def settings(self) -> ProviderSettings:
        """The provider to save when the person picks it (the first model chosen)."""
        first = self.models[0].id if self.models else ""
        return ProviderSettings.from_preset(
            self.server.preset, name=self.server.name, base_url=self.base_url, model=first
        )


def origin_fix(server: LocalServer, origin: str) -> str:
    """How to make ``server`` accept this page, with the page's exact origin."""
    if server.name == "vLLM":
        return f"Start vLLM with --allowed-origins '[\"{origin}\"]' so it accepts this page."
    if server.name == "llama.cpp":
        return (
            "llama.cpp's server refused this page: run a recent llama-server (it answers "
            f"web pages), or put it behind a proxy that allows {origin}."
        )
    if server.name == "LM Studio":
        return (
            "In LM Studio turn on “Enable CORS” in the Developer tab "
            f"(or `lms server start --cors`) so it accepts this page ({origin})."
        )
    return (preset(server.preset).origin_fix or "").format(origin=origin)


def probe_on_open(origin: str) -> bool:
    """Whether to look for local servers as the first screen opens (a page served
    from this machine or the local network), rather than when asked."""
    host = urlsplit(origin).hostname or ""
    if host == "localhost" or host.endswith((".localhost", ".local")):
        return True
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return False
    return address.is_loopback or address.is_private


async def _probe(
    server: LocalServer,
    host: str,
    origin: str,
    transport: Transport | None,
    reachable: Callable[[str], Awaitable[bool]],
) -> Found | None:
    found = Found(server, server.base_url(host))
    config = found.settings()
    try:
        models = await list_models(config, transport, timeout=PROBE_TIMEOUT)
    except NetworkError:
        # Off, or there but refusing this page: only the server's answer to a
        # request that needs no permission tells which.
        if await reachable(found.base_url):
            return Found(server, found.base_url, fix=origin_fix(server, origin))
        return None
    except LLMError:
        return None  # something that is not a model server answered
    if not models:
        return None
    return Found(server, found.base_url, models)


async def find_local_servers(
    origin: str,
    reachable: Callable[[str], Awaitable[bool]],
    transport: Transport | None = None,
    *,
    servers: tuple[LocalServer, ...] = SERVERS,
    host: str = "localhost",
) -> list[Found]:
    """The servers of ``servers`` that answered, in their order, all asked at once.
    A server on the page's own origin is not asked (it is this page)."""
    own = urlsplit(origin)
    asked = [s for s in servers if not (own.hostname == host and own.port == s.port)]
    results = await asyncio.gather(*(_probe(s, host, origin, transport, reachable) for s in asked))
    return [r for r in results if r is not None]


#: What the list says while the ports are asked, and when none answered.
LOOKING = "Looking for model servers on this computer…"
NONE_FOUND = (
    "No model server answered on this computer (Ollama 11434, LM Studio 1234, "
    "llama.cpp 8080, vLLM 8000)."
)
#: Models shown by name in a row; the rest are counted.
SHOWN_MODELS = 4


def rows(found: list[Found]) -> list[LocalRow]:
    """The first screen's line for each server found: what it holds, or its fix."""
    out = []
    for index, f in enumerate(found):
        names = [m.id for m in f.models]
        more = len(names) - SHOWN_MODELS
        summary = ", ".join(names[:SHOWN_MODELS]) + (f" and {more} more" if more > 0 else "")
        out.append(LocalRow(index, f.server.name, f.base_url, summary, f.fix))
    return out
