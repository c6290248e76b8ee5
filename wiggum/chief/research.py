"""Chief's web research: the request option that lets the provider search.

Only where the provider searches server-side (Anthropic's ``web_search``
tool, OpenRouter's ``web`` plugin) and only when the person turned it on
for that provider: every search is billed.  Ralph never gets it.
"""

from __future__ import annotations

import dataclasses

from wiggum.llm import ProviderConfig, RequestOptions, web_search_supported

#: Searches one reply may make (Anthropic's ``max_uses``, OpenRouter's ``max_results``).
MAX_SEARCHES = 5


def research_options(
    provider: ProviderConfig, enabled: bool, options: RequestOptions | None = None
) -> RequestOptions | None:
    """``options`` with web search on when ``enabled`` and the provider can do it."""
    if not enabled or not web_search_supported(provider):
        return options
    base = dataclasses.replace(options) if options is not None else RequestOptions()
    base.web_search = MAX_SEARCHES
    return base
