"""GitHub's published REST description (npm ``@octokit/openapi``) as a judge of answers.

:class:`Description` finds the operation of a request (method and path matched
against the description's path templates), then checks an answer against it:
the status must be one the operation documents, the body must match that
status's schema (OpenAPI 3.0's ``nullable`` made JSON Schema), and a
``Location`` it documents (on a 201) must be there.  Request bodies are checked
against the operation's ``requestBody`` the same way, so the publisher cannot
drift from what GitHub accepts either.

A few statuses GitHub sends on every endpoint without each operation listing
them; they are accepted anywhere, with the shape GitHub documents for them
(``basic-error``), and each for the reason its own docs give:

- 401 "Requires authentication" (a wrong, expired or revoked token);
- 403 and 429 for rate limits, primary or secondary, which then carry
  ``retry-after`` or ``x-ratelimit-remaining: 0`` ("Rate limits for the REST
  API");
- 403 "Resource not accessible by personal access token" with
  ``x-accepted-github-permissions`` (a fine-grained token missing a permission);
- 404 for a repository that does not exist or that the token cannot see;
- 301/307 for a renamed repository (the description lists 301 on ``repos/get``
  only; GitHub redirects every path of the old name to ``/repositories/{id}``,
  which is the same resource as ``/repos/{owner}/{repo}``);
- 500, 502, 503 (GitHub's own trouble).

Every answer must carry the rate-limit headers GitHub sends on every REST
answer (``x-ratelimit-limit``, ``-remaining``, ``-reset``, ``-used``,
``-resource``).  The first mismatch raises :class:`Undocumented`.
"""

from __future__ import annotations

import json
import re
from functools import cache
from pathlib import Path
from typing import Any
from urllib.parse import quote

from jsonschema import Draft7Validator
from jsonschema.exceptions import ValidationError
from referencing import Registry, Resource
from referencing.jsonschema import DRAFT7

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "tests" / "github_api" / "node_modules" / "@octokit" / "openapi"
DESCRIPTION = PACKAGE / "generated" / "api.github.com.json"
FIX = "npm ci --prefix tests/github_api (scripts/test.sh does it)"
URN = "urn:github-rest"

RATE_HEADERS = (
    "x-ratelimit-limit",
    "x-ratelimit-remaining",
    "x-ratelimit-reset",
    "x-ratelimit-used",
    "x-ratelimit-resource",
)
ANYWHERE = {401, 403, 404, 429, 500, 502, 503}
REDIRECTS = {301, 307}


class Undocumented(AssertionError):
    """An answer (or a request) GitHub's description does not allow."""


def _nullable(node: Any) -> Any:
    """OpenAPI 3.0 schema objects made JSON Schema: ``nullable: true`` allows ``null``;
    examples dropped (they are data, and large)."""
    if isinstance(node, list):
        return [_nullable(v) for v in node]
    if not isinstance(node, dict):
        return node
    out = {k: _nullable(v) for k, v in node.items() if k not in ("example", "examples")}
    if out.pop("nullable", None) is True:
        return {"anyOf": [out, {"type": "null"}]}
    return out


def _pointer(*parts: str) -> str:
    return "#" + "".join("/" + p.replace("~", "~0").replace("/", "~1") for p in parts)


