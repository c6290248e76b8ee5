"""Files and folders: find mv cp.

``ls`` and ``rm`` are the command faces of ``list_files`` and ``delete_file``
(``wiggum.tools.search_tools``, ``wiggum.tools.file_tools``); ``find`` walks
with ``list_files``'s ``list_entries`` and ``-delete`` removes through
``delete_file``'s ``remove_path``.
"""

from __future__ import annotations

import re

from wiggum.fs import FileStoreError, IsADirectory, PathError, basename, is_within, join_path

from ...args import Opt, parse_args
from ...command import DEV_NULL, CommandContext, ShellCommand, UsageError, error_reason
from ...ops import files
from ...ops.globs import match_glob
from ...ops.listing import Entry, list_entries, relative_to

__all__ = ["FSOPS"]


class Find(ShellCommand):
    """``find``: paths, then an expression of tests (``-name -iname -path -type
    -maxdepth -mindepth -empty -newer``), operators (``! -not -a -o ( )``) and
    actions (``-print -delete -prune -exec ... ;`` / ``+``)."""

    command_name = "find"

    async def execute(self, ctx: CommandContext) -> int:
        args = list(ctx.args)
        starts = []
        while args and not args[0].startswith("-") and args[0] not in ("(", "!", ")"):
            starts.append(args.pop(0))
        starts = starts or ["."]
        max_depth, min_depth, args = _depth_options(args)
        expr = _FindParser(args).parse()
        if expr.deletes and not expr.filters:
            for start in starts:
                try:
                    if ctx.resolve(start) == "":
                        return ctx.fail(
                            "refused: -delete from the project root without a filter such as "
                            "-name would delete the whole project"
                        )
                except PathError:
                    pass
        status = 0
        for start in starts:
            try:
                root = ctx.resolve(start)
                if not await ctx.fs.exists(root):
                    status = ctx.fail(f"'{start}': No such file or directory")
                    continue
                status |= await self._walk(ctx, expr, start, root, max_depth, min_depth)
            except PathError as err:
                status = ctx.fail(str(err))
        if expr.batch:
            status |= await expr.flush(ctx)
        return status

    async def _walk(self, ctx, expr, start, root, max_depth, min_depth) -> int:
        is_dir = await ctx.fs.is_dir(root)
        entries = [Entry(root, is_dir)]
        if is_dir:
            below = await list_entries(ctx.fs, root, recursive=True)
            entries += sorted(below, key=lambda e: e.path.split("/"))
        pruned: list[str] = []
        status = 0
        for entry in entries:
            if any(is_within(entry.path, p) and entry.path != p for p in pruned):
                continue
            rel = relative_to(entry.path, root)
            depth = len(rel.split("/")) if rel else 0
            if max_depth is not None and depth > max_depth:
                continue
            shown = start if not rel else f"{start.rstrip('/')}/{rel}" if start != "/" else rel
            item = _Item(entry, shown, depth)
            if depth < min_depth:
                continue
            result = await expr.evaluate(ctx, item)
            if item.pruned:
                pruned.append(entry.path)
            status |= item.status
            if result and not expr.has_action:
                ctx.out(shown + "\n")
        return status


def _depth_options(args: list[str]) -> tuple[int | None, int, list[str]]:
    max_depth, min_depth, rest = None, 0, []
    i = 0
    while i < len(args):
        if args[i] in ("-maxdepth", "-mindepth") and i + 1 < len(args):
            try:
                value = int(args[i + 1])
            except ValueError:
                raise UsageError(f"invalid argument to {args[i]}: '{args[i + 1]}'") from None
            if args[i] == "-maxdepth":
                max_depth = value
            else:
                min_depth = value
            i += 2
            continue
        rest.append(args[i])
        i += 1
    return max_depth, min_depth, rest


class _Item:
    def __init__(self, entry: Entry, shown: str, depth: int) -> None:
        self.entry = entry
        self.shown = shown
        self.depth = depth
        self.pruned = False
        self.status = 0


