"""wiggum.ui.errors: every LLMError class has a clear explanation; records explain the same."""

from __future__ import annotations

import inspect

import pytest

import wiggum.llm.errors as llm_errors
from wiggum.chief.chat import ErrorRecord
from wiggum.llm import (
    AbortError,
    AuthenticationError,
    ContentFilterError,
    ContextOverflowError,
    EmptyResponseError,
    LLMError,
    MalformedResponseError,
    MalformedToolCallError,
    NetworkError,
    NotFoundError,
    ProviderConfig,
    ProviderError,
    RateLimitError,
    RedirectError,
    RequestTimeoutError,
    StreamIdleError,
    StreamIncompleteError,
    StreamingUnsupportedError,
    TokenLimitError,
)
from wiggum.ui.errors import explain, format_wait

P = ProviderConfig(
    id="p1",
    name="OpenAI",
    kind="openai",
    base_url="https://api.openai.com/v1",
    model="gpt-4o",
    api_key="sk-SECRET-abc123",
)

EXAMPLES: dict[type, LLMError] = {
    AuthenticationError: AuthenticationError(401, "{}", "OpenAI", "gpt-4o"),
    RateLimitError: RateLimitError(429, "{}", "OpenAI", "gpt-4o", retry_after=20),
    NotFoundError: NotFoundError(404, "{}", "OpenAI", "gpt-4o"),
    ProviderError: ProviderError(503, "{}", "OpenAI", "gpt-4o"),
    ContextOverflowError: ContextOverflowError(200_000, 128_000, "OpenAI", "gpt-4o"),
    NetworkError: NetworkError("failed", "OpenAI", "gpt-4o", maybe_cors=True),
    RequestTimeoutError: RequestTimeoutError("timeout", "OpenAI", "gpt-4o", seconds=300),
    RedirectError: RedirectError(307, "https://elsewhere.example", "OpenAI", "gpt-4o"),
    StreamIncompleteError: StreamIncompleteError("OpenAI", "gpt-4o", delivered=True),
    StreamIdleError: StreamIdleError("OpenAI", "gpt-4o", seconds=90, delivered=True),
    EmptyResponseError: EmptyResponseError("stop", "OpenAI", "gpt-4o"),
    MalformedResponseError: MalformedResponseError("bad json", "OpenAI", "gpt-4o"),
    MalformedToolCallError: MalformedToolCallError(["c1"], "OpenAI", "gpt-4o"),
    ContentFilterError: ContentFilterError("OpenAI", "gpt-4o"),
    TokenLimitError: TokenLimitError("OpenAI", "gpt-4o"),
    StreamingUnsupportedError: StreamingUnsupportedError("no", "OpenAI", "gpt-4o"),
    LLMError: LLMError("mystery", "OpenAI", "gpt-4o"),
}


def test_every_error_class_has_an_example():
    classes = {
        obj
        for _, obj in inspect.getmembers(llm_errors, inspect.isclass)
        if issubclass(obj, LLMError) and obj is not AbortError
    }
    assert classes <= set(EXAMPLES)


@pytest.mark.parametrize("cls", list(EXAMPLES), ids=lambda c: c.__name__)
def test_every_error_is_explained_live_and_from_its_record(cls):
    err = EXAMPLES[cls]
    live = explain(err, provider_name="OpenAI", proxy=False)
    assert live is not None and live.title and live.message.endswith((".", ")"))
    assert live.kind == cls.__name__
    record = ErrorRecord.from_error(err, P.model_copy(update={"proxy": False}))
    stored = explain(record.model_dump())
    assert stored is not None
    assert stored.message == live.message
    assert "sk-SECRET" not in live.message + stored.message


def test_abort_is_not_an_error():
    assert explain(AbortError("p", "m")) is None
    assert explain({"name": "AbortError"}) is None


def test_bad_key():
    e = explain(EXAMPLES[AuthenticationError])
    assert e.message.startswith("The provider rejected the API key")
    assert e.settings


