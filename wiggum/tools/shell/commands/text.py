"""Text filters: sort uniq tr cut tac rev nl paste xargs."""

from __future__ import annotations

import re
from collections.abc import Iterator

from ...args import Opt, parse_args
from ...command import CommandContext, ShellCommand, UsageError
from ...ops import files

__all__ = ["TEXT"]


async def _read_all(ctx: CommandContext, operands: list[str]) -> tuple[list[str], int]:
    lines: list[str] = []
    status = 0
    for name, text, error in await ctx.inputs(operands):
        if error is not None:
            status = ctx.report(name, error)
        else:
            lines += files.split_lines(text or "")
    return lines, status


def _emit(ctx: CommandContext, lines: list[str]) -> None:
    ctx.out("".join(line + "\n" for line in lines))


_NUMBER = re.compile(r"\s*([-+]?\d*\.?\d+(?:[eE][-+]?\d+)?)")
_HUMAN = re.compile(r"\s*([-+]?\d*\.?\d+)([KMGTPE]?)", re.IGNORECASE)


class Sort(ShellCommand):
    command_name = "sort"
    opts = (
        Opt("reverse", "r", ("reverse",)),
        Opt("numeric", "n", ("numeric-sort",)),
        Opt("general", "g", ("general-numeric-sort",)),
        Opt("human", "h", ("human-numeric-sort",)),
        Opt("version", "V", ("version-sort",)),
        Opt("unique", "u", ("unique",)),
        Opt("fold", "f", ("ignore-case",)),
        Opt("blanks", "b", ("ignore-leading-blanks",)),
        Opt("stable", "s", ("stable",)),
        Opt("key", "k", ("key",), value=True, many=True),
        Opt("sep", "t", ("field-separator",), value=True),
        Opt("output", "o", ("output",), value=True),
    )

    async def execute(self, ctx: CommandContext) -> int:
        flags, operands = parse_args(ctx.args, self.opts)
        lines, status = await _read_all(ctx, operands)
        keys = [self._key_range(k) for k in flags["key"]]

        def field_text(line: str) -> str:
            if not keys:
                return line
            fields = line.split(flags["sep"]) if flags["sep"] else line.split()
            start, end = keys[0]
            chosen = fields[start - 1 : end]
            return (flags["sep"] or " ").join(chosen)

        def key(line: str):
            text = field_text(line)
            if flags["blanks"]:
                text = text.lstrip()
            if flags["fold"]:
                text = text.lower()
            if flags["numeric"] or flags["general"]:
                m = _NUMBER.match(text)
                return (float(m.group(1)) if m else 0.0, line)
            if flags["human"]:
                m = _HUMAN.match(text)
                if not m:
                    return (0.0, line)
                scale = 1024 ** (" KMGTPE".index(m.group(2).upper() or " "))
                return (float(m.group(1)) * scale, line)
            if flags["version"]:
                return ([int(p) if p.isdigit() else p for p in re.split(r"(\d+)", text)], line)
            return (text, line)

        ordered = sorted(lines, key=key, reverse=flags["reverse"])
        if flags["unique"]:
            seen: set = set()
            unique = []
            for line in ordered:
                k = key(line)[0]
                k = tuple(k) if isinstance(k, list) else k
                if k not in seen:
                    seen.add(k)
                    unique.append(line)
            ordered = unique
        if flags["output"]:
            path = ctx.resolve(flags["output"], allow_root=False)
            await files.write_text(ctx.fs, ctx.policy, path, "".join(x + "\n" for x in ordered))
            return status
        _emit(ctx, ordered)
        return status

    def _key_range(self, spec: str) -> tuple[int, int | None]:
        m = re.fullmatch(r"(\d+)(?:\.\d+)?[a-zA-Z]*(?:,(\d+)(?:\.\d+)?[a-zA-Z]*)?", spec)
        if not m:
            raise UsageError(f"invalid key specification '{spec}'")
        return int(m.group(1)), int(m.group(2)) if m.group(2) else None


