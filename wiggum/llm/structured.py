"""Structured output with a pydantic model as the schema.

Native JSON-schema mode where the provider has one; otherwise the schema is
put into the system prompt.  Either way the reply's text is parsed leniently
(code fences, prose around the object, small JSON slips) and validated.
"""

from __future__ import annotations

import json
import re
from functools import cache
from typing import Any

from pydantic import BaseModel, ValidationError

from .repair import parse_tool_arguments
from .types import Message

_FENCE = re.compile(r"```(?:json|JSON)?\s*\n?(.*?)```", re.DOTALL)


def _inline_refs(node: Any, defs: dict[str, Any]) -> Any:
    if isinstance(node, dict):
        ref = node.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/$defs/"):
            target = defs.get(ref.split("/")[-1], {})
            merged = {**target, **{k: v for k, v in node.items() if k != "$ref"}}
            return _inline_refs(merged, defs)
        return {k: _inline_refs(v, defs) for k, v in node.items() if k not in ("$defs", "title")}
    if isinstance(node, list):
        return [_inline_refs(v, defs) for v in node]
    return node


@cache
def _schema(model: type[BaseModel]) -> str:
    raw = model.model_json_schema()
    return json.dumps(_inline_refs(raw, raw.get("$defs", {})))


def json_schema_for(model: type[BaseModel]) -> dict[str, Any]:
    """The model's JSON schema, self-contained (no ``$ref``) and without titles."""
    return json.loads(_schema(model))


def schema_instruction(model: type[BaseModel]) -> str:
    return (
        "Respond with a JSON object matching this JSON schema:\n"
        f"{_schema(model)}\n\n"
        "Output ONLY the JSON object, no other text."
    )


def inject_schema(messages: list[Message], model: type[BaseModel]) -> list[Message]:
    """Append the schema instruction to the system prompt (or add one)."""
    instruction = schema_instruction(model)
    if messages and messages[0].role == "system":
        first = messages[0]
        return [
            first.model_copy(update={"content": f"{first.text}\n\n{instruction}"}),
            *messages[1:],
        ]
    return [Message.system(instruction), *messages]


def _candidates(text: str) -> list[str]:
    stripped = text.strip()
    out = [stripped]
    out.extend(m.strip() for m in _FENCE.findall(text))
    start, end = stripped.find("{"), stripped.rfind("}")
    if 0 <= start < end:
        out.append(stripped[start : end + 1])
    return out


def parse_output(text: str, model: type[BaseModel]) -> tuple[BaseModel | None, str | None]:
    """``(instance, None)`` or ``(None, why)``; never raises."""
    if not text.strip():
        return None, "The reply is empty"
    last_error = "No JSON object found in the reply"
    for candidate in _candidates(text):
        try:
            data = json.loads(candidate)
        except ValueError:
            parsed = parse_tool_arguments(candidate)
            if parsed.error or parsed.truncated or not parsed.args:
                continue
            data = parsed.args
        try:
            return model.model_validate(data), None
        except ValidationError as exc:
            last_error = (
                f"The JSON does not match {model.__name__}: {exc.error_count()} error(s): "
                + (
                    "; ".join(
                        f"{'.'.join(str(p) for p in e['loc']) or '(root)'}: {e['msg']}"
                        for e in exc.errors()[:5]
                    )
                )
            )
    return None, last_error
