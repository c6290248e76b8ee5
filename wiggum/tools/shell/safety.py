"""Commands the shell refuses, whatever their arguments.

Nothing the shell runs reaches an operating system: every command is a
Python class working on the FileStore.  The policy still answers dangerous
requests explicitly, so the model learns at once that they cannot work here
instead of retrying variations:

- Network, privilege and system commands (``curl``, ``wget``, ``ssh``,
  ``sudo``, ``chmod``, ``kill``, ...) are *refused* with exit status 126 and a
  reason.  Any other unknown command (``node``, ``npm``, ``python``) answers
  like a shell: ``node: command not found``, status 127.
- Paths: every path operand is resolved against the project root; absolute
  paths (other than ``/dev/null``, ``/dev/stdout``, ``/dev/stderr`` in
  redirections) and ``..`` that climbs out are refused by ``normalize_path``.
- Removal: ``rm`` of the project root (``rm -rf .``) is refused by the write
  policy; ``rm`` with a bare wildcard at the root (``rm -rf *``, ``rm ./*``) is
  refused here, before the wildcard is expanded; and so is an ``rm`` whose
  operands, however they were produced (a variable, ``$(ls)``, a function's
  ``"$@"``, ``xargs``), name every visible entry at the root.  ``find
  -delete`` needs a filter (``-name``, ``-path``, ...) when it starts at the
  root.
- Writes into ``.chief/`` and ``.ralph/`` follow ``WritePolicy``.
"""

from __future__ import annotations

import re

from wiggum.fs import FileStore, FileStoreError, PathError, join_path

from .nodes import Word

__all__ = ["ALTERNATIVES", "REFUSED", "check_command", "check_removal", "check_words", "not_found"]

_NETWORK = "refused: there is no network access here; the shell works only on the project's files"
_PRIVILEGE = "refused: there are no users or privileges here; the shell works only on project files"
_PERMISSIONS = "refused: project files have no permissions or owners to change"
_SYSTEM = "refused: there is no operating system here; the shell works only on project files"

REFUSED: dict[str, str] = {
    **dict.fromkeys(
        ["curl", "wget", "ssh", "scp", "sftp", "rsync", "nc", "netcat", "ncat", "telnet",
         "ftp", "ping", "nslookup", "dig", "socat"],
        _NETWORK,
    ),
    **dict.fromkeys(["sudo", "su", "doas", "passwd", "useradd", "userdel"], _PRIVILEGE),
    **dict.fromkeys(["chmod", "chown", "chgrp", "chattr", "setfacl"], _PERMISSIONS),
    **dict.fromkeys(
        ["dd", "mkfs", "mount", "umount", "fdisk", "shutdown", "reboot", "halt", "poweroff",
         "kill", "killall", "pkill", "crontab", "systemctl", "service", "nohup", "exec",
         "source", "."],
        _SYSTEM,
    ),
}  # fmt: skip

#: What the site can use instead of installing something: the words end every
#: "command not found" of a package manager or a runtime.
_BROWSER = (
    "these are available: plain HTML, CSS and JavaScript files of the project, ES modules "
    '(<script type="module"> and import from ./file.js), and the browser\'s own APIs (DOM, '
    "fetch, localStorage, canvas, CSS grid and custom properties). A library has to be written "
    "into the project as a file"
)
_PACKAGES = "there is no package manager or build step here: write the files yourself; " + _BROWSER
_RUNTIME = "there is no {name} here: nothing runs but this shell; write the files with write_file"
ALTERNATIVES: dict[str, str] = {
    **dict.fromkeys(
        [
            "npm",
            "npx",
            "yarn",
            "pnpm",
            "bun",
            "pip",
            "pip3",
            "apt",
            "apt-get",
            "brew",
            "composer",
            "gem",
            "cargo",
        ],
        _PACKAGES,
    ),
    **dict.fromkeys(
        [
            "node",
            "deno",
            "python",
            "python3",
            "ruby",
            "php",
            "perl",
            "java",
            "tsc",
            "webpack",
            "vite",
            "make",
            "gcc",
        ],
        _RUNTIME + "; " + _BROWSER,
    ),
}


def not_found(name: str) -> str:
    """The shell's answer to a command it lacks, with the alternative where one is known."""
    alternative = ALTERNATIVES.get(name)
    if alternative is None:
        return f"{name}: command not found"
    return f"{name}: command not found ({alternative.format(name=name)})"


_ROOT_WILDCARD = re.compile(r"[*?.]*\*[*?.]*")


def check_command(argv: list[str], cwd: str) -> str | None:
    """Why ``argv`` is refused, or None."""
    return REFUSED.get(argv[0]) if argv else None


def check_words(words: list[Word], cwd: str) -> str | None:
    """Checks that need the words as written, before globbing (``rm -rf *``)."""
    words = _run_by_wrappers(words)
    if not words or words[0].plain != "rm":
        return None
    for word in words[1:]:
        raw = word.plain
        if raw is None:
            continue
        folder, _, last = raw.rpartition("/")
        if not _ROOT_WILDCARD.fullmatch(last):
            continue
        try:
            at_root = join_path(cwd, folder or ".") == ""
        except PathError:
            continue
        if at_root:
            return (
                f"refused: `rm {raw}` at the project root would delete the whole project; "
                "name the files or folders to remove"
            )
    return None


def _run_by_wrappers(words: list[Word]) -> list[Word]:
    """The command line that ``env [options] [NAME=VALUE]...`` or ``command``
    in front of ``words`` will run (``env rm -rf *`` is an ``rm -rf *``)."""
    while words and words[0].plain in ("env", "command"):
        wrapper = words[0].plain
        words = words[1:]
        if wrapper == "command":
            continue
        while words and (words[0].plain or "").startswith("-"):
            takes_value = words[0].plain in ("-u", "--unset")
            words = words[2 if takes_value else 1 :]
        while words and (words[0].plain or "").find("=") > 0:
            words = words[1:]
    return words


async def check_removal(fs: FileStore, argv: list[str], cwd: str) -> str | None:
    """Why an ``rm`` of these (expanded) operands is refused, or None."""
    if not argv or argv[0] != "rm":
        return None
    operands: list[str] = []
    options_done = False
    for arg in argv[1:]:
        if arg == "--" and not options_done:
            options_done = True
        elif options_done or not arg.startswith("-") or arg == "-":
            operands.append(arg)
    targets: set[str] = set()
    for operand in operands:
        try:
            targets.add(join_path(cwd, operand))
        except PathError:
            continue
    # One visible entry is an ordinary removal; the guard is for "everything".
    if len(targets) < 2:
        return None
    try:
        top = await fs.list("", recursive=False, dirs=True)
    except FileStoreError:
        return None
    visible = {path for path in top if not path.startswith(".")}
    if len(visible) >= 2 and visible <= targets:
        return (
            "refused: this would delete every file and folder at the project root (the whole "
            "project); remove only the files or folders you mean to, or overwrite files instead"
        )
    return None
