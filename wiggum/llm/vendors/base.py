"""What a vendor file states: one frozen :class:`Vendor` of facts.

A *vendor* is who serves the models (OpenAI, OpenRouter, Groq, an LM Studio
on this machine); a *dialect* (``wiggum/llm/dialects/``) is a wire format,
spoken by several vendors.  The two meet in one rule:

- **requests are shaped per vendor**: its base URL, the header that carries
  the key, the headers and body fields it wants, how it searches the web, the
  field that caps the reply: the dialect asks :func:`vendor_for` and applies
  what the vendor names;
- **answers are read per wire format**, tolerant of every vendor speaking
  it, because a gateway or a local server may pass any vendor's shape
  through: the OpenAI dialect reads the fields *all* its vendors name
  (``wiggum.llm.vendors.OPENAI_ANSWERS``), whoever it called.

Everything here is plain data (no pydantic): the settings dialog and the
page's first views read these facts too.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any, Literal
from urllib.parse import urlsplit

__all__ = [
    "Answers",
    "Browser",
    "ModelList",
    "Vendor",
    "WebSearch",
    "host_matches",
    "host_of",
    "openai_models_url",
]

#: Does the vendor answer a web page's cross-origin call?  ``"local"``: a server
#: on this machine, which does once it is told to accept the page's origin;
#: ``"unverified"``: no public source either way.
Browser = Literal["yes", "no", "local", "unverified"]
Dialect = Literal["openai", "anthropic", "ollama"]


def host_of(url: str) -> str:
    try:
        return (urlsplit(url).hostname or "").lower()
    except ValueError:
        return ""


def host_matches(host: str, names: tuple[str, ...]) -> bool:
    """``host`` is one of ``names`` or a subdomain of one."""
    return any(host == name or host.endswith("." + name) for name in names)


def openai_models_url(base_url: str) -> str:
    """``GET {base}/models``, the OpenAI-compatible list."""
    base = base_url.strip().rstrip("/")
    return base if base.endswith("/models") else base + "/models"


@dataclass(frozen=True, slots=True)
class ModelList:
    """How the vendor lists its models, and how its list reads."""

    #: The list's URL, from the provider's base URL.
    url: Callable[[str], str] = openai_models_url
    #: The answer's key holding the list (an answer that is the list itself works too).
    items: str = "data"
    #: An entry's id: the first of these fields it has.
    id_fields: tuple[str, ...] = ("id",)
    #: An entry's display name: the first of these fields it has.
    name_fields: tuple[str, ...] = ("display_name", "name")


@dataclass(frozen=True, slots=True)
class WebSearch:
    """How the vendor searches the web for the model: it runs the searches and
    bills them; the request only says so, with a limit."""

    #: The request body's list the search joins (``tools``, ``plugins``).
    field: str
    #: The entry naming the search, without its limit.
    entry: Mapping[str, Any]
    #: The entry's field for the most searches one reply may make.
    limit: str

    def add_to(self, body: dict[str, Any], searches: int) -> None:
        body.setdefault(self.field, []).append({**self.entry, self.limit: searches})


@dataclass(frozen=True, slots=True)
class Answers:
    """Where an OpenAI-compatible vendor's answers put what OpenAI's own shape
    has no field for (``None``: it does not)."""

    #: A delta's (or message's) reasoning text.
    reasoning: str | None = None
    #: Reasoning as a list of parts, each with a ``text`` or ``summary``: read
    #: only when no reasoning text came beside it (which repeats it).
    reasoning_parts: str | None = None
    #: Usage: prompt tokens read from the cache, when not OpenAI's
    #: ``prompt_tokens_details.cached_tokens``.
    cached_tokens: str | None = None
    #: Inside the error object: more words, appended to its ``message``.
    error_detail: tuple[str, ...] = ()
    #: A tool call's field that must go back with the call in the history.
    call_extra: str | None = None


@dataclass(frozen=True, slots=True)
class Vendor:
    #: The preset id (``ui/presets.py``, which names it) and this file's name.
    id: str
    #: Where its API lives (``""``: the person says).
    base_url: str
    #: The wire format it speaks (a key of ``wiggum.llm.dialects``).
    dialect: Dialect = "openai"
    #: Base-URL hosts that are this vendor (a subdomain counts); when not
    #: given, the host of a hosted ``base_url`` (a local one is no one's).
    hosts: tuple[str, ...] = ()
    #: Provider ids that name this vendor whatever the URL.
    ids: tuple[str, ...] = ()
    #: The request header carrying the key, and what goes before the key.
    key_header: str = "Authorization"
    key_prefix: str = "Bearer "
    #: A hosted API: no call works without a key.
    needs_key: bool = True
    #: Where keys are made.
    key_url: str = ""
    #: Headers of every call to its API (chat and model list).
    headers: Mapping[str, str] = field(default_factory=dict)
    #: Headers a call from a web page needs (an opt-in to cross-origin calls);
    #: sent always, since the same request serves the page and CPython.
    browser_headers: Mapping[str, str] = field(default_factory=dict)
    #: Headers of chat requests only.
    chat_headers: Mapping[str, str] = field(default_factory=dict)
    #: Body fields of every chat request.
    chat_fields: Mapping[str, Any] = field(default_factory=dict)
    #: The cross-origin fact, and the public source it was checked against.
    browser: Browser = "unverified"
    browser_source: str = ""
    #: Its model list.
    models: ModelList = ModelList()
    #: Where the settings dialog takes the model list from.
    models_from: Literal["provider", "registry"] = "provider"
    #: The name the model registry knows it by (its prices, its limits);
    #: ``None``: look the model up by the dialect's name.
    registry_id: str | None = None
    #: How it searches the web itself; ``None``: it does not.
    web_search: WebSearch | None = None
    #: Its JSON-schema output mode: ``True`` works for every model, ``False``
    #: exists for none, ``None``: as the registry says of the model.
    native_schema: bool | None = None
    #: The body field that caps the reply (OpenAI-compatible requests).
    max_tokens_field: str = "max_tokens"
    #: An assistant turn goes back with its reasoning (``reasoning_content``).
    reasoning_back: bool = False
    #: Model names containing this keep the vendor's model quirks
    #: (``reasoning_back``) wherever they are served.
    model_family: str = ""
    #: Models (by id prefix) whose messages get prompt-caching markers.
    cache_markers_for: tuple[str, ...] = ()
    #: Its answers' own fields (OpenAI-compatible vendors).
    answers: Answers = Answers()

    def __post_init__(self) -> None:
        host = host_of(self.base_url)
        if not self.hosts and self.base_url.startswith("https://") and host:
            object.__setattr__(self, "hosts", (host,))

    def key_label(self) -> str:
        """``Authorization: Bearer`` / ``x-api-key``: the header as people name it."""
        prefix = self.key_prefix.strip()
        return f"{self.key_header}: {prefix}" if prefix else self.key_header

    def key_headers(self, key: str) -> dict[str, str]:
        """The header that carries ``key`` (none without a key)."""
        return {self.key_header: self.key_prefix + key} if key else {}
