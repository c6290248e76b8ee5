"""Provider simulator: a real HTTP server on 127.0.0.1 speaking OpenAI Chat Completions,
Anthropic Messages and Ollama ``/api/chat``, answering with scripted turns.

Start it (background thread; works from sync and asyncio tests alike)::

    with Simulator() as sim:            # or: async with Simulator() as sim:
        sim.script([Turn("Hello!")])
        httpx.post(sim.base_url + "/v1/chat/completions", json={...})

Routes (any path prefix works, so ``base_url + "/v1"`` or ``"/api/v1"`` are both fine):
``POST …/chat/completions`` (OpenAI), ``POST …/messages`` (Anthropic), ``POST …/api/chat``
(Ollama), ``GET …/models`` (OpenAI-shaped; Anthropic-shaped when an ``anthropic-version``
header is sent or the path contains ``/anthropic/``), ``GET …/api/tags``, ``GET …/api/version``.
Model lists: ``Simulator(models=[...])`` / ``sim.set_models([...], dialect="ollama")``;
``sim.models_fault = http_error(401)`` makes the model routes fail.

Scripting a turn: every chat request takes the next queued turn (FIFO); a turn with
``model="x"`` is only taken by requests for model ``x`` (and is preferred over unkeyed ones).
The same turn is rendered in whichever dialect the request used, streamed or not according to
the request's ``stream`` flag (Ollama streams when ``stream`` is absent)::

    Turn("Hello world", chunks=4)                          # text in 4 wire chunks
    Turn(Reasoning("Let me think"), "The answer is 4.")    # reasoning block, then text
    Turn("Checking.", ToolCall("get_weather", {"city": "Paris"}), usage=(120, 30))
    Turn(text="hi", reasoning="hmm", tool_calls=[("ls", {"path": "."})], delay=0.05)
    Turn("partial", finish_reason="length")                # → Anthropic max_tokens etc.
    Turn(Reasoning("r"), "x", reasoning_format="think")    # OpenAI: <think>r</think> in content

Faults are turns too, so they sequence: ``sim.script([rate_limited(1), Turn("ok")])``.
``http_error(status, body=None, headers=None)`` (dialect-shaped error JSON when body is None),
``rate_limited(retry_after)``, ``overloaded()``, ``context_length_exceeded()`` (each provider's
real wording), and on an ordinary turn ``fault=``: ``Disconnect(after=K)`` (drop the socket
after K wire chunks, no ``[DONE]``), ``StreamError(after=K, message, code)`` (in-band error in
a 200 stream), ``Stall(after=K, seconds=None)`` (go silent until the client leaves or the
simulator stops). ``gate=Gate()`` holds each wire chunk until the test lets it out
(``gate.allow(n)``, ``gate.open()``): what the client shows meanwhile is what arrived, on a
machine of any speed. Formatting knobs: ``garbage=True`` (SSE comments / non-JSON lines between
chunks), ``line_ending="\\r\\n"`` or ``"\\r"``, ``framing="close"`` (no chunked encoding),
``ttfb=`` seconds before headers. ``raw([b"data: ...\\n\\n", 0.2, b"..."])`` replays exact bytes
(floats are sleeps). Unscripted requests get a 500 unless ``Simulator(default=Turn(...))``.

Assert on what the client sent with ``sim.requests`` (``Request.method/path/headers/json``,
plus ``stream``, ``turn``, ``status``, ``outcome``, ``response_id``, ``tool_call_ids``);
CORS preflights are in ``sim.preflights``. ``Simulator(cors=False)`` sends no CORS headers
at all, so browser fetches fail as they do against api.openai.com.
"""

from .server import Request, Simulator
from .turns import (
    ANTHROPIC_CONTEXT_LENGTH,
    OLLAMA_CONTEXT_LENGTH,
    OPENAI_CONTEXT_LENGTH,
    Disconnect,
    Gate,
    HttpError,
    Raw,
    Reasoning,
    Stall,
    StreamError,
    Text,
    ToolCall,
    Turn,
    Usage,
    WebSearch,
    context_length_exceeded,
    http_error,
    overloaded,
    rate_limited,
    raw,
)

__all__ = [
    "ANTHROPIC_CONTEXT_LENGTH",
    "OLLAMA_CONTEXT_LENGTH",
    "OPENAI_CONTEXT_LENGTH",
    "Disconnect",
    "Gate",
    "HttpError",
    "Raw",
    "Reasoning",
    "Request",
    "Simulator",
    "Stall",
    "StreamError",
    "Text",
    "ToolCall",
    "Turn",
    "Usage",
    "WebSearch",
    "context_length_exceeded",
    "http_error",
    "overloaded",
    "rate_limited",
    "raw",
]
