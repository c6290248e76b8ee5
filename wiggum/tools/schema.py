"""Turn a pydantic model's JSON schema into one every provider accepts.

Providers differ in what JSON schema they take for tool parameters: some
reject ``$ref``/``$defs``, some choke on ``anyOf`` with ``null``, and pydantic's
generated ``title`` keys only cost tokens.  The cleaned schema is
self-contained, keeps descriptions and defaults, and closes every object with
``additionalProperties: false`` (the argument models forbid extra keys too).
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel

__all__ = ["clean_schema", "model_parameters"]

_MAX_DEPTH = 32


def model_parameters(model: type[BaseModel]) -> dict[str, Any]:
    return clean_schema(model.model_json_schema())


def clean_schema(schema: dict[str, Any]) -> dict[str, Any]:
    defs = schema.get("$defs", {})
    cleaned = _clean(schema, defs, 0)
    cleaned.setdefault("type", "object")
    cleaned.setdefault("properties", {})
    return cleaned


def _clean(node: Any, defs: dict[str, Any], depth: int) -> Any:
    if depth > _MAX_DEPTH:
        # A recursive model: stop inlining rather than loop forever.
        return {}
    if isinstance(node, list):
        return [_clean(item, defs, depth + 1) for item in node]
    if not isinstance(node, dict):
        return node
    if "$ref" in node:
        name = node["$ref"].rsplit("/", 1)[-1]
        merged = {**defs.get(name, {}), **{k: v for k, v in node.items() if k != "$ref"}}
        return _clean(merged, defs, depth + 1)
    out: dict[str, Any] = {}
    for key, value in node.items():
        if key in ("$defs", "title"):
            continue
        if key == "properties":
            # Property names are data, not keywords: a property may be called "title".
            out[key] = {name: _clean(sub, defs, depth + 1) for name, sub in value.items()}
        else:
            out[key] = _clean(value, defs, depth + 1)
    _drop_null_branch(out)
    if out.get("type") == "object" and "properties" in out:
        out.setdefault("additionalProperties", False)
    return out


def _drop_null_branch(node: dict[str, Any]) -> None:
    """``anyOf: [X, {type: null}]`` (an ``Optional``) becomes ``X``.

    The field is already optional by not being ``required``; the null branch
    only confuses providers that do not support ``anyOf``.
    """
    branches = node.get("anyOf")
    if not isinstance(branches, list):
        return
    rest = [b for b in branches if b != {"type": "null"}]
    if len(rest) == 1 and len(rest) < len(branches):
        del node["anyOf"]
        for key, value in rest[0].items():
            node.setdefault(key, value)
        if node.get("default", 0) is None:
            del node["default"]
