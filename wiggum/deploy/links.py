"""Addresses from GitHub made safe to show as links.

An address in an API answer (a Pages site's ``html_url``, a workflow run's) is
data from elsewhere: it becomes a link, or is stored as one, only when it is a
plain ``https://`` address with a host and no credentials.  Anything else (a
``javascript:`` or ``data:`` address, ``http://``, a relative path) is dropped
and the address Wiggum can work out itself is used instead.
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

__all__ = ["pages_url", "safe_url"]

_LOGIN = re.compile(r"^[A-Za-z0-9](?:[A-Za-z0-9-]{0,38})$")
_REPO = re.compile(r"^[A-Za-z0-9._-]{1,100}$")


def safe_url(url: object) -> str:
    """``url`` when it is an https address fit to be a link, else ``""``."""
    if not isinstance(url, str) or any(c.isspace() or ord(c) < 32 for c in url):
        return ""
    try:
        parts = urlsplit(url)
    except ValueError:
        return ""
    if parts.scheme != "https" or not parts.hostname or parts.username or parts.password:
        return ""
    return url


def pages_url(owner: str, name: str, html_url: object = "") -> str:
    """The site's address: GitHub's when it is safe, else the usual github.io one."""
    given = safe_url(html_url)
    if given:
        return given
    if not (_LOGIN.match(owner) and _REPO.match(name)):
        return ""
    if name.lower() == f"{owner.lower()}.github.io":
        return f"https://{owner.lower()}.github.io/"
    return f"https://{owner.lower()}.github.io/{name}/"