def test_rate_limit_says_when():
    e = explain(EXAMPLES[RateLimitError])
    assert "try again in 20 s" in e.message
    assert e.retry_after == 20
    e2 = explain(RateLimitError(429, "{}", "X", "m"))
    assert "wait a moment" in e2.message


def test_quota_is_not_a_rate_limit():
    e = explain(RateLimitError(429, "{}", "X", "m", error_type="insufficient_quota"))
    assert e.title == "Out of quota"


def test_provider_down_and_client_error():
    down = explain(ProviderError(502, "{}", "OpenAI", "gpt-4o"))
    assert "having trouble" in down.message and "502" in down.message
    bad = explain(ProviderError(400, "{}", "OpenAI", "gpt-4o", detail="temperature too high"))
    assert "temperature too high" in bad.message


@pytest.mark.parametrize(
    ("error_type", "says"),
    [
        ("server_error", "it reported server_error"),
        ("api_error", "it reported api_error"),
        ("overloaded_error", "it reported overloaded_error"),
        ("timeout", "it reported timeout"),
    ],
)
def test_an_error_with_no_http_status_is_worded_from_its_type_never_http_0(error_type, says):
    # an error event inside a 200 stream carries no status of its own
    err = ProviderError(
        0,
        None,
        "OpenAI",
        "gpt-4o",
        error_type=error_type,
        detail="The server had an error",
        in_stream=True,
    )
    live = explain(err, provider_name="OpenAI")
    stored = explain(ErrorRecord.from_error(err, P).model_dump())  # after a reload
    for e in (live, stored):
        assert e.title == "Provider unavailable"
        assert says in e.message
        assert "HTTP 0" not in e.message and "refused" not in e.message


def test_an_in_stream_error_of_another_type_is_the_providers_error_not_a_refusal():
    err = ProviderError(0, None, "X", "m", error_type="invalid_request_error", detail="bad tool")
    e = explain(err, provider_name="X")
    assert e.title == "Provider error" and "HTTP" not in e.message
    assert e.message == "X reported an error while answering (invalid_request_error): bad tool"


def test_a_rate_limit_reported_in_a_stream_reads_as_a_rate_limit():
    e = explain(ProviderError(429, None, "X", "m", error_type="rate_limit_error", in_stream=True))
    assert e.title == "Rate limited"


def test_a_timeout_names_its_bound_and_where_it_is_set():
    e = explain(EXAMPLES[RequestTimeoutError], provider_name="OpenAI")
    assert e.message.startswith("OpenAI did not answer within 300 seconds") and e.settings


def test_a_redirect_elsewhere_names_the_site_and_not_following_it():
    e = explain(EXAMPLES[RedirectError], provider_name="OpenAI")
    assert "https://elsewhere.example" in e.message and "does not follow" in e.message


def test_a_web_page_instead_of_a_reply_says_so_and_points_at_the_base_url():
    err = MalformedResponseError("html", "X", "m", detail="a web page")
    e = explain(err, provider_name="X")
    assert e.message.startswith("X sent a web page instead of a reply.")
    assert "base URL" in e.message


def test_not_found_points_at_url_and_model():
    msg = explain(EXAMPLES[NotFoundError]).message
    assert "base URL" in msg and "model" in msg


def test_context_overflow_gives_sizes():
    msg = explain(EXAMPLES[ContextOverflowError]).message
    assert "200,000" in msg and "128,000" in msg


def test_cors_with_proxy_off_says_turn_it_on():
    err = NetworkError("Failed to fetch", maybe_cors=True)
    e = explain(err, provider_name="Anthropic", proxy=False)
    assert e.message == (
        "The browser could not reach Anthropic. It may not allow calls from web pages (CORS): "
        "turn on the proxy for this provider in Settings."
    )


def test_cors_with_proxy_on_but_no_template():
    err = NetworkError("Failed to fetch", maybe_cors=True)
    e = explain(err, provider_name="OpenAI", proxy=True, proxy_template="")
    assert "no proxy URL is set" in e.message


def test_cors_through_the_proxy():
    err = NetworkError("Failed to fetch", maybe_cors=True)
    e = explain(
        err, provider_name="OpenAI", proxy=True, proxy_template="https://p.example/?u={href}"
    )
    assert "through the proxy" in e.message


