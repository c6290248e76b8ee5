"""Runs an awk ``Program`` over records: fields, variables, arrays, builtins.

Everything is bounded: statements and loop rounds count against a step
budget (an endless ``while (1)`` stops with an error), and strings may not
grow past the shell's buffer limit.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass

from ....ops.regex import RegexError, compile_regex
from .functions import ARITY, math_function, substr
from .lexer import AwkError
from .nodes import (
    Assign,
    Binary,
    Block,
    Call,
    Delete,
    Exit,
    Expr,
    ExprStmt,
    Field,
    For,
    ForIn,
    Group,
    If,
    In,
    IncDec,
    Index,
    Item,
    Jump,
    LValue,
    Num,
    Print,
    Program,
    Regex,
    Stmt,
    Str,
    Ternary,
    Unary,
    Var,
    While,
)
from .values import UNSET, StrNum, Value, compare, format_printf, to_num, to_str, truthy

__all__ = ["Input", "Runtime"]

_BLANKS = re.compile(r"[ \t\n]+")
_SUBSEP = "\x1c"
Array = dict[str, Value]


@dataclass(frozen=True, slots=True)
class Input:
    """An operand: a file's text (or the error reading it), or ``name=value``."""

    name: str
    text: str | None = None
    error: str | None = None
    assignment: tuple[str, str] | None = None


class _Next(Exception):
    pass


class _NextFile(Exception):
    pass


class _Exit(Exception):
    def __init__(self, status: int) -> None:
        self.status = status


class _Loop(Exception):
    def __init__(self, kind: str) -> None:
        self.kind = kind