class Description:
    def __init__(self, path: Path = DESCRIPTION) -> None:
        if not path.exists():
            raise AssertionError(f"GitHub's REST description is not installed ({path}): {FIX}")
        raw = json.loads(path.read_text())
        self.version = raw["info"]["version"]
        self.doc = {"paths": _nullable(raw["paths"]), "components": _nullable(raw["components"])}
        resource = Resource.from_contents(self.doc, default_specification=DRAFT7)
        self.registry = Registry().with_resource(URN, resource)
        self._templates = self._compile(raw["paths"])

    @staticmethod
    def _compile(paths: dict[str, Any]) -> list[tuple[re.Pattern[str], str, int]]:
        out = []
        for template in paths:
            # A trailing parameter may hold slashes (git/ref/{ref} is "heads/main").
            parts = re.split(r"(\{[^}]+\})", template)
            regex = ""
            for i, part in enumerate(parts):
                if part.startswith("{"):
                    regex += "(.+)" if i == len(parts) - 2 and not parts[-1] else "([^/]+)"
                else:
                    regex += re.escape(part)
            literal = sum(len(p) for p in parts if not p.startswith("{"))
            out.append((re.compile(regex + "$"), template, literal))
        # Literal segments first: pages/builds/latest before pages/builds/{build_id}.
        out.sort(key=lambda t: -t[2])
        return out

    # ------------------------------------------------------------------ lookup

    def operation(self, method: str, path: str) -> tuple[str, dict[str, Any]]:
        """The template and operation object of ``method path`` (query left out)."""
        bare = path.split("?")[0]
        moved = re.match(r"/repositories/\d+(/.*)?$", bare)
        if moved:
            bare = "/repos/{owner}/{repo}" + (moved.group(1) or "")
        for regex, template, _ in self._templates:
            if regex.match(bare):
                op = self.doc["paths"][template].get(method.lower())
                if op is not None:
                    return template, op
        raise Undocumented(f"{method} {path}: no such operation in GitHub's REST description")

    def _resolve(self, obj: dict[str, Any], where: tuple[str, ...]) -> tuple[dict, tuple]:
        while "$ref" in obj:
            parts = tuple(obj["$ref"].removeprefix("#/").split("/"))
            node: Any = self.doc
            for part in parts:
                node = node[part]
            obj, where = node, parts
        return obj, where

    def _validate(self, value: Any, where: tuple[str, ...], what: str) -> None:
        schema = {"$ref": URN + quote(_pointer(*where), safe="#/~")}
        try:
            _validator(self, schema["$ref"]).validate(value)
        except ValidationError as err:
            at = "/".join(str(p) for p in err.absolute_path) or "(top)"
            raise Undocumented(f"{what}: at {at}: {err.message[:300]}") from None

    # ------------------------------------------------------------------ checks

    def check_request(self, method: str, path: str, body: Any) -> None:
        template, op = self.operation(method, path)
        spec = op.get("requestBody")
        what = f"{method} {path} (request, {op['operationId']})"
        if spec is None:
            if body is not None:
                raise Undocumented(f"{what}: a body where the operation takes none")
            return
        spec, where = self._resolve(spec, ("paths", template, method.lower(), "requestBody"))
        if body is None:
            if spec.get("required"):
                raise Undocumented(f"{what}: the body is required")
            return
        self._validate(body, (*where, "content", "application/json", "schema"), what)

    def check_response(
        self, method: str, path: str, status: int, body: Any, headers: dict[str, str]
    ) -> str:
        """Check one answer; returns the operation id it was checked as."""
        template, op = self.operation(method, path)
        op_id = op["operationId"]
        what = f"{method} {path} -> {status} ({op_id})"
        low = {k.lower(): v for k, v in headers.items()}
        missing = [h for h in RATE_HEADERS if h not in low]
        if missing:
            raise Undocumented(f"{what}: no {', '.join(missing)} (GitHub sends them always)")
        responses = op["responses"]
        key = str(status)
        if key not in responses:
            self._global(status, body, low, what)
            return op_id
        response, where = self._resolve(
            responses[key], ("paths", template, method.lower(), "responses", key)
        )
        for name in response.get("headers") or {}:
            # Location is on every creation; Link only when a list has more pages.
            if name.lower() == "location" and name.lower() not in low:
                raise Undocumented(f"{what}: no {name} header, which the description lists")
        content = response.get("content")
        if content is None:
            if body not in (None, b"", ""):
                raise Undocumented(f"{what}: a body where the description has none")
            return op_id
        if "application/json" not in content:
            raise Undocumented(f"{what}: the description's answer is not JSON")
        self._validate(body, (*where, "content", "application/json", "schema"), what)
        return op_id

    def _global(self, status: int, body: Any, headers: dict[str, str], what: str) -> None:
        if status in REDIRECTS:
            if "location" not in headers:
                raise Undocumented(f"{what}: a redirect without Location")
        elif status not in ANYWHERE:
            raise Undocumented(f"{what}: a status this operation does not document")
        elif status in (403, 429):
            limited = "retry-after" in headers or headers.get("x-ratelimit-remaining") == "0"
            permission = "x-accepted-github-permissions" in headers
            message = str((body or {}).get("message", "")) if isinstance(body, dict) else ""
            if not (limited or permission or (status == 403 and message)):
                raise Undocumented(f"{what}: neither a rate limit nor a refusal with a reason")
        self._validate(body, ("components", "schemas", "basic-error"), what)


@cache
def _validator(description: Description, ref: str) -> Draft7Validator:
    return Draft7Validator({"$ref": ref}, registry=description.registry)


@cache
def description() -> Description:
    """The one description of the test session (reading it takes a moment)."""
    return Description()
