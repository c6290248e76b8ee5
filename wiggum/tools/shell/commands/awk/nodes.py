"""The awk syntax tree: expressions, statements, pattern-action items."""

from __future__ import annotations

from dataclasses import dataclass, field

# -- expressions -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Num:
    value: float


@dataclass(frozen=True, slots=True)
class Str:
    value: str


@dataclass(frozen=True, slots=True)
class Regex:
    """``/re/``: matches ``$0`` where a value is wanted, is the pattern after ``~``."""

    source: str


@dataclass(frozen=True, slots=True)
class Var:
    name: str


@dataclass(frozen=True, slots=True)
class Index:
    name: str
    subscripts: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Field:
    index: Expr


@dataclass(frozen=True, slots=True)
class Group:
    """``(a, b)``: only before ``in`` or as the whole of a ``print`` list."""

    items: tuple[Expr, ...]


@dataclass(frozen=True, slots=True)
class Unary:
    op: str  # ! - +
    operand: Expr


@dataclass(frozen=True, slots=True)
class Binary:
    op: str  # + - * / % ^ concat < <= > >= == != ~ !~ && ||
    left: Expr
    right: Expr


@dataclass(frozen=True, slots=True)
class Ternary:
    condition: Expr
    yes: Expr
    no: Expr


@dataclass(frozen=True, slots=True)
class In:
    key: Expr
    array: str


@dataclass(frozen=True, slots=True)
class Assign:
    target: LValue
    op: str  # = += -= *= /= %= ^=
    value: Expr


@dataclass(frozen=True, slots=True)
class IncDec:
    target: LValue
    delta: int
    prefix: bool


@dataclass(frozen=True, slots=True)
class Call:
    name: str
    args: tuple[Expr, ...]


LValue = Var | Index | Field
Expr = (
    Num | Str | Regex | Var | Index | Field | Group | Unary | Binary | Ternary | In | Assign
    | IncDec | Call
)  # fmt: skip

# -- statements ------------------------------------------------------------------------


@dataclass(slots=True)
class Print:
    args: list[Expr]
    #: ``printf``: the first argument is the format.
    formatted: bool = False
    #: ``print ... > "/dev/stderr"``.
    stderr: bool = False


@dataclass(slots=True)
class ExprStmt:
    expr: Expr


@dataclass(slots=True)
class Block:
    body: list[Stmt] = field(default_factory=list)


@dataclass(slots=True)
class If:
    condition: Expr
    then: Stmt
    orelse: Stmt | None = None


@dataclass(slots=True)
class While:
    condition: Expr
    body: Stmt
    #: ``do body while (condition)``: the body runs once first.
    do: bool = False


@dataclass(slots=True)
class For:
    init: Stmt | None
    condition: Expr | None
    step: Stmt | None
    body: Stmt


@dataclass(slots=True)
class ForIn:
    var: str
    array: str
    body: Stmt


@dataclass(slots=True)
class Jump:
    kind: str  # next nextfile break continue


@dataclass(slots=True)
class Exit:
    status: Expr | None


@dataclass(slots=True)
class Delete:
    array: str
    subscripts: tuple[Expr, ...] | None


Stmt = Print | ExprStmt | Block | If | While | For | ForIn | Jump | Exit | Delete


@dataclass(slots=True)
class Item:
    """``BEGIN {...}``, ``END {...}`` or ``pattern[, pattern] [{...}]``."""

    kind: str  # BEGIN END main
    pattern: Expr | None = None
    #: The end of a range pattern ``/start/, /stop/``.
    until: Expr | None = None
    #: None: print the record.
    action: Block | None = None


@dataclass(slots=True)
class Program:
    items: list[Item]
