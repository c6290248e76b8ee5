"""awk parser: tokens to a ``Program`` (recursive descent, POSIX precedence).

Lowest to highest: assignment, ``?:``, ``||``, ``&&``, ``in``, ``~ !~``,
comparison, concatenation, ``+ -``, ``* / %``, unary ``! - +``, ``^``,
``++ --``, ``$``, grouping.  Inside a ``print`` list an unparenthesised
``>`` is output redirection, which is refused here.
"""

from __future__ import annotations

from collections.abc import Callable

from .lexer import AwkError, Token, tokenize
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

__all__ = ["parse"]

_ASSIGN_OPS = {"=", "+=", "-=", "*=", "/=", "%=", "^=", "**="}
_COMPARE = {"<", "<=", ">", ">=", "==", "!="}
#: Tokens that can start the right-hand operand of a concatenation.
_CONCAT_START = {"number", "string", "regex", "name", "builtin"}
_UNSUPPORTED = {
    "getline": "getline is not supported; pass the files as operands instead",
    "function": "user-defined functions are not supported",
    "func": "user-defined functions are not supported",
    "return": "return is only meaningful in functions, which are not supported",
}
_MAX_DEPTH = 200
_STD_STREAMS = ("/dev/stdout", "/dev/stderr", "-")


class _Parser:
    def __init__(self, source: str) -> None:
        self.tokens = tokenize(source)
        self.i = 0
        self.depth = 0
        #: Loops around the statement being parsed: break/continue need one.
        self.loops = 0

    # -- helpers -----------------------------------------------------------------------

    def peek(self, ahead: int = 0) -> Token:
        return self.tokens[min(self.i + ahead, len(self.tokens) - 1)]

    def advance(self) -> Token:
        token = self.tokens[self.i]
        if token.kind != "eof":
            self.i += 1
        return token

    def at(self, *values: str) -> bool:
        token = self.peek()
        return token.kind in ("op", "keyword") and token.value in values

    def error(self, token: Token | None = None) -> AwkError:
        token = token or self.peek()
        shown = {"eof": "end of program", "newline": "newline"}.get(token.kind, token.value)
        return AwkError(f"syntax error at source line {token.line} near `{shown}'")

    def expect(self, value: str) -> Token:
        if not self.at(value):
            raise self.error()
        return self.advance()

    def newlines(self) -> None:
        while self.peek().kind == "newline":
            self.advance()

    def terminators(self) -> None:
        while self.peek().kind == "newline" or self.at(";"):
            self.advance()

    # -- program -------------------------------------------------------------------------

    def program(self) -> Program:
        items: list[Item] = []
        self.terminators()
        while self.peek().kind != "eof":
            items.append(self.item())
            self.terminators()
        return Program(items)

    def item(self) -> Item:
        token = self.peek()
        if token.kind == "keyword" and token.value in _UNSUPPORTED:
            raise AwkError(_UNSUPPORTED[token.value])
        if self.at("BEGIN", "END"):
            self.advance()
            self.newlines()
            if not self.at("{"):
                raise AwkError(f"{token.value} needs an action: {token.value} {{ ... }}")
            return Item(token.value, action=self.block())
        if self.at("{"):
            return Item("main", action=self.block())
        pattern = self.expr()
        until = None
        if self.at(","):
            self.advance()
            self.newlines()
            until = self.expr()
        action = self.block() if self.at("{") else None
        return Item("main", pattern, until, action)

    def block(self) -> Block:
        self.expect("{")
        body: list[Stmt] = []
        self.terminators()
        while not self.at("}"):
            if self.peek().kind == "eof":
                raise AwkError("syntax error: missing `}' at the end of the program")
            body.append(self.statement())
            self.terminators()
        self.advance()
        return Block(body)

    # -- statements ----------------------------------------------------------------------

    def statement(self) -> Stmt:
        self.depth += 1
        if self.depth > _MAX_DEPTH:
            raise AwkError("program nested too deeply")
        try:
            return self._statement()
        finally:
            self.depth -= 1

    def _statement(self) -> Stmt:
        token = self.peek()
        if self.at("{"):
            return self.block()
        if self.at(";"):
            self.advance()
            return Block()
        if self.at("if"):
            return self.if_statement()
        if self.at("while"):
            self.advance()
            condition = self.condition()
            if self.at(";"):
                self.advance()
                return While(condition, Block())
            return While(condition, self.loop_body())
        if self.at("do"):
            self.advance()
            body = self.loop_body()
            self.terminators()
            self.expect("while")
            statement = While(self.condition(), body, do=True)
            self.end_simple()
            return statement
        if self.at("for"):
            return self.for_statement()
        statement = self.simple_statement(token)
        self.end_simple()
        return statement

    def condition(self) -> Expr:
        self.expect("(")
        value = self.expr()
        self.expect(")")
        return value

    def body(self) -> Stmt:
        self.newlines()
        return self.statement()

    def loop_body(self) -> Stmt:
        self.loops += 1
        try:
            return self.body()
        finally:
            self.loops -= 1

    def end_simple(self) -> None:
        if self.at("|", "<") and self.peek(1).value == "getline":
            raise AwkError(_UNSUPPORTED["getline"])
        if self.at(";") or self.peek().kind == "newline":
            self.advance()
        elif not (self.at("}") or self.peek().kind == "eof"):
            raise self.error()

    def if_statement(self) -> If:
        self.advance()
        condition = self.condition()
        then = self.body()
        mark = self.i
        self.terminators()
        if self.at("else"):
            self.advance()
            return If(condition, then, self.body())
        self.i = mark
        return If(condition, then)

    def for_statement(self) -> Stmt:
        self.advance()
        self.expect("(")
        if (
            self.peek().kind == "name"
            and self.peek(1).value == "in"
            and self.peek(2).kind == "name"
            and self.peek(3).value == ")"
        ):
            var = self.advance().value
            self.advance()
            array = self.advance().value
            self.advance()
            return ForIn(var, array, self.loop_body())
        init = None if self.at(";") else self.simple_statement(self.peek())
        self.expect(";")
        self.newlines()
        condition = None if self.at(";") else self.expr()
        self.expect(";")
        self.newlines()
        step = None if self.at(")") else self.simple_statement(self.peek())
        self.expect(")")
        if self.at(";"):
            self.advance()
            return For(init, condition, step, Block())
        return For(init, condition, step, self.loop_body())

    def simple_statement(self, token: Token) -> Stmt:
        if token.kind == "keyword" and token.value in _UNSUPPORTED:
            raise AwkError(_UNSUPPORTED[token.value])
        if self.at("print", "printf"):
            return self.print_statement()
        if self.at("next", "nextfile", "break", "continue"):
            if self.at("break", "continue") and not self.loops:
                raise AwkError(f"{token.value} is not in a loop (source line {token.line})")
            return Jump(self.advance().value)
        if self.at("exit"):
            self.advance()
            ends = self.at(";", "}") or self.peek().kind in ("newline", "eof")
            return Exit(None if ends else self.expr())
        if self.at("delete"):
            self.advance()
            name = self.advance()
            if name.kind != "name":
                raise self.error(name)
            subscripts = None
            if self.at("["):
                subscripts = self.subscripts()
            return Delete(name.value, subscripts)
        return ExprStmt(self.expr())

    def print_statement(self) -> Print:
        formatted = self.advance().value == "printf"
        args: list[Expr] = []
        if not (self.at(";", "}", ">", ">>", "|") or self.peek().kind in ("newline", "eof")):
            args = self.expr_list(no_gt=True)
        stderr = False
        if self.at(">", ">>", "|"):
            op = self.advance().value
            target = self.advance()
            if op == "|" or target.kind != "string" or target.value not in _STD_STREAMS:
                raise AwkError(
                    f"output redirection (print {op} ...) is not supported; redirect the "
                    "awk command's output in the shell instead (/dev/stderr works)"
                )
            stderr = target.value == "/dev/stderr"
        if len(args) == 1 and isinstance(args[0], Group):
            args = list(args[0].items)
        if formatted and not args:
            raise AwkError("printf: no format")
        return Print(args, formatted, stderr)

    def expr_list(self, *, no_gt: bool = False) -> list[Expr]:
        items = [self.expr(no_gt=no_gt)]
        while self.at(","):
            self.advance()
            self.newlines()
            items.append(self.expr(no_gt=no_gt))
        return items

    def subscripts(self) -> tuple[Expr, ...]:
        self.expect("[")
        items = self.expr_list()
        self.expect("]")
        return tuple(items)

    # -- expressions ---------------------------------------------------------------------

    def expr(self, *, no_gt: bool = False) -> Expr:
        self.depth += 1
        if self.depth > _MAX_DEPTH:
            raise AwkError("expression nested too deeply")
        try:
            left = self.ternary(no_gt)
            if self.peek().kind == "op" and self.peek().value in _ASSIGN_OPS:
                if not isinstance(left, Var | Index | Field):
                    raise self.error()
                op = self.advance().value
                self.newlines()
                return Assign(left, "^=" if op == "**=" else op, self.expr(no_gt=no_gt))
            return left
        finally:
            self.depth -= 1

    def ternary(self, no_gt: bool) -> Expr:
        condition = self.binary_or(no_gt)
        if not self.at("?"):
            return condition
        self.advance()
        self.newlines()
        yes = self.expr(no_gt=no_gt)
        self.newlines()
        self.expect(":")
        self.newlines()
        return Ternary(condition, yes, self.expr(no_gt=no_gt))

    def binary_or(self, no_gt: bool) -> Expr:
        return self.chain(("||",), lambda: self.binary_and(no_gt), newlines=True)

    def binary_and(self, no_gt: bool) -> Expr:
        return self.chain(("&&",), lambda: self.membership(no_gt), newlines=True)

    def chain(self, ops: tuple[str, ...], operand: Callable[[], Expr], newlines: bool) -> Expr:
        """Left-associative ``operand (op operand)*``."""
        left = operand()
        while self.at(*ops):
            op = self.advance().value
            if newlines:
                self.newlines()
            left = Binary(op, left, operand())
        return left

    def membership(self, no_gt: bool) -> Expr:
        left = self.matching(no_gt)
        while self.at("in"):
            self.advance()
            name = self.advance()
            if name.kind != "name":
                raise self.error(name)
            left = In(left, name.value)
        return left

    def matching(self, no_gt: bool) -> Expr:
        return self.chain(("~", "!~"), lambda: self.comparison(no_gt), newlines=False)

    def comparison(self, no_gt: bool) -> Expr:
        left = self.concatenation(no_gt)
        token = self.peek()
        if token.kind == "op" and token.value in _COMPARE and not (no_gt and token.value == ">"):
            self.advance()
            return Binary(token.value, left, self.concatenation(no_gt))
        return left

    def concatenation(self, no_gt: bool) -> Expr:
        left = self.additive()
        # `a -1` subtracts and `a ++b` is ambiguous: only plain operands concatenate.
        while self.peek().kind in _CONCAT_START or self.at("$", "("):
            left = Binary("concat", left, self.additive())
        return left

    def additive(self) -> Expr:
        return self.chain(("+", "-"), self.multiplicative, newlines=False)

    def multiplicative(self) -> Expr:
        return self.chain(("*", "/", "%"), self.unary, newlines=False)

    def unary(self) -> Expr:
        if self.at("!", "-", "+"):
            op = self.advance().value
            return Unary(op, self.unary())
        return self.power()

    def power(self) -> Expr:
        base = self.postfix()
        if self.at("^", "**"):
            self.advance()
            # Right-associative, and the exponent may carry a sign: 2^-1.
            exponent = Unary(self.advance().value, self.power()) if self.at("-", "+") else None
            return Binary("^", base, exponent or self.power())
        return base

    def postfix(self) -> Expr:
        value = self.primary()
        if self.at("++", "--") and isinstance(value, Var | Index | Field):
            return IncDec(value, 1 if self.advance().value == "++" else -1, prefix=False)
        return value

    def primary(self) -> Expr:
        token = self.advance()
        kind, value = token.kind, token.value
        if kind == "number":
            return Num(float(value))
        if kind == "string":
            return Str(value)
        if kind == "regex":
            return Regex(value)
        if kind == "name":
            if self.at("["):
                return Index(value, self.subscripts())
            if self.at("(") and self.peek().pos == token.pos + len(value):
                raise AwkError(f"{value}(): user-defined functions are not supported")
            return Var(value)
        if kind == "builtin":
            return self.call(value)
        if kind == "op" and value == "$":
            if self.at("++", "--"):
                return Field(self.primary_incdec())
            if self.at("-"):
                self.advance()
                return Field(Unary("-", self.primary()))
            return Field(self.primary())
        if kind == "op" and value in ("++", "--"):
            self.i -= 1
            return self.primary_incdec()
        if kind == "op" and value == "(":
            self.newlines()
            items = self.expr_list()
            self.newlines()
            self.expect(")")
            return items[0] if len(items) == 1 else Group(tuple(items))
        if kind == "keyword" and value in _UNSUPPORTED:
            raise AwkError(_UNSUPPORTED[value])
        raise self.error(token)

    def primary_incdec(self) -> Expr:
        delta = 1 if self.advance().value == "++" else -1
        target = self.primary()
        if not isinstance(target, Var | Index | Field):
            raise self.error()
        return IncDec(target, delta, prefix=True)

    def call(self, name: str) -> Expr:
        if name == "system":
            raise AwkError("system() is not supported: there is no operating system here")
        if not self.at("("):
            if name == "length":
                return Call("length", ())
            raise self.error()
        self.advance()
        self.newlines()
        args: list[Expr] = []
        if not self.at(")"):
            args = self.expr_list()
        self.newlines()
        self.expect(")")
        return Call(name, tuple(args))


def parse(source: str) -> Program:
    """The program, or ``AwkError`` naming the line and the token."""
    return _Parser(source).program()