class Uniq(ShellCommand):
    command_name = "uniq"
    opts = (
        Opt("count", "c", ("count",)),
        Opt("repeated", "d", ("repeated",)),
        Opt("unique", "u", ("unique",)),
        Opt("fold", "i", ("ignore-case",)),
    )

    async def execute(self, ctx: CommandContext) -> int:
        flags, operands = parse_args(ctx.args, self.opts)
        lines, status = await _read_all(ctx, operands[:1])
        groups: list[list[str]] = []
        for line in lines:
            same = groups and (
                groups[-1][0].lower() == line.lower() if flags["fold"] else groups[-1][0] == line
            )
            if same:
                groups[-1].append(line)
            else:
                groups.append([line])
        out = []
        for group in groups:
            if flags["repeated"] and len(group) < 2:
                continue
            if flags["unique"] and len(group) > 1:
                continue
            out.append(f"{len(group):7d} {group[0]}" if flags["count"] else group[0])
        _emit(ctx, out)
        return status


_TR_CLASSES = {
    "[:upper:]": "ABCDEFGHIJKLMNOPQRSTUVWXYZ",
    "[:lower:]": "abcdefghijklmnopqrstuvwxyz",
    "[:digit:]": "0123456789",
    "[:space:]": " \t\n\r\f\v",
    "[:blank:]": " \t",
    "[:punct:]": "!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~",
}
_TR_CLASSES["[:alpha:]"] = _TR_CLASSES["[:upper:]"] + _TR_CLASSES["[:lower:]"]
_TR_CLASSES["[:alnum:]"] = _TR_CLASSES["[:alpha:]"] + _TR_CLASSES["[:digit:]"]


def _tr_set(spec: str) -> str:
    for name, chars in _TR_CLASSES.items():
        spec = spec.replace(name, chars)
    spec = spec.replace("\\n", "\n").replace("\\t", "\t").replace("\\r", "\r").replace("\\\\", "\\")
    out = []
    i = 0
    while i < len(spec):
        if i + 2 < len(spec) and spec[i + 1] == "-":
            a, b = ord(spec[i]), ord(spec[i + 2])
            out += [chr(c) for c in range(a, b + 1)]
            i += 3
        else:
            out.append(spec[i])
            i += 1
    return "".join(out)


class Tr(ShellCommand):
    command_name = "tr"
    opts = (
        Opt("delete", "d", ("delete",)),
        Opt("squeeze", "s", ("squeeze-repeats",)),
        Opt("complement", "cC", ("complement",)),
    )

    async def execute(self, ctx: CommandContext) -> int:
        flags, operands = parse_args(ctx.args, self.opts)
        if not operands:
            raise UsageError("missing operand")
        text = ctx.stdin or ""
        set1 = _tr_set(operands[0])
        set2 = _tr_set(operands[1]) if len(operands) > 1 else ""

        def in_set1(c: str) -> bool:
            return (c in set1) != flags["complement"]

        if flags["delete"]:
            text = "".join(c for c in text if not in_set1(c))
            squeeze_set = set2
        elif set2:
            if flags["complement"]:
                text = "".join(set2[-1] if in_set1(c) else c for c in text)
            else:
                padded = set2 + set2[-1] * max(0, len(set1) - len(set2))
                text = text.translate(str.maketrans(set1, padded[: len(set1)]))
            squeeze_set = set2
        else:
            squeeze_set = set1
        if flags["squeeze"]:
            out: list[str] = []
            for c in text:
                if out and out[-1] == c and c in squeeze_set:
                    continue
                out.append(c)
            text = "".join(out)
        ctx.out(text)
        return 0


def _ranges(spec: str) -> list[tuple[int, int | None]]:
    out = []
    for part in spec.split(","):
        m = re.fullmatch(r"(\d*)(-?)(\d*)", part)
        if not m or not (m.group(1) or m.group(3)):
            raise UsageError(f"invalid field range '{part}'")
        start = int(m.group(1) or 1)
        end = int(m.group(3)) if m.group(3) else (None if m.group(2) else start)
        out.append((start, end))
    return out