class _FindParser:
    _TESTS = frozenset(
        {"-name", "-iname", "-path", "-ipath", "-wholename", "-type", "-newer", "-regex"}
    )

    def __init__(self, args: list[str]) -> None:
        self.args = args
        self.i = 0
        self.has_action = False
        self.deletes = False
        self.filters = False
        self.batch: list[_Exec] = []

    def parse(self) -> _Expr:
        if not self.args:
            node = _Expr(self, ("true",))
        else:
            node = self._or()
            if self.i < len(self.args):
                raise UsageError(f"unexpected argument '{self.args[self.i]}'")
        node.has_action = self.has_action
        node.deletes = self.deletes
        node.filters = self.filters
        node.batch = self.batch
        return node

    def _peek(self) -> str | None:
        return self.args[self.i] if self.i < len(self.args) else None

    def _or(self) -> _Expr:
        left = self._and()
        while self._peek() in ("-o", "-or"):
            self.i += 1
            left = _Expr(self, ("or", left, self._and()))
        return left

    def _and(self) -> _Expr:
        left = self._not()
        while self._peek() not in (None, "-o", "-or", ")"):
            if self._peek() in ("-a", "-and"):
                self.i += 1
            left = _Expr(self, ("and", left, self._not()))
        return left

    def _not(self) -> _Expr:
        if self._peek() in ("!", "-not"):
            self.i += 1
            return _Expr(self, ("not", self._not()))
        return self._primary()

    def _value(self, name: str) -> str:
        if self.i >= len(self.args):
            raise UsageError(f"missing argument to `{name}'")
        value = self.args[self.i]
        self.i += 1
        return value

    def _primary(self) -> _Expr:
        token = self._value("expression")
        if token == "(":
            node = self._or()
            if self._peek() != ")":
                raise UsageError("missing `)'")
            self.i += 1
            return node
        if token in self._TESTS:
            self.filters = True
            return _Expr(self, (token, self._value(token)))
        if token == "-empty":
            self.filters = True
            return _Expr(self, ("-empty",))
        if token in ("-print", "-print0", "-prune", "-delete", "-true", "-false"):
            if token in ("-print", "-print0", "-delete"):
                self.has_action = True
            self.deletes = self.deletes or token == "-delete"
            return _Expr(self, (token,))
        if token in ("-exec", "-execdir", "-ok"):
            self.has_action = True
            argv = []
            while True:
                word = self._value(token)
                if word in (";", "+"):
                    break
                argv.append(word)
            if not argv:
                raise UsageError(f"missing argument to `{token}'")
            action = _Exec(argv, batch=word == "+")
            if action.batch:
                self.batch.append(action)
            return _Expr(self, ("-exec", action))
        raise UsageError(f"unknown predicate `{token}'")


class _Exec:
    def __init__(self, argv: list[str], batch: bool) -> None:
        self.argv = argv
        self.batch = batch
        self.pending: list[str] = []

    def command(self, paths: list[str]) -> list[str]:
        out: list[str] = []
        for word in self.argv:
            if word == "{}" and self.batch:
                out += paths
            else:
                out.append(word.replace("{}", paths[0]) if paths else word)
        return out


class _Expr:
    def __init__(self, parser: _FindParser, node: tuple) -> None:
        self.node = node
        self.has_action = False
        self.deletes = False
        self.filters = False
        self.batch: list[_Exec] = []

    async def flush(self, ctx: CommandContext) -> int:
        status = 0
        for action in self.batch:
            if action.pending:
                status |= await ctx.run_argv(action.command(action.pending), ctx)
                action.pending = []
        return 1 if status else 0

    async def evaluate(self, ctx: CommandContext, item: _Item) -> bool:
        return await _eval(self.node, ctx, item)


