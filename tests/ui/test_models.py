"""wiggum.ui.models.list_models against the simulator over real HTTP (httpx transport)."""

from __future__ import annotations

import pytest

from tests.sim import Simulator, http_error
from wiggum.llm import AuthenticationError, NetworkError, NotFoundError, ProviderConfig
from wiggum.llm.vendors import VENDORS
from wiggum.ui.models import ModelOption, list_models, models_request, price_label
from wiggum.ui.settings import ProviderSettings

KEY = "sk-sim-SECRET-models"


def settings(sim: Simulator, kind: str, **kw) -> ProviderSettings:
    base = sim.base_url + "/v1" if kind == "openai" else sim.base_url
    fields = {"kind": kind, "base_url": base, "api_key": KEY, "name": f"sim-{kind}", **kw}
    return ProviderSettings(**fields)


async def test_openai_models(sim, transport):
    sim.set_models(["gpt-4o", "gpt-4o-mini", "my-finetune"], dialect="openai")
    models = await list_models(settings(sim, "openai"), transport)
    assert [m.id for m in models] == ["gpt-4o", "gpt-4o-mini", "my-finetune"]
    req = sim.last_request
    assert req.method == "GET" and req.path == "/v1/models"
    assert req.header("authorization") == f"Bearer {KEY}"
    gpt4o = models[0]
    assert gpt4o.context_window == 128_000
    assert gpt4o.input_per_m == pytest.approx(2.5) and gpt4o.output_per_m == pytest.approx(10)
    assert "128k context" in gpt4o.label and "$2.50 / $10.00 per 1M" in gpt4o.label
    unknown = models[2]
    assert unknown.context_window is None and unknown.input_per_m is None
    assert unknown.label == "my-finetune"


async def test_anthropic_models(sim, transport):
    sim.set_models(["claude-sonnet-4-20250514", "claude-3-5-haiku-20241022"], dialect="anthropic")
    models = await list_models(settings(sim, "anthropic"), transport)
    assert [m.id for m in models] == ["claude-3-5-haiku-20241022", "claude-sonnet-4-20250514"]
    req = sim.last_request
    assert req.path.startswith("/v1/models")
    assert req.header("x-api-key") == KEY
    assert req.header("anthropic-version") == "2023-06-01"
    assert req.header("anthropic-dangerous-direct-browser-access") == "true"
    assert req.header("authorization") is None
    sonnet = models[1]
    assert sonnet.context_window == 200_000 and sonnet.input_per_m == pytest.approx(3)
    assert sonnet.name  # display name from the provider


async def test_ollama_models(sim, transport):
    sim.set_models(["llama3.2:latest", "qwen3:8b"], dialect="ollama")
    p = settings(sim, "ollama", api_key="")
    models = await list_models(p, transport)
    assert [m.id for m in models] == ["llama3.2:latest", "qwen3:8b"]
    assert sim.last_request.path == "/api/tags"
    assert sim.last_request.header("authorization") is None
    # local models: capabilities from the registry, no price
    assert models[1].context_window and models[1].input_per_m is None


async def test_openrouter_pricing_from_the_list(sim, transport):
    sim.set_models(
        [
            {
                "id": "vendor/new-model",
                "name": "New",
                "context_length": 65536,
                "pricing": {"prompt": "0.000001", "completion": "0.000002"},
            }
        ],
        dialect="openai",
    )
    (m,) = await list_models(settings(sim, "openai"), transport)
    assert m.context_window == 65536
    assert m.input_per_m == pytest.approx(1.0) and m.output_per_m == pytest.approx(2.0)


async def test_proxy_applied_when_toggled(sim, transport):
    sim.set_models(["gpt-4o"], dialect="openai")
    template = sim.base_url + "/proxy/{href}"
    p = settings(sim, "openai", proxy=True)
    req = models_request(p, template)
    assert req.url.startswith(sim.base_url + "/proxy/http")
    assert (
        models_request(p.model_copy(update={"proxy": False}), template).url
        == sim.base_url + "/v1/models"
    )
    # The request goes to the proxy URL; the simulator has no such route: 404,
    # which is also what a wrong base URL looks like.
    with pytest.raises(NotFoundError):
        await list_models(p, transport, proxy_template=template)
    assert sim.last_request.path.startswith("/proxy/http")


async def test_bad_key_is_an_authentication_error(sim, transport):
    sim.models_fault = http_error(401)
    with pytest.raises(AuthenticationError):
        await list_models(settings(sim, "openai"), transport)


async def test_unreachable_is_a_network_error(transport):
    p = ProviderSettings(kind="openai", base_url="http://127.0.0.1:9/v1", api_key="x")
    with pytest.raises(NetworkError):
        await list_models(p, transport)


def test_price_label():
    assert price_label(None, 1) == ""
    assert price_label(0, 0) == "free"
    assert price_label(0.05, 0.4) == "$0.05 / $0.40 per 1M"
    assert ModelOption("x", context_window=1_048_576).label == "x · 1.0M context"


def test_urls():
    def url(kind, base):
        return models_request(ProviderSettings(kind=kind, base_url=base)).url

    assert url("openai", "https://api.openai.com/v1/") == "https://api.openai.com/v1/models"
    assert url("openai", "https://openrouter.ai/api/v1") == "https://openrouter.ai/api/v1/models"
    assert url("anthropic", "https://api.anthropic.com").startswith(
        "https://api.anthropic.com/v1/models"
    )
    assert url("anthropic", "https://api.anthropic.com/v1").startswith(
        "https://api.anthropic.com/v1/models"
    )
    assert url("ollama", "http://localhost:11434") == "http://localhost:11434/api/tags"
    assert url("ollama", "http://localhost:11434/api") == "http://localhost:11434/api/tags"


@pytest.mark.parametrize("v", VENDORS, ids=lambda v: v.id)
def test_the_model_list_request_is_the_vendors(v):
    provider = ProviderConfig(
        id="p-1",
        kind=v.dialect,
        base_url=v.base_url or "https://llm.example.com/v1",
        model="m",
        api_key=KEY,
    )
    request = models_request(provider)
    assert request.method == "GET"
    assert request.url == v.models.url(provider.base_url)
    assert request.headers[v.key_header] == v.key_prefix + KEY
    for name, value in {**v.headers, **v.browser_headers}.items():
        assert request.headers[name] == value
    for name in v.chat_headers:
        assert name not in request.headers  # attribution is for chat requests only