class Cut(ShellCommand):
    command_name = "cut"
    opts = (
        Opt("delim", "d", ("delimiter",), value=True),
        Opt("fields", "f", ("fields",), value=True),
        Opt("chars", "cb", ("characters", "bytes"), value=True),
        Opt("only", "s", ("only-delimited",)),
    )

    async def execute(self, ctx: CommandContext) -> int:
        flags, operands = parse_args(ctx.args, self.opts)
        spec = flags["fields"] or flags["chars"]
        if not spec:
            raise UsageError("you must specify a list of bytes, characters, or fields")
        ranges = _ranges(spec)
        lines, status = await _read_all(ctx, operands)
        delim = flags["delim"] if flags["delim"] is not None else "\t"
        out = []
        for line in lines:
            if flags["chars"]:
                items, joiner = list(line), ""
            else:
                if delim not in line:
                    if not flags["only"]:
                        out.append(line)
                    continue
                items, joiner = line.split(delim), delim
            picked = [
                items[i - 1]
                for i in range(1, len(items) + 1)
                if any(a <= i and (b is None or i <= b) for a, b in ranges)
            ]
            out.append(joiner.join(picked))
        _emit(ctx, out)
        return status


class Tac(ShellCommand):
    command_name = "tac"

    async def execute(self, ctx: CommandContext) -> int:
        lines, status = await _read_all(ctx, ctx.args)
        _emit(ctx, lines[::-1])
        return status


class Rev(ShellCommand):
    command_name = "rev"

    async def execute(self, ctx: CommandContext) -> int:
        lines, status = await _read_all(ctx, ctx.args)
        _emit(ctx, [line[::-1] for line in lines])
        return status


class Nl(ShellCommand):
    """``nl``: number lines (non-empty ones unless ``-b a``), across all inputs."""

    command_name = "nl"
    opts = (
        Opt("body", "b", ("body-numbering",), value=True),
        Opt("format", "n", ("number-format",), value=True),
        Opt("width", "w", ("number-width",), value=True),
        Opt("sep", "s", ("number-separator",), value=True),
        Opt("start", "v", ("starting-line-number",), value=True),
        Opt("step", "i", ("line-increment",), value=True),
    )

    async def execute(self, ctx: CommandContext) -> int:
        flags, operands = parse_args(ctx.args, self.opts)
        style = flags["body"] or "t"
        fmt = flags["format"] or "rn"
        if style not in ("a", "t", "n"):
            raise UsageError(f"invalid body numbering style: '{style}'")
        if fmt not in ("ln", "rn", "rz"):
            raise UsageError(f"invalid line numbering format: '{fmt}'")
        width, number, step = (
            _int_opt(flags[key], default, key)
            for key, default in (("width", 6), ("start", 1), ("step", 1))
        )
        sep = flags["sep"] if flags["sep"] is not None else "\t"
        lines, status = await _read_all(ctx, operands)
        out = []
        for line in lines:
            if style == "a" or (style == "t" and line):
                cell = {"ln": f"{number:<{width}}", "rn": f"{number:>{width}}"}.get(
                    fmt, f"{number:0{width}}"
                )
                out.append(f"{cell}{sep}{line}")
                number += step
            else:
                out.append(" " * (width + len(sep)) + line)
        _emit(ctx, out)
        return status


def _int_opt(value: str | None, default: int, name: str) -> int:
    if value is None:
        return default
    if not re.fullmatch(r"-?\d+", value):
        raise UsageError(f"invalid {name}: '{value}'")
    return int(value)


