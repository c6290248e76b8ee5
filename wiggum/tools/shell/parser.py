"""Shell parser: tokens to a ``Script`` (recursive descent).

script    := list EOF
list      := and_or ((';' | NEWLINE) and_or)* [';']
and_or    := pipeline (('&&' | '||') pipeline)*
pipeline  := ['!'] command ('|' command)*
command   := '(' list ')' | '{' list '}' | '((' arith '))' | if | for | while | case
             | function | simple                                    (+ redirects)
simple    := (NAME=word | redirect)* [word (word | redirect)*]
if        := 'if' list 'then' list ('elif' list 'then' list)* ['else' list] 'fi'
for       := 'for' NAME ['in' word*] (';' | NEWLINE) 'do' list 'done'
             | 'for' '((' arith ';' arith ';' arith '))' [';'] 'do' list 'done'
cond      := '[[' (word | '&&' | '||' | '<' | '>' | '(' | ')')* ']]'
while     := ('while' | 'until') list 'do' list 'done'
case      := 'case' word 'in' (['('] word ('|' word)* ')' list [';;'])* 'esac'
function  := (NAME '(' ')' | 'function' NAME ['(' ')']) compound-command
"""

from __future__ import annotations

import re

from .lexer import (
    NO_ARRAYS,
    ShellSyntaxError,
    Token,
    arith_command_end,
    parse_word_text,
    tokenize,
)
from .nodes import (
    AndOr,
    ArithCommand,
    ArithFor,
    Case,
    Command,
    Cond,
    For,
    FunctionDef,
    If,
    Lit,
    Pipeline,
    Redirect,
    Script,
    SimpleCommand,
    Subshell,
    While,
    Word,
)

__all__ = ["ShellSyntaxError", "parse"]

_REDIRECT_OPS = {"<", ">", ">>", ">|", "<<", "<<-", "<<<", "<&", ">&", "&>", "&>>"}
_ASSIGNMENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*=")
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: bash accepts more than POSIX names for functions; agents write `build-site() {`.
_FUNCTION_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_.:-]*")
_CLOSERS = {"then", "elif", "else", "fi", "do", "done", "}", "esac"}
#: Operators that are plain operands inside `[[ ]]`.
_COND_OPS = {"&&", "||", "<", ">", "(", ")"}
_UNSUPPORTED = {
    "select": "select is not supported; use a for loop over a list",
}


