"""Local model servers found by themselves (wiggum.session.local_servers), against
the provider simulator over real HTTP: its models listed, a server that refuses
this page's origin named with the exact fix, an empty port and a port that is
no model server left out.  ``Browserlike`` is httpx with the browser's one rule
that matters here: an answer without this origin in Access-Control-Allow-Origin
is a failed fetch, which looks like a server that is off."""

from __future__ import annotations

import http.server
import socket
import threading

import httpx
import pytest

from tests.sim import Simulator
from wiggum.llm import NetworkError
from wiggum.llm.httpx_transport import HttpxTransport
from wiggum.session.local_servers import (
    SERVERS,
    LocalServer,
    find_local_servers,
    probe_on_open,
)

ORIGIN = "http://127.0.0.1:8765"


class Browserlike:
    def __init__(self, inner: HttpxTransport, origin: str) -> None:
        self.inner, self.origin = inner, origin

    async def send(self, request):
        request.headers = {**request.headers, "Origin": self.origin}
        response = await self.inner.send(request)
        allowed = response.headers.get("access-control-allow-origin")
        if allowed not in ("*", self.origin):
            await response.aclose()
            raise NetworkError("Failed to fetch", maybe_cors=True)
        return response


async def reachable(url: str) -> bool:
    """A ``no-cors`` fetch: any HTTP answer at all."""
    try:
        async with httpx.AsyncClient(timeout=2) as client:
            await client.get(url)
    except httpx.HTTPError:
        return False
    return True


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
async def browser(transport):
    return Browserlike(transport, ORIGIN)


async def test_a_server_that_answers_is_listed_with_its_models(browser):
    with Simulator(models=["llama3.2", "qwen2.5-coder"]) as sim:
        servers = (LocalServer("Ollama", sim.port, "ollama"),)
        found = await find_local_servers(
            ORIGIN, reachable, browser, servers=servers, host="127.0.0.1"
        )
    assert [f.server.name for f in found] == ["Ollama"]
    assert [m.id for m in found[0].models] == ["llama3.2", "qwen2.5-coder"]
    assert found[0].fix is None
    chosen = found[0].settings()
    assert chosen.base_url == f"http://127.0.0.1:{sim.port}" and chosen.model == "llama3.2"


async def test_a_server_refusing_this_origin_is_listed_with_the_exact_fix(browser):
    with Simulator(cors=False) as ollama, Simulator(cors=False) as lmstudio:
        servers = (
            LocalServer("Ollama", ollama.port, "ollama"),
            LocalServer("LM Studio", lmstudio.port, "local"),
        )
        found = await find_local_servers(
            ORIGIN, reachable, browser, servers=servers, host="127.0.0.1"
        )
    assert [f.server.name for f in found] == ["Ollama", "LM Studio"]
    assert all(not f.models for f in found)
    assert f"OLLAMA_ORIGINS={ORIGIN}" in found[0].fix
    assert "Enable CORS" in found[1].fix and ORIGIN in found[1].fix


class WebPage(http.server.BaseHTTPRequestHandler):
    """A web server that allows any origin but serves no model list."""

    def do_GET(self):
        self.send_response(200)
        self.send_header("Content-Type", "text/html")
        self.send_header("Access-Control-Allow-Origin", "*")
        self.end_headers()
        self.wfile.write(b"<!doctype html><title>my site</title>")

    def log_message(self, *args):
        pass


async def test_an_empty_port_and_a_page_that_is_no_model_server_are_left_out(browser):
    page = http.server.ThreadingHTTPServer(("127.0.0.1", 0), WebPage)
    threading.Thread(target=page.serve_forever, daemon=True).start()
    try:
        servers = (
            LocalServer("vLLM", free_port(), "local"),
            LocalServer("llama.cpp", page.server_address[1], "local"),
        )
        found = await find_local_servers(
            ORIGIN, reachable, browser, servers=servers, host="127.0.0.1"
        )
    finally:
        page.shutdown()
        page.server_close()
    assert found == []


def test_the_well_known_ports():
    assert [(s.name, s.port) for s in SERVERS] == [
        ("Ollama", 11434),
        ("LM Studio", 1234),
        ("llama.cpp", 8080),
        ("vLLM", 8000),
    ]


async def test_the_page_s_own_origin_is_skipped(browser):
    with Simulator() as sim:
        servers = (LocalServer("vLLM", sim.port, "local"),)
        own = f"http://127.0.0.1:{sim.port}"
        found = await find_local_servers(own, reachable, browser, servers=servers, host="127.0.0.1")
    assert found == []


@pytest.mark.parametrize(
    ("origin", "auto"),
    [
        ("http://127.0.0.1:8000", True),
        ("http://localhost:8000", True),
        ("http://192.168.1.20:8000", True),
        ("https://someone.github.io", False),
        ("https://wiggum.example.com", False),
    ],
)
def test_probing_by_itself_only_where_no_permission_prompt_greets_the_visit(origin, auto):
    assert probe_on_open(origin) is auto


def test_more_ports_are_read_from_what_was_stored():
    from wiggum.session.local_servers import extra_servers

    servers = extra_servers(" 11500, x, 99999, 0,11500 ,1235")
    assert [s.port for s in servers] == [1235, 11500]
    assert servers[0].base_url() == "http://localhost:1235/v1"
    assert extra_servers(None) == ()


def test_each_row_names_the_models_or_the_fix():
    from wiggum.session.local_servers import Found, rows
    from wiggum.ui.models import ModelOption

    ollama, vllm = SERVERS[0], SERVERS[3]
    models = [ModelOption(id=f"m{i}") for i in range(6)]
    listed = rows([Found(ollama, "http://localhost:11434", models), Found(vllm, "u", fix="F")])
    assert listed[0].models == "m0, m1, m2, m3 and 2 more" and listed[0].fix is None
    assert listed[1].fix == "F" and listed[1].index == 1


async def test_use_keeps_a_server_that_answered_and_never_one_that_refused():
    from wiggum.session.local_servers import NONE_FOUND, Found
    from wiggum.session.onboarding import LocalList
    from wiggum.ui.models import ModelOption

    answered = Found(SERVERS[0], "http://localhost:11434", [ModelOption(id="llama3.2")])
    refused = Found(SERVERS[1], "http://localhost:1234/v1", fix="turn on CORS")
    found: list = [answered, refused]

    async def find():
        return list(found)

    listed = LocalList("https://someone.github.io", find)
    assert not listed.on_open  # a public page asks before looking
    text, shown = await listed.look()
    assert text == "" and len(shown) == 2
    assert listed.chosen("0").model == "llama3.2" and listed.chosen("0").preset == "ollama"
    assert listed.chosen("1") is None and listed.chosen("7") is None and listed.chosen("x") is None
    found.clear()
    assert (await listed.look())[0] == NONE_FOUND
    assert LocalList("http://localhost:8000", find).on_open
