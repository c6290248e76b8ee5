"""The shell's syntax tree: words made of parts, commands made of words."""

from __future__ import annotations

from dataclasses import dataclass, field

__all__ = [
    "AndOr",
    "Arith",
    "ArithCommand",
    "ArithFor",
    "Case",
    "CmdSub",
    "Command",
    "Cond",
    "For",
    "FunctionDef",
    "Heredoc",
    "If",
    "Lit",
    "Param",
    "Part",
    "Pipeline",
    "Redirect",
    "Script",
    "SimpleCommand",
    "Subshell",
    "While",
    "Word",
]


@dataclass(frozen=True, slots=True)
class Lit:
    text: str
    #: Quoted text is neither glob-expanded nor split into fields.
    quoted: bool = False


@dataclass(frozen=True, slots=True)
class Param:
    """``$name``, ``${name}``, ``${name:-word}``, ``${#name}``, ``${name%pat}``,
    ``${name/pat/rep}``, ``${name:1:2}``, ``${name^^}``..."""

    name: str
    quoted: bool = False
    #: One of ``:- - := = :+ + :? ? # ## % %% len``, ``/ // /# /%`` (replace),
    #: ``:`` (substring), ``^^ ^ ,, ,`` (case), or None.
    op: str | None = None
    arg: Word | None = None
    #: The replacement of ``${x/pattern/replacement}``, the length of ``${x:offset:length}``.
    arg2: Word | None = None


@dataclass(frozen=True, slots=True)
class CmdSub:
    """``$(...)`` or backquotes: the source, parsed when it runs."""

    source: str
    quoted: bool = False


@dataclass(frozen=True, slots=True)
class Arith:
    """``$((...))``: the expression's text, expanded then evaluated."""

    expr: Word
    quoted: bool = False


Part = Lit | Param | CmdSub | Arith


@dataclass(frozen=True, slots=True)
class Word:
    parts: tuple[Part, ...]
    #: The word as written, for messages and reserved-word checks.
    raw: str = ""

    @property
    def plain(self) -> str | None:
        """The word's text when it is one unquoted literal (a keyword candidate)."""
        if len(self.parts) == 1 and isinstance(self.parts[0], Lit) and not self.parts[0].quoted:
            return self.parts[0].text
        return None


@dataclass(slots=True)
class Heredoc:
    delimiter: str
    strip_tabs: bool
    #: Unquoted delimiter: ``$var``, ``$(...)`` and ``\\`` are processed in the body.
    expand: bool
    body: str = ""
    #: The body parsed into parts when ``expand`` (filled by the lexer).
    word: Word | None = None


@dataclass(slots=True)
class Redirect:
    fd: int
    #: ``<  >  >>  >|  <<  <<-  <<<  >&  <&  &>  &>>``
    op: str
    target: Word | None = None
    heredoc: Heredoc | None = None


@dataclass(slots=True)
class SimpleCommand:
    words: list[Word] = field(default_factory=list)
    assignments: list[tuple[str, Word]] = field(default_factory=list)
    redirects: list[Redirect] = field(default_factory=list)


@dataclass(slots=True)
class Subshell:
    body: Script
    redirects: list[Redirect] = field(default_factory=list)
    #: ``{ ...; }`` runs in the current shell; ``( ... )`` in a copy.
    group: bool = False


@dataclass(slots=True)
class If:
    clauses: list[tuple[Script, Script]]
    orelse: Script | None = None
    redirects: list[Redirect] = field(default_factory=list)


@dataclass(slots=True)
class For:
    var: str
    #: ``None``: ``for x; do`` (the positional parameters, always empty here).
    items: list[Word] | None
    body: Script
    redirects: list[Redirect] = field(default_factory=list)


@dataclass(slots=True)
class ArithFor:
    """``for (( init; condition; step ))``: an empty condition is true."""

    init: Word
    condition: Word
    step: Word
    body: Script
    redirects: list[Redirect] = field(default_factory=list)


@dataclass(slots=True)
class Cond:
    """``[[ ... ]]``: words are neither split nor globbed, ``&& || < > ( )``
    are operands of the test, and the right side of ``==`` is a pattern."""

    words: list[Word]
    redirects: list[Redirect] = field(default_factory=list)


@dataclass(slots=True)
class While:
    condition: Script
    body: Script
    #: ``until``: loop while the condition fails.
    until: bool = False
    redirects: list[Redirect] = field(default_factory=list)


@dataclass(slots=True)
class Case:
    subject: Word
    #: ``(patterns, body)`` per arm, in order; the first arm that matches runs.
    arms: list[tuple[list[Word], Script]]
    redirects: list[Redirect] = field(default_factory=list)


@dataclass(slots=True)
class FunctionDef:
    name: str
    body: Command
    redirects: list[Redirect] = field(default_factory=list)


@dataclass(slots=True)
class ArithCommand:
    """``(( expr ))``: status 0 when the value is not zero."""

    expr: Word
    redirects: list[Redirect] = field(default_factory=list)


Command = (
    SimpleCommand | Subshell | If | For | ArithFor | While | Case | FunctionDef | ArithCommand
    | Cond
)  # fmt: skip


@dataclass(slots=True)
class Pipeline:
    commands: list[Command]
    negated: bool = False


@dataclass(slots=True)
class AndOr:
    first: Pipeline
    rest: list[tuple[str, Pipeline]] = field(default_factory=list)


@dataclass(slots=True)
class Script:
    items: list[AndOr] = field(default_factory=list)
