"""Test connection against the simulator over real HTTP: each cause named with its fix."""

from __future__ import annotations

import socket

from tests.sim import Simulator, http_error
from wiggum.llm import NetworkError
from wiggum.ui.connection import check_connection, diagnose, proxy_template_from_worker
from wiggum.ui.settings import ProviderSettings

KEY = "sk-sim-SECRET-conn"
ORIGIN = "http://127.0.0.1:8000"


def openai(sim: Simulator, **kw) -> ProviderSettings:
    return ProviderSettings.from_preset(
        "openai", base_url=sim.base_url + "/v1", api_key=KEY, model="gpt-4o", **kw
    )


async def run(p: ProviderSettings, transport, template: str = ""):
    return await check_connection(p, proxy_template=template, origin=ORIGIN, transport=transport)


async def test_ok_lists_models(sim, transport):
    sim.set_models(["gpt-4o", "gpt-4o-mini"], dialect="openai")
    d = await run(openai(sim), transport)
    assert d.ok and d.cause == "ok" and [m.id for m in d.models] == ["gpt-4o", "gpt-4o-mini"]
    assert sim.last_request.path == "/v1/models"


async def test_wrong_key(sim, transport):
    sim.models_fault = http_error(401, message="Incorrect API key provided")
    d = await run(openai(sim), transport)
    assert (d.ok, d.cause, d.field) == (False, "auth", "api_key")
    assert "platform.openai.com/api-keys" in d.message and KEY not in d.message


async def test_org_forbids_browser_calls(sim, transport):
    sim.set_models(["claude-sonnet-4-20250514"], dialect="anthropic")
    sim.models_fault = http_error(
        401,
        message="CORS requests are not allowed for this Organization because of its settings.",
        type="authentication_error",
    )
    p = ProviderSettings.from_preset(
        "anthropic", base_url=sim.base_url, api_key=KEY, model="claude-sonnet-4-20250514"
    )
    d = await run(p, transport)
    assert d.cause == "org_forbids" and "organisation" in d.message


async def test_wrong_url(sim, transport):
    p = openai(sim).model_copy(update={"base_url": sim.base_url + "/nope/v1"})
    sim.models_fault = http_error(404, message="Not found")
    d = await run(p, transport)
    assert (d.cause, d.field) == ("not_found", "base_url")
    assert "https://api.openai.com/v1" in d.message


async def test_model_missing(sim, transport):
    sim.set_models(["gpt-4o-mini"], dialect="openai")
    d = await run(openai(sim), transport)
    assert (d.ok, d.cause, d.field) == (False, "model_missing", "model")
    assert "gpt-4o" in d.message and [m.id for m in d.models] == ["gpt-4o-mini"]


async def test_proxy_missing_makes_no_request(sim, transport):
    d = await run(openai(sim, proxy=True), transport)
    assert (d.cause, d.field) == ("proxy_missing", "proxy_template")
    assert sim.all_requests == []


async def test_proxied_test_goes_only_to_the_proxy(sim, transport):
    # The simulator plays the proxy: it is asked with ?url=…, never at /v1/models.
    template = sim.base_url + "/?url={href}"
    p = openai(sim, proxy=True).model_copy(update={"base_url": "https://api.openai.com/v1"})
    await run(p, transport, template)
    reqs = sim.all_requests
    assert reqs and all(r.path == "/" for r in reqs)
    assert all(r.query.get("url") == "https://api.openai.com/v1/models" for r in reqs)


def _closed_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    port = s.getsockname()[1]
    s.close()
    return port


async def test_nothing_listening_names_ollama_origins(transport):
    port = _closed_port()
    p = ProviderSettings.from_preset("ollama", base_url=f"http://127.0.0.1:{port}")
    d = await run(p, transport)
    assert d.cause == "local_down" and f"OLLAMA_ORIGINS={ORIGIN}" in d.message
    lm = ProviderSettings.from_preset("local", base_url=f"http://127.0.0.1:{port}/v1")
    d = await run(lm, transport)
    assert d.cause == "local_down" and "Enable CORS" in d.message


def test_cors_and_proxy_causes():
    p = ProviderSettings.from_preset("mistral", api_key=KEY)
    err = NetworkError("Failed to fetch", maybe_cors=True)
    d = diagnose(err, p, proxy_template="", origin=ORIGIN)
    assert d.cause == "cors" and "use the proxy" in d.message
    proxied = p.model_copy(update={"proxy": True})
    d = diagnose(err, proxied, proxy_template="https://px.example/?url={href}", origin=ORIGIN)
    assert d.cause == "proxy_unreachable" and "px.example" in d.message


def test_worker_url_becomes_template():
    assert proxy_template_from_worker("https://w.me.workers.dev") == (
        "https://w.me.workers.dev/?url={href}"
    )
    assert proxy_template_from_worker("https://w.me.workers.dev/") == (
        "https://w.me.workers.dev/?url={href}"
    )
    assert proxy_template_from_worker("https://p.example/?u={url}") == "https://p.example/?u={href}"
    assert proxy_template_from_worker("not a url") is None
    assert proxy_template_from_worker("") is None


def test_save_problems_beside_fields():
    p = ProviderSettings.from_preset("openai", proxy=True)
    probs = p.field_problems("")
    assert set(probs) == {"api_key", "proxy_template"}
    assert "no proxy URL" in probs["proxy_template"]
    assert "{href}" in p.field_problems("https://p.example/")["proxy_template"]
    assert ProviderSettings.from_preset("ollama").field_problems("") == {}