class Paste(ShellCommand):
    """``paste``: lines of the inputs side by side, or each input on one line (``-s``)."""

    command_name = "paste"
    opts = (
        Opt("delims", "d", ("delimiters",), value=True),
        Opt("serial", "s", ("serial",)),
    )

    async def execute(self, ctx: CommandContext) -> int:
        flags, operands = parse_args(ctx.args, self.opts)
        delims = _paste_delims(flags["delims"] if flags["delims"] is not None else "\t")
        readers: list[Iterator[str]] = []
        stdin: Iterator[str] | None = None
        for operand in operands or ["-"]:
            if operand == "-":
                # Every `-` reads the same input in turn: `paste - -` pairs lines.
                stdin = stdin or iter(files.split_lines(ctx.stdin or ""))
                readers.append(stdin)
                continue
            lines, status = await _read_all(ctx, [operand])
            if status:
                return status  # as GNU paste: nothing is pasted
            readers.append(iter(lines))
        if flags["serial"]:
            _emit(ctx, [_join_cycling(list(reader), delims) for reader in readers])
            return 0
        rows = []
        while True:
            cells = [next(reader, None) for reader in readers]
            if all(cell is None for cell in cells):
                break
            rows.append(_join_cycling([cell or "" for cell in cells], delims))
        _emit(ctx, rows)
        return 0


def _paste_delims(spec: str) -> list[str]:
    out = []
    i = 0
    while i < len(spec):
        if spec[i] == "\\" and i + 1 < len(spec):
            out.append({"n": "\n", "t": "\t", "\\": "\\", "0": ""}.get(spec[i + 1], spec[i + 1]))
            i += 2
        else:
            out.append(spec[i])
            i += 1
    return out or [""]


def _join_cycling(cells: list[str], delims: list[str]) -> str:
    out = cells[:1]
    for i, cell in enumerate(cells[1:]):
        out += [delims[i % len(delims)], cell]
    return "".join(out)


class Xargs(ShellCommand):
    command_name = "xargs"
    opts = (
        Opt("replace", "I", (), value=True),
        Opt("max_args", "n", ("max-args",), value=True),
        Opt("null", "0", ("null",)),
        Opt("delim", "d", ("delimiter",), value=True),
        Opt("no_run_empty", "r", ("no-run-if-empty",)),
        Opt("ignored", "tp", ("verbose",)),
    )

    async def execute(self, ctx: CommandContext) -> int:
        # Options end at the command: `xargs grep -l x` must not parse grep's -l.
        split_at = next(
            (
                i
                for i, a in enumerate(ctx.args)
                if not a.startswith("-") and not self._is_value(ctx.args, i)
            ),
            len(ctx.args),
        )
        flags, _ = parse_args(ctx.args[:split_at], self.opts)
        command = ctx.args[split_at:] or ["echo"]
        text = ctx.stdin or ""
        if flags["null"]:
            items = [x for x in text.split("\0") if x]
        elif flags["delim"] is not None:
            items = [x for x in text.split(flags["delim"].replace("\\n", "\n")) if x]
        elif flags["replace"]:
            items = [line for line in text.split("\n") if line.strip()]
        else:
            items = text.split()
        if not items and (flags["no_run_empty"] or flags["replace"]):
            return 0
        status = 0
        if flags["replace"]:
            marker = flags["replace"]
            for item in items:
                argv = [word.replace(marker, item) for word in command]
                status = status or await ctx.run_argv(argv, ctx)
            return 123 if status else 0
        size = int(flags["max_args"]) if flags["max_args"] else max(len(items), 1)
        batches = [items[i : i + size] for i in range(0, len(items), size)] or [[]]
        for batch in batches:
            code = await ctx.run_argv(command + batch, ctx)
            if code in (126, 127):
                return code
            status = status or code
        return 123 if status else 0

    def _is_value(self, args: list[str], i: int) -> bool:
        return i > 0 and args[i - 1] in ("-I", "-n", "-d")


TEXT: list[ShellCommand] = [Sort(), Uniq(), Tr(), Cut(), Tac(), Rev(), Nl(), Paste(), Xargs()]