def test_record_remembers_the_proxy_state():
    err = NetworkError("Failed to fetch", maybe_cors=True)
    rec = ErrorRecord.from_error(err, P.model_copy(update={"proxy": False}))
    assert "turn on the proxy" in explain(rec).message
    rec2 = ErrorRecord.from_error(err, P.model_copy(update={"proxy": True}), "https://x/{href}")
    assert rec2.proxied and "through the proxy" in explain(rec2).message


def test_plain_network_error():
    e = explain(NetworkError("refused", "Ollama", "llama3"))
    assert "Could not reach Ollama" in e.message


def test_record_scrubs_the_key_from_details():
    err = ProviderError(400, "{}", "p1", "gpt-4o", detail="bad key sk-SECRET-abc123 given")
    rec = ErrorRecord.from_error(err, P)
    assert "sk-SECRET" not in rec.model_dump_json()
    assert "sk-SECRET" not in explain(rec).message


def test_internal_errors():
    e = explain(KeyError("x"))
    assert e.title == "Something went wrong" and "KeyError" in e.message


@pytest.mark.parametrize(
    ("s", "text"), [(0.2, "1 s"), (20, "20 s"), (89, "89 s"), (120, "2 min"), (7200, "2 h")]
)
def test_format_wait(s, text):
    assert format_wait(s) == text


async def _proxied_error(status: int, body: bytes, headers: dict[str, str] | None = None):
    """The error the client raises for the proxy's own refusal (one line of text)."""
    from wiggum.llm import Message, RequestOptions, chat
    from wiggum.llm.transport import ReplayResponse, ReplayTransport

    answer = ReplayResponse(body, status, {"content-type": "text/plain", **(headers or {})})
    provider = P.model_copy(update={"proxy": True})
    options = RequestOptions(proxy_template="https://proxy.example/?url={href}", max_retries=0)
    with pytest.raises(LLMError) as info:
        await chat(
            provider,
            [Message(role="user", content="hi")],
            options,
            transport=ReplayTransport(answer),
        )
    return info.value, provider


@pytest.mark.parametrize(
    ("status", "body", "title", "says"),
    [
        (
            403,
            b"proxy: host not allowed: api.example.com\n",
            "Proxy refused the provider",
            "ALLOWED_HOSTS",
        ),
        (
            403,
            b"proxy: origin not allowed: https://me.github.io (add it to the proxy's "
            b"ALLOWED_ORIGINS and deploy again)\n",
            "Proxy refused this page",
            "ALLOWED_ORIGINS",
        ),
        (
            502,
            b"proxy: upstream unreachable: api.example.com\n",
            "Provider unreachable",
            "base URL",
        ),
        (400, b"proxy: only https targets are allowed\n", "Proxy refused the request", "https"),
        (429, b"proxy: rate limit exceeded\n", "Proxy busy", "proxy is limiting"),
    ],
)
async def test_the_proxys_own_refusals_are_told_apart_from_the_providers(status, body, title, says):
    err, provider = await _proxied_error(status, body)
    template = "https://proxy.example/?url={href}"
    live = explain(err, provider_name="OpenAI", proxy=True, proxy_template=template)
    assert (live.title, live.kind) == (title, err.name)
    assert says in live.message
    stored = explain(ErrorRecord.from_error(err, provider, template).model_dump())
    assert stored.message == live.message
    # without the proxy the same words are the provider's, explained as such
    direct = explain(err, provider_name="OpenAI", proxy=False)
    assert direct.title != title


def test_local_server_network_error_names_the_origin_fix_not_the_proxy():
    from wiggum.llm import NetworkError

    err = NetworkError("Failed to fetch", "Ollama", "llama3.2", maybe_cors=True)
    fix = "Start Ollama with OLLAMA_ORIGINS=http://127.0.0.1:8000"
    e = explain(err, provider_name="Ollama", proxy=False, local_fix=fix)
    assert e.title == "Local server not answering" and fix in e.message
    assert "proxy" not in e.message