class _Parser:
    def __init__(self, source: str) -> None:
        self.source = source
        self.tokens = tokenize(source)
        self.i = 0

    # -- helpers ---------------------------------------------------------------

    def peek(self) -> Token:
        return self.tokens[self.i]

    def advance(self) -> Token:
        token = self.tokens[self.i]
        if token.kind != "eof":
            self.i += 1
        return token

    def is_op(self, *ops: str) -> bool:
        token = self.peek()
        return token.kind == "op" and token.value in ops

    def is_keyword(self, *words: str) -> bool:
        token = self.peek()
        return token.kind == "word" and token.word is not None and token.word.plain in words

    def error_at(self, token: Token) -> ShellSyntaxError:
        if token.kind == "eof":
            return ShellSyntaxError("syntax error: unexpected end of input", self.source, token.pos)
        shown = "newline" if token.kind == "newline" else token.value or "end of input"
        return ShellSyntaxError(
            f"syntax error near unexpected token `{shown}'", self.source, token.pos
        )

    def expect_keyword(self, word: str) -> None:
        if not self.is_keyword(word):
            token = self.peek()
            if token.kind == "eof":
                raise ShellSyntaxError(
                    f"syntax error: unexpected end of input (expected `{word}')",
                    self.source,
                    token.pos,
                )
            raise self.error_at(token)
        self.advance()

    def skip_newlines(self) -> None:
        while self.peek().kind == "newline":
            self.advance()

    # -- grammar -------------------------------------------------------------------

    def script(self) -> Script:
        script = self.list(closers=set())
        if self.peek().kind != "eof":
            raise self.error_at(self.peek())
        return script

    def list(self, closers: set[str], closing_paren: bool = False) -> Script:
        items: list[AndOr] = []
        self.skip_newlines()
        while True:
            token = self.peek()
            if token.kind == "eof" or self.is_keyword(*closers) or self.is_op(")", ";;"):
                break
            items.append(self.and_or())
            if self.is_op("&"):
                raise ShellSyntaxError(
                    "background jobs (&) are not supported; run commands one after another",
                    self.source,
                    self.peek().pos,
                )
            if self.is_op(";"):
                self.advance()
                self.skip_newlines()
                continue
            if self.peek().kind == "newline":
                self.skip_newlines()
                continue
            break
        return Script(items)

    def body(self, closers: set[str]) -> Script:
        script = self.list(closers)
        if not script.items:
            raise self.error_at(self.peek())
        return script

    def and_or(self) -> AndOr:
        node = AndOr(self.pipeline())
        while self.is_op("&&", "||"):
            op = self.advance().value
            self.skip_newlines()
            node.rest.append((op, self.pipeline()))
        return node

    def pipeline(self) -> Pipeline:
        negated = False
        if self.is_keyword("!"):
            self.advance()
            negated = True
        commands = [self.command()]
        while self.is_op("|"):
            self.advance()
            self.skip_newlines()
            commands.append(self.command())
        return Pipeline(commands, negated)

    def command(self) -> Command:
        token = self.peek()
        if self.is_op("("):
            arith = self.arith_command()
            if arith is not None:
                return arith
            self.advance()
            body = self.list(closers=set())
            if not body.items or not self.is_op(")"):
                raise self.error_at(self.peek())
            self.advance()
            return Subshell(body, self.redirects())
        keyword = token.word.plain if token.kind == "word" and token.word else None
        if keyword == "{":
            self.advance()
            body = self.body({"}"})
            self.expect_keyword("}")
            return Subshell(body, self.redirects(), group=True)
        if keyword == "if":
            return self.if_clause()
        if keyword == "[[":
            return self.cond_command()
        if keyword == "for":
            return self.for_clause()
        if keyword in ("while", "until"):
            return self.while_clause(until=keyword == "until")
        if keyword == "case":
            return self.case_clause()
        if keyword in _UNSUPPORTED:
            raise ShellSyntaxError(_UNSUPPORTED[keyword], self.source, token.pos)
        if keyword in _CLOSERS:
            raise self.error_at(token)
        if keyword == "function":
            self.advance()
            return self.function_def()
        if keyword and self.is_function_start():
            return self.function_def()
        return self.simple()

    def is_function_start(self) -> bool:
        """``name ( )`` at the cursor."""
        after = self.tokens[self.i + 1 : self.i + 3]
        return [(t.kind, t.value) for t in after] == [("op", "("), ("op", ")")]

    def arith_command(self) -> ArithCommand | None:
        """``(( expr ))``, or None when the ``((`` opens two subshells."""
        text = self.double_parens()
        if text is None:
            return None
        return ArithCommand(parse_word_text(text, "heredoc"), self.redirects())

    def double_parens(self) -> str | None:
        """The text inside ``(( ... ))`` at the cursor, consumed; None (nothing
        consumed) when the parentheses are not written as one ``((``."""
        first = self.peek()
        second = self.tokens[self.i + 1]
        if not (second.kind == "op" and second.value == "(" and second.pos == first.pos + 1):
            return None
        try:
            end = arith_command_end(self.source, first.pos + 2)
        except ShellSyntaxError:
            return None
        if end is None:
            return None
        while self.peek().kind != "eof" and self.peek().pos < end + 2:
            self.advance()
        return self.source[first.pos + 2 : end]

    def cond_command(self) -> Cond:
        self.advance()
        words: list[Word] = []
        while True:
            token = self.peek()
            if token.kind == "word" and token.word is not None:
                self.advance()
                if token.word.plain == "]]":
                    return Cond(words, self.redirects())
                words.append(token.word)
            elif token.kind == "op" and token.value in _COND_OPS:
                self.advance()
                words.append(Word((Lit(token.value, True),), token.value))
            elif token.kind == "eof":
                raise ShellSyntaxError(
                    "syntax error: unexpected end of input (expected `]]')", self.source, token.pos
                )
            else:
                raise self.error_at(token)

    def function_def(self) -> FunctionDef:
        token = self.advance()
        name = token.word.plain if token.kind == "word" and token.word else None
        if not name or not _FUNCTION_NAME.fullmatch(name) or name in _CLOSERS:
            raise ShellSyntaxError(
                f"`{token.value}': not a valid function name", self.source, token.pos
            )
        if self.is_op("("):
            self.advance()
            if not self.is_op(")"):
                raise self.error_at(self.peek())
            self.advance()
        self.skip_newlines()
        start = self.peek()
        body = self.command()
        if isinstance(body, SimpleCommand | FunctionDef):
            raise ShellSyntaxError(
                f"syntax error: the body of function `{name}' must be a {{ ...; }} group",
                self.source,
                start.pos,
            )
        return FunctionDef(name, body)

    def redirects(self) -> list[Redirect]:
        out = []
        while self.peek().kind == "io_number" or self.is_op(*_REDIRECT_OPS):
            out.append(self.redirect())
        return out

    def redirect(self) -> Redirect:
        fd = None
        if self.peek().kind == "io_number":
            fd = int(self.advance().value)
        op = self.advance().value
        target = self.peek()
        if target.kind != "word":
            raise self.error_at(target)
        self.advance()
        if fd is None:
            fd = 0 if op in ("<", "<<", "<<-", "<<<", "<&") else 1
        if op in ("<<", "<<-"):
            return Redirect(fd, op, target.word, target.heredoc)
        return Redirect(fd, op, target.word)

    def simple(self) -> SimpleCommand:
        cmd = SimpleCommand()
        while True:
            token = self.peek()
            if token.kind == "io_number" or self.is_op(*_REDIRECT_OPS):
                cmd.redirects.append(self.redirect())
            elif token.kind == "word":
                word = token.word
                assert word is not None
                if not cmd.words and _is_assignment(word):
                    cmd.assignments.append(_split_assignment(word))
                    self.refuse_array(token)
                else:
                    cmd.words.append(word)
                self.advance()
            else:
                break
        if not (cmd.words or cmd.assignments or cmd.redirects):
            raise self.error_at(self.peek())
        return cmd

    def refuse_array(self, token: Token) -> None:
        """``name=(a b c)``: say that arrays are missing, not "unexpected `('"."""
        after = self.tokens[self.i + 1]
        if after.kind == "op" and after.value == "(" and after.pos == token.pos + len(token.value):
            raise ShellSyntaxError(f"{token.value}(...): {NO_ARRAYS}", self.source, token.pos)

    def if_clause(self) -> If:
        self.advance()
        clauses = []
        condition = self.body({"then"})
        self.expect_keyword("then")
        clauses.append((condition, self.body({"elif", "else", "fi"})))
        orelse = None
        while self.is_keyword("elif"):
            self.advance()
            condition = self.body({"then"})
            self.expect_keyword("then")
            clauses.append((condition, self.body({"elif", "else", "fi"})))
        if self.is_keyword("else"):
            self.advance()
            orelse = self.body({"fi"})
        self.expect_keyword("fi")
        return If(clauses, orelse, self.redirects())

    def for_clause(self) -> For | ArithFor:
        keyword = self.advance()
        if self.is_op("("):
            return self.arith_for(keyword)
        token = self.advance()
        name = token.word.plain if token.kind == "word" and token.word else None
        if not name or not _NAME.fullmatch(name):
            raise ShellSyntaxError(
                f"`{token.value}': not a valid identifier", self.source, token.pos
            )
        items: list[Word] | None = None
        self.skip_newlines()
        if self.is_keyword("in"):
            self.advance()
            items = []
            while self.peek().kind == "word":
                word = self.advance().word
                assert word is not None
                items.append(word)
        return For(name, items, self.do_group(), self.redirects())

    def arith_for(self, keyword: Token) -> ArithFor:
        text = self.double_parens()
        parts = text.split(";") if text is not None else []
        if len(parts) != 3:
            raise ShellSyntaxError(
                "syntax error: expected `for (( init; condition; step ))'",
                self.source,
                keyword.pos,
            )
        init, condition, step = (parse_word_text(part, "heredoc") for part in parts)
        return ArithFor(init, condition, step, self.do_group(), self.redirects())

    def do_group(self) -> Script:
        """``[;] do list done`` after a for header."""
        if self.is_op(";"):
            self.advance()
        self.skip_newlines()
        self.expect_keyword("do")
        body = self.body({"done"})
        self.expect_keyword("done")
        return body

    def while_clause(self, *, until: bool) -> While:
        self.advance()
        condition = self.body({"do"})
        self.expect_keyword("do")
        body = self.body({"done"})
        self.expect_keyword("done")
        return While(condition, body, until, self.redirects())

    def case_clause(self) -> Case:
        self.advance()
        subject = self.advance()
        if subject.kind != "word" or subject.word is None:
            raise self.error_at(subject)
        self.skip_newlines()
        self.expect_keyword("in")
        self.skip_newlines()
        arms: list[tuple[list[Word], Script]] = []
        while not self.is_keyword("esac"):
            if self.is_op("("):
                self.advance()
            patterns = [self.pattern_word()]
            while self.is_op("|"):
                self.advance()
                patterns.append(self.pattern_word())
            if not self.is_op(")"):
                raise self.error_at(self.peek())
            self.advance()
            arms.append((patterns, self.list({"esac"})))
            if not self.is_op(";;"):
                break
            self.advance()
            self.skip_newlines()
        self.expect_keyword("esac")
        return Case(subject.word, arms, self.redirects())

    def pattern_word(self) -> Word:
        token = self.peek()
        if token.kind != "word" or token.word is None:
            raise self.error_at(token)
        self.advance()
        return token.word


def _is_assignment(word: Word) -> bool:
    first = word.parts[0] if word.parts else None
    return isinstance(first, Lit) and not first.quoted and bool(_ASSIGNMENT.match(first.text))


def _split_assignment(word: Word) -> tuple[str, Word]:
    first = word.parts[0]
    assert isinstance(first, Lit)
    name, _, rest = first.text.partition("=")
    parts = ((Lit(rest, False),) if rest else ()) + word.parts[1:]
    return name, Word(parts, word.raw[len(name) + 1 :])


def parse(source: str) -> Script:
    """Parse a shell script.  ``ShellSyntaxError`` with a bash-like message."""
    return _Parser(source).script()