async def _eval(node: tuple, ctx: CommandContext, item: _Item) -> bool:
    kind = node[0]
    entry = item.entry
    if kind == "and":
        return await node[1].evaluate(ctx, item) and await node[2].evaluate(ctx, item)
    if kind == "or":
        return await node[1].evaluate(ctx, item) or await node[2].evaluate(ctx, item)
    if kind == "not":
        return not await node[1].evaluate(ctx, item)
    if kind in ("true", "-true", "-print"):
        if kind == "-print":
            ctx.out(item.shown + "\n")
        return True
    if kind == "-print0":
        ctx.out(item.shown + "\0")
        return True
    if kind == "-false":
        return False
    if kind in ("-name", "-iname"):
        name = basename(entry.path) if entry.path else item.shown
        pattern = node[1]
        if kind == "-iname":
            name, pattern = name.lower(), pattern.lower()
        return match_glob(pattern, name, pathname=False, dot=True)
    if kind in ("-path", "-ipath", "-wholename"):
        shown, pattern = item.shown, node[1]
        if kind == "-ipath":
            shown, pattern = shown.lower(), pattern.lower()
        return match_glob(pattern, shown, pathname=False, dot=True)
    if kind == "-regex":
        return re.fullmatch(node[1], item.shown) is not None
    if kind == "-type":
        return (node[1] == "d") == entry.is_dir and node[1] in ("f", "d")
    if kind == "-empty":
        if entry.is_dir:
            return not await ctx.fs.list(entry.path, dirs=True)
        return (await ctx.fs.stat(entry.path)).size == 0
    if kind == "-newer":
        ref = await ctx.fs.stat(ctx.resolve(node[1]))
        return (await ctx.fs.stat(entry.path)).modified > ref.modified
    if kind == "-prune":
        item.pruned = True
        return True
    if kind == "-delete":
        try:
            if await ctx.fs.exists(entry.path):
                await files.remove_path(ctx.fs, ctx.policy, entry.path, recursive=True)
        except (FileStoreError, PathError) as err:
            item.status = ctx.fail(f"cannot delete '{item.shown}': {error_reason(err)}")
            return False
        return True
    if kind == "-exec":
        action: _Exec = node[1]
        if action.batch:
            action.pending.append(item.shown)
            return True
        return await ctx.run_argv(action.command([item.shown]), ctx) == 0
    raise UsageError(f"unknown predicate `{kind}'")  # pragma: no cover


class MoveCopy(ShellCommand):
    opts = (
        Opt("recursive", "rRa", ("recursive", "archive")),
        Opt("force", "f", ("force",)),
        Opt("no_clobber", "n", ("no-clobber",)),
        Opt("verbose", "v", ("verbose",)),
        Opt("target_dir", "t", ("target-directory",), value=True),
        Opt("no_target_dir", "T", ("no-target-directory",)),
        Opt("ignored", "piuP", ("preserve",)),
    )

    def __init__(self, name: str) -> None:
        self.command_name = name

    async def execute(self, ctx: CommandContext) -> int:
        flags, operands = parse_args(ctx.args, self.opts)
        if flags["target_dir"]:
            operands.append(flags["target_dir"])
        if len(operands) < 2:
            raise UsageError(f"missing destination file operand after '{''.join(operands)}'")
        *sources, dest = operands
        try:
            dest_path = ctx.resolve(dest, allow_root=True)
        except PathError as err:
            return ctx.fail(str(err))
        dest_is_dir = await ctx.fs.is_dir(dest_path) and not flags["no_target_dir"]
        if len(sources) > 1 and not dest_is_dir:
            return ctx.fail(f"target '{dest}' is not a directory")
        status = 0
        for source in sources:
            try:
                src = ctx.resolve(source, allow_root=self.command_name == "cp")
                if dest == DEV_NULL:
                    continue
                target = join_path(dest_path, basename(src)) if dest_is_dir else dest_path
                if not await ctx.fs.exists(src):
                    status = ctx.fail(f"cannot stat '{source}': No such file or directory")
                    continue
                if flags["no_clobber"] and await ctx.fs.exists(target):
                    continue
                if src == target:
                    status = ctx.fail(f"'{source}' and '{dest}' are the same file")
                    continue
                if self.command_name == "mv":
                    await files.move_path(ctx.fs, ctx.policy, src, target)
                else:
                    await files.copy_path(
                        ctx.fs, ctx.policy, src, target, recursive=flags["recursive"]
                    )
                if flags["verbose"]:
                    ctx.out(f"'{source}' -> '{relative_to(target, '')}'\n")
            except IsADirectory:
                if self.command_name == "cp" and not flags["recursive"]:
                    status = ctx.fail(f"-r not specified; omitting directory '{source}'")
                else:
                    status = ctx.fail(f"cannot overwrite directory '{dest}'")
            except (FileStoreError, PathError) as err:
                verb = "move" if self.command_name == "mv" else "copy"
                status = ctx.fail(f"cannot {verb} '{source}': {error_reason(err)}")
        return status


FSOPS: list[ShellCommand] = [Find(), MoveCopy("mv"), MoveCopy("cp")]