class Runtime:
    def __init__(
        self,
        program: Program,
        out: Callable[[str], None],
        err: Callable[[str], None],
        *,
        max_steps: int,
        max_chars: int,
        environ: dict[str, str],
    ) -> None:
        self.program = program
        self.out = out
        self.err = err
        self.max_steps = max_steps
        self.max_chars = max_chars
        self.steps = 0
        self.scalars: dict[str, Value] = {
            "FS": " ", "OFS": " ", "ORS": "\n", "RS": "\n", "NR": 0.0, "FNR": 0.0,
            "FILENAME": "", "SUBSEP": _SUBSEP, "RSTART": 0.0, "RLENGTH": -1.0,
            "CONVFMT": "%.6g", "OFMT": "%.6g",
        }  # fmt: skip
        self.arrays: dict[str, Array] = {
            "ENVIRON": {k: StrNum(v) for k, v in environ.items()},
        }
        self.record: str = ""
        self.fields: list[str] | None = []
        self.ranges: dict[int, bool] = {}
        self.random = random.Random(0)
        self.seed = 0.0
        self.regexes: dict[str, re.Pattern[str]] = {}

    # -- the main loop ---------------------------------------------------------------------

    def run(self, inputs: list[Input]) -> int:
        """Run BEGIN, the records of ``inputs``, END; return the exit status."""
        items = self.program.items
        status = 0
        try:
            try:
                self._actions("BEGIN")
                if any(item.kind != "BEGIN" for item in items):
                    self._records(inputs)
            except _Exit as done:
                status = done.status
            self._actions("END")
        except _Exit as done:
            status = done.status
        return status

    def _actions(self, kind: str) -> None:
        for item in self.program.items:
            if item.kind == kind and item.action is not None:
                try:
                    self._block(item.action)
                except (_Next, _NextFile):
                    raise AwkError(f"next used in {kind} action") from None

    def _records(self, inputs: list[Input]) -> None:
        for source in inputs:
            if source.assignment is not None:
                self.assign_var(*source.assignment)
                continue
            if source.error is not None:
                raise AwkError(f'cannot open "{source.name}" ({source.error})')
            self.scalars["FILENAME"] = "" if source.name == "-" else source.name
            self.scalars["FNR"] = 0.0
            try:
                for record in self._split_records(source.text or ""):
                    self._step()
                    self.scalars["NR"] = to_num(self.scalars["NR"]) + 1
                    self.scalars["FNR"] = to_num(self.scalars["FNR"]) + 1
                    self.set_record(record)
                    try:
                        self._main_items()
                    except _Next:
                        continue
            except _NextFile:
                continue

    def _main_items(self) -> None:
        for number, item in enumerate(self.program.items):
            if item.kind == "main" and self._selected(number, item):
                if item.action is None:
                    self.out(self.record + to_str(self.scalars["ORS"]))
                else:
                    self._block(item.action)

    def _selected(self, number: int, item: Item) -> bool:
        if item.pattern is None:
            return True
        if item.until is None:
            return truthy(self.eval(item.pattern))
        if not self.ranges.get(number):
            if not truthy(self.eval(item.pattern)):
                return False
            self.ranges[number] = True
        if truthy(self.eval(item.until)):
            self.ranges[number] = False
        return True

    def _split_records(self, text: str) -> list[str]:
        rs = to_str(self.scalars["RS"])
        if rs == "\n":
            records = text.split("\n")
        elif rs == "":
            records = re.split(r"\n\n+", text.strip("\n"))
        elif len(rs) == 1:
            records = text.split(rs)
        else:
            records = self.regex(rs).split(text)
        if records and records[-1] in ("", "\n"):
            records.pop()
        return records

    def _step(self) -> None:
        self.steps += 1
        if self.steps > self.max_steps:
            raise AwkError(
                f"stopped after {self.max_steps} steps: the program does not end (an endless loop?)"
            )

    # -- records and fields ----------------------------------------------------------------

    def set_record(self, text: str) -> None:
        self.record = text
        self.fields = None

    def split_fields(self) -> list[str]:
        if self.fields is None:
            self.fields = self.split(self.record, to_str(self.scalars["FS"]))
        return self.fields

    def split(self, text: str, fs: str, regex: re.Pattern[str] | None = None) -> list[str]:
        if regex is not None:
            return regex.split(text) if text else []
        if fs == " ":
            stripped = text.strip(" \t\n")
            return _BLANKS.split(stripped) if stripped else []
        if not text:
            return []
        if fs == "":
            return list(text)
        if len(fs) == 1 and fs != "\\":
            return text.split(fs)
        return self.regex(fs).split(text)

    def get_field(self, index: float) -> Value:
        n = int(index)
        if n < 0:
            raise AwkError(f"trying to access out of range field {n}")
        if n == 0:
            return StrNum(self.record)
        fields = self.split_fields()
        return StrNum(fields[n - 1]) if n <= len(fields) else UNSET

    def set_field(self, index: float, value: str) -> None:
        n = int(index)
        if n < 0:
            raise AwkError(f"trying to access out of range field {n}")
        if n == 0:
            self.set_record(value)
            return
        fields = self.split_fields()
        fields.extend([""] * (n - len(fields)))
        fields[n - 1] = value
        self._rebuild(fields)

    def set_nf(self, count: float) -> None:
        fields = self.split_fields()[: max(int(count), 0)]
        fields.extend([""] * (int(count) - len(fields)))
        self._rebuild(fields)

    def _rebuild(self, fields: list[str]) -> None:
        self.record = self._checked(to_str(self.scalars["OFS"]).join(fields))
        self.fields = fields

    # -- variables -------------------------------------------------------------------------

    def assign_var(self, name: str, value: str) -> None:
        """``-v name=value`` and ``name=value`` operands: input text, so a strnum."""
        self.scalars[name] = StrNum(value)

    def get_var(self, name: str) -> Value:
        if name in self.arrays:
            raise AwkError(f"can't use array {name} in a scalar context")
        if name == "NF":
            return float(len(self.split_fields()))
        return self.scalars.get(name, UNSET)

    def set_var(self, name: str, value: Value) -> None:
        if name in self.arrays:
            raise AwkError(f"can't assign to {name}; it's an array name.")
        if name == "NF":
            self.set_nf(to_num(value))
            return
        self.scalars[name] = value

    def array(self, name: str) -> Array:
        if name in self.scalars:
            raise AwkError(f"can't use scalar {name} as an array")
        return self.arrays.setdefault(name, {})

    def key(self, subscripts: tuple[Expr, ...]) -> str:
        subsep = to_str(self.scalars["SUBSEP"])
        return subsep.join(self.str(self.eval(s)) for s in subscripts)

    def str(self, value: Value) -> str:
        return to_str(value, to_str(self.scalars["CONVFMT"]))

    def _checked(self, text: str) -> str:
        if len(text) > self.max_chars:
            raise AwkError(f"string longer than {self.max_chars} characters")
        return text

    def regex(self, source: str) -> re.Pattern[str]:
        compiled = self.regexes.get(source)
        if compiled is None:
            try:
                compiled = compile_regex(source, "extended")
            except RegexError as err:
                raise AwkError(str(err)) from None
            self.regexes[source] = compiled
        return compiled

    def pattern_of(self, node: Expr) -> re.Pattern[str]:
        """A regex operand: a ``/literal/`` or any value read as a regex."""
        if isinstance(node, Regex):
            return self.regex(node.source)
        return self.regex(self.str(self.eval(node)))

    # -- statements ------------------------------------------------------------------------

    def _block(self, block: Block) -> None:
        for statement in block.body:
            self.execute(statement)

    def execute(self, node: Stmt) -> None:
        self._step()
        if isinstance(node, ExprStmt):
            self.eval(node.expr)
        elif isinstance(node, Print):
            self._print(node)
        elif isinstance(node, Block):
            self._block(node)
        elif isinstance(node, If):
            if truthy(self.eval(node.condition)):
                self.execute(node.then)
            elif node.orelse is not None:
                self.execute(node.orelse)
        elif isinstance(node, While):
            self._while(node)
        elif isinstance(node, For):
            self._for(node)
        elif isinstance(node, ForIn):
            self._for_in(node)
        elif isinstance(node, Jump):
            raise {"next": _Next(), "nextfile": _NextFile()}.get(node.kind) or _Loop(node.kind)
        elif isinstance(node, Exit):
            status = 0 if node.status is None else int(to_num(self.eval(node.status)))
            raise _Exit(status & 0xFF)
        elif isinstance(node, Delete):
            array = self.array(node.array)
            if node.subscripts is None:
                array.clear()
            else:
                array.pop(self.key(node.subscripts), None)

    def _print(self, node: Print) -> None:
        values = [self.eval(arg) for arg in node.args]
        write = self.err if node.stderr else self.out
        if node.formatted:
            write(format_printf(self.str(values[0]), values[1:], self.max_chars))
            return
        ofmt = to_str(self.scalars["OFMT"])
        texts = [to_str(v, ofmt) for v in values] if values else [self.record]
        write(to_str(self.scalars["OFS"]).join(texts) + to_str(self.scalars["ORS"]))

    def _round(self, body: Stmt) -> bool:
        """Run one loop round; False when ``break`` ended the loop."""
        self._step()
        try:
            self.execute(body)
        except _Loop as jump:
            return jump.kind != "break"
        return True

    def _while(self, node: While) -> None:
        if node.do and not self._round(node.body):
            return
        while truthy(self.eval(node.condition)):
            if not self._round(node.body):
                return

    def _for(self, node: For) -> None:
        if node.init is not None:
            self.execute(node.init)
        while node.condition is None or truthy(self.eval(node.condition)):
            if not self._round(node.body):
                return
            if node.step is not None:
                self.execute(node.step)

    def _for_in(self, node: ForIn) -> None:
        for key in list(self.array(node.array)):
            self.set_var(node.var, StrNum(key))
            if not self._round(node.body):
                return

    # -- expressions -----------------------------------------------------------------------

    def eval(self, node: Expr) -> Value:
        if isinstance(node, Num):
            return node.value
        if isinstance(node, Str):
            return node.value
        if isinstance(node, Var):
            return self.get_var(node.name)
        if isinstance(node, Field):
            return self.get_field(to_num(self.eval(node.index)))
        if isinstance(node, Index):
            return self.array(node.name).setdefault(self.key(node.subscripts), UNSET)
        if isinstance(node, Regex):
            return float(self.regex(node.source).search(self.record) is not None)
        if isinstance(node, Binary):
            return self._binary(node)
        if isinstance(node, Unary):
            value = self.eval(node.operand)
            if node.op == "!":
                return float(not truthy(value))
            return -to_num(value) if node.op == "-" else to_num(value)
        if isinstance(node, Ternary):
            return self.eval(node.yes if truthy(self.eval(node.condition)) else node.no)
        if isinstance(node, In):
            items = node.key.items if isinstance(node.key, Group) else (node.key,)
            return float(self.key(items) in self.array(node.array))
        if isinstance(node, Assign):
            return self._assign(node)
        if isinstance(node, IncDec):
            old = to_num(self.eval(node.target))
            self.store(node.target, old + node.delta)
            return old + node.delta if node.prefix else old
        if isinstance(node, Call):
            return self._call(node)
        raise AwkError("a parenthesized list (a, b) goes only before `in' or after print")

    def store(self, target: LValue, value: Value) -> None:
        if isinstance(target, Var):
            self.set_var(target.name, value)
        elif isinstance(target, Index):
            self.array(target.name)[self.key(target.subscripts)] = value
        else:
            self.set_field(to_num(self.eval(target.index)), self.str(value))

    def _assign(self, node: Assign) -> Value:
        value = self.eval(node.value)
        if node.op != "=":
            current = self.eval(node.target)
            value = self._arith(node.op[:-1], to_num(current), to_num(value))
        self.store(node.target, value)
        return value

    def _binary(self, node: Binary) -> Value:
        op = node.op
        if op == "&&":
            return float(truthy(self.eval(node.left)) and truthy(self.eval(node.right)))
        if op == "||":
            return float(truthy(self.eval(node.left)) or truthy(self.eval(node.right)))
        if op in ("~", "!~"):
            text = self.str(self.eval(node.left))
            found = self.pattern_of(node.right).search(text) is not None
            return float(found == (op == "~"))
        left, right = self.eval(node.left), self.eval(node.right)
        if op == "concat":
            return self._checked(self.str(left) + self.str(right))
        if op in ("<", "<=", ">", ">=", "==", "!="):
            order = compare(left, right)
            return float(
                {"<": order < 0, "<=": order <= 0, ">": order > 0, ">=": order >= 0,
                 "==": order == 0, "!=": order != 0}[op]
            )  # fmt: skip
        return self._arith(op, to_num(left), to_num(right))

    def _arith(self, op: str, a: float, b: float) -> float:
        if op in ("/", "%") and b == 0:
            raise AwkError("division by zero" + (" in %" if op == "%" else ""))
        if op == "+":
            return a + b
        if op == "-":
            return a - b
        if op == "*":
            return a * b
        if op == "/":
            return a / b
        if op == "%":
            return math.fmod(a, b)
        try:
            return math.pow(a, b)
        except (OverflowError, ValueError):
            return math.inf if a > 0 or b == int(b) else math.nan

    # -- builtin functions -------------------------------------------------------------------

    def _call(self, node: Call) -> Value:
        name, args = node.name, node.args
        arity = ARITY.get(name, (0, 0))
        if not arity[0] <= len(args) <= arity[1]:
            raise AwkError(f"{name}: wrong number of arguments ({len(args)})")
        if name == "length":
            if not args:
                return float(len(self.record))
            if isinstance(args[0], Var) and args[0].name in self.arrays:
                return float(len(self.arrays[args[0].name]))
            return float(len(self.str(self.eval(args[0]))))
        if name in ("sub", "gsub"):
            return self._substitute(node, every=name == "gsub")
        if name == "split":
            return self._split(args)
        if name == "match":
            text = self.str(self.eval(args[0]))
            m = self.pattern_of(args[1]).search(text)
            start, length = (m.start() + 1, m.end() - m.start()) if m else (0, -1)
            self.scalars["RSTART"], self.scalars["RLENGTH"] = float(start), float(length)
            return float(start)
        values = [self.eval(arg) for arg in args]
        if name == "substr":
            return substr(self.str(values[0]), *(to_num(v) for v in values[1:]))
        if name == "index":
            return float(self.str(values[0]).find(self.str(values[1])) + 1)
        if name == "sprintf":
            return format_printf(self.str(values[0]), values[1:], self.max_chars)
        if name in ("tolower", "toupper"):
            text = self.str(values[0])
            return text.lower() if name == "tolower" else text.upper()
        if name in ("close", "fflush"):
            return 0.0
        if name == "srand":
            previous = self.seed
            self.seed = to_num(values[0]) if values else 0.0
            self.random.seed(self.seed)
            return previous
        if name == "rand":
            return self.random.random()
        return math_function(name, [to_num(v) for v in values])

    def _substitute(self, node: Call, *, every: bool) -> float:
        regex = self.pattern_of(node.args[0])
        replacement = self.str(self.eval(node.args[1]))
        target: Expr = node.args[2] if len(node.args) > 2 else Field(Num(0.0))
        if not isinstance(target, Var | Index | Field):
            raise AwkError(f"{node.name}: the third argument must be a variable, field or element")

        def expand(m: re.Match[str]) -> str:
            out, i = [], 0
            while i < len(replacement):
                c = replacement[i]
                if c == "\\" and replacement[i + 1 : i + 2] in ("&", "\\"):
                    out.append(replacement[i + 1])
                    i += 2
                    continue
                out.append(m.group() if c == "&" else c)
                i += 1
            return "".join(out)

        text, count = regex.subn(expand, self.str(self.eval(target)), count=0 if every else 1)
        if count:
            self.store(target, self._checked(text))
        return float(count)

    def _split(self, args: tuple[Expr, ...]) -> float:
        if not isinstance(args[1], Var):
            raise AwkError("split: the second argument must be an array name")
        text = self.str(self.eval(args[0]))
        if len(args) < 3:
            pieces = self.split(text, to_str(self.scalars["FS"]))
        elif isinstance(args[2], Regex):
            pieces = self.split(text, "", self.regex(args[2].source))
        else:
            pieces = self.split(text, self.str(self.eval(args[2])))
        array = self.array(args[1].name)
        array.clear()
        for number, piece in enumerate(pieces, 1):
            array[str(number)] = StrNum(piece)
        return float(len(pieces))
