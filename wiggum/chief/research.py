"""Chief's web research: the request option that lets the provider search.

Only where the provider's vendor searches server-side (its ``web_search``
in ``wiggum/llm/vendors/``: Anthropic's ``web_search`` tool, OpenRouter's
``web`` plugin) and only when the person turned it on for that provider:
every search is billed.  Ralph never gets it.
"""

from __future__ import annotations

import dataclasses

from wiggum.llm import ProviderConfig, RequestOptions
from wiggum.llm.vendors import vendor_for

#: Searches one reply may make (the vendor's ``web_search.limit`` field carries it).
MAX_SEARCHES = 5


def research_options(
    provider: ProviderConfig, enabled: bool, options: RequestOptions | None = None
) -> RequestOptions | None:
    """``options`` with web search on when ``enabled`` and the provider can do it."""
    if not enabled or vendor_for(provider).web_search is None:
        return options
    base = dataclasses.replace(options) if options is not None else RequestOptions()
    base.web_search = MAX_SEARCHES
    return base
