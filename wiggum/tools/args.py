"""A small getopt: short flags (bundled ``-rn``), values (``-n 5``, ``-n5``,
``--lines=5``), long options, ``--``, and options after operands (GNU style)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from .command import UsageError

__all__ = ["Opt", "parse_args"]


@dataclass(frozen=True, slots=True)
class Opt:
    key: str
    short: str = ""  # letters, e.g. "rR" for -r and -R
    long: tuple[str, ...] = ()
    value: bool = False
    #: Collect every value into a list (``grep -e a -e b``).
    many: bool = False


def parse_args(args: list[str], opts: Sequence[Opt]) -> tuple[dict[str, Any], list[str]]:
    by_short = {c: o for o in opts for c in o.short}
    by_long = {name: o for o in opts for name in o.long}
    values: dict[str, Any] = {o.key: ([] if o.many else None if o.value else False) for o in opts}
    operands: list[str] = []

    def store(opt: Opt, value: str | None) -> None:
        if opt.many:
            values[opt.key].append(value)
        elif opt.value:
            values[opt.key] = value
        else:
            values[opt.key] = True

    rest = iter(args)

    def next_value(missing: str) -> str:
        value = next(rest, None)
        if value is None:
            raise UsageError(missing)
        return value

    for arg in rest:
        if arg == "--":
            operands += rest
            break
        if arg.startswith("--") and len(arg) > 2:
            name, eq, inline = arg[2:].partition("=")
            matches = [n for n in by_long if n == name] or [
                n for n in by_long if n.startswith(name)
            ]
            if len(matches) != 1:
                raise UsageError(f"unrecognized option '{arg}'")
            opt = by_long[matches[0]]
            if not opt.value:
                store(opt, None)
            elif eq:
                store(opt, inline)
            else:
                store(opt, next_value(f"option '--{matches[0]}' requires an argument"))
            continue
        if arg.startswith("-") and len(arg) > 1:
            for j, c in enumerate(arg[1:], start=1):
                opt = by_short.get(c)
                if opt is None:
                    raise UsageError(f"invalid option -- '{c}'")
                if opt.value:
                    inline = arg[j + 1 :]
                    store(opt, inline or next_value(f"option requires an argument -- '{c}'"))
                    break
                store(opt, None)
            continue
        operands.append(arg)
    return values, operands
