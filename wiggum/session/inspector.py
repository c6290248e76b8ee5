"""The style inspector's decisions: what it shows of a selected element, where a
change is written, and writing it as one checkpoint.

The preview's select mode fills a :class:`StyleTarget` (the element's tag, id,
classes, computed styles, where its start tag is written, the stylesheets the
page links); the inspector shows :func:`inspector_fields` and the places a
change can go (:func:`destinations`), :func:`plan_style_edit` turns the
person's values into new file texts, and :func:`write_style_edit` writes them
and keeps them as one checkpoint in History, so Undo (History's restore or
revert) takes back the stylesheet and the page together.

Where a change goes, decided here and said on screen ("styles.css · .cta"):

* a class of the element that **no other start tag** of the project's pages
  carries is the element's own: its rule is edited (the last top-level
  ``.cta { }`` of the stylesheets, as the cascade picks it), or added to the
  page's last stylesheet (later rules win at equal specificity);
* otherwise the element gets a class of its own (its ``id`` when that is a
  free class name, else ``wg-<tag>-<n>``), added to its start tag, with a rule
  in the last stylesheet; a shared class's rule is offered too ("all 3
  elements with .btn"), never chosen for the person;
* "Only this element" writes a ``style=""`` attribute on the start tag, and
  nothing else does;
* a page that links no stylesheet of the project (its styles in a ``<style>``
  element, or none yet) gets the project's ``style.css`` (made when there is
  none) linked last in its head, so its rules win over the page's own at equal
  specificity, and the change goes there as above ("style.css (new, linked
  from index.html) · .cta"): never inline unless the person asks.

Before writing, each file is read again: one changed since the inspector read
it is not overwritten (nothing the person or Ralph wrote is lost), and the
person is asked to select again; the files are then written in one batch
(``FileStore.write_many``), all or none.  tinycss2 is loaded by :func:`read_style_files`
before anything here parses CSS.
"""

from __future__ import annotations

import logging
import posixpath
import re
from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Any, Literal, Protocol

from wiggum.fs import FileStore, FileStoreError, PathError, StorageFull
from wiggum.project.css_edit import CssEditError, find_rule, set_rule
from wiggum.project.start_tag import StartTagError, add_class, attributes, class_uses, set_attribute
from wiggum.project.stylesheet_link import link_stylesheet
from wiggum.ui.style_values import (
    ALIGNMENTS,
    INSPECTED,
    LABELS,
    WEIGHTS,
    StyleValueError,
    checked_value,
    computes_as,
    shown_value,
)
from wiggum.ui.tab_lock import ProjectPaused

__all__ = [
    "Applied",
    "Checkpoints",
    "Destination",
    "InspectorField",
    "StyleEdit",
    "StyleRefused",
    "StyleTarget",
    "StyleWritten",
    "after_apply",
    "changed_values",
    "chosen_destination",
    "class_choices",
    "class_selector",
    "destinations",
    "inspector_fields",
    "plan_style_edit",
    "read_style_files",
    "same_element",
    "unseen",
    "write_style_edit",
]

log = logging.getLogger("wiggum.session.inspector")

#: The agents' notes, never part of the person's checkpoint (``project.service.AGENT_MEMORY``).
_AGENT_MEMORY = (".chief", ".ralph")
#: The stylesheet a page that links none gets: at the project's root, one for all its pages.
NEW_SHEET = "style.css"


@dataclass(frozen=True, slots=True, kw_only=True)
class StyleTarget:
    """A selected element, as the preview's select mode reports it (by keyword)."""

    tag: str
    id: str = ""
    classes: tuple[str, ...] = ()
    #: The computed values of :data:`~wiggum.ui.style_values.INSPECTED` (as the browser gives them).
    computed: Mapping[str, str] = field(default_factory=dict)
    #: The page file its start tag is written in, the offset of that tag's ``<``
    #: in the file's text, and its line (1-based, for display).
    html_path: str
    offset: int
    line: int
    #: The project's stylesheets the page links, in document order.
    css_files: tuple[str, ...] = ()

    @property
    def label(self) -> str:
        """``<button.cta>`` / ``<h1#top>``: the element in a few characters."""
        tail = f"#{self.id}" if self.id else "".join(f".{c}" for c in self.classes[:2])
        return f"<{self.tag}{tail}>"


@dataclass(frozen=True, slots=True)
class InspectorField:
    """One property's field: what it shows and how it is edited."""

    prop: str
    label: str
    kind: Literal["colour", "size", "choice", "text"]
    value: str
    options: tuple[str, ...] = ()


@dataclass(frozen=True, slots=True)
class Destination:
    """Where a change is written."""

    kind: Literal["rule", "new-class", "inline"]
    #: The class whose rule is written (``None`` for ``inline``).
    class_name: str | None
    #: The stylesheet written (``None`` for ``inline``).
    css_path: str | None
    #: How many start tags carry the class (the elements the change reaches).
    reach: int
    #: What the inspector says: "styles.css · .cta".
    label: str
    #: The address the page links ``css_path`` at, when it does not link it yet.
    link: str | None = None


@dataclass(frozen=True, slots=True)
class StyleEdit:
    """New texts for the files a style change writes, and its checkpoint's message."""

    summary: str
    where: str
    css_path: str | None = None
    css_text: str | None = None
    #: Each written file's text as planned from: it must still be so when written.
    before: tuple[tuple[str, str], ...] = field(default=())
    html_path: str | None = None
    html_text: str | None = None
    #: The values written (property -> value as the stylesheet has it).
    values: tuple[tuple[str, str], ...] = ()
    #: The class added to the element's start tag (a new class), if any.
    added_class: str | None = None
    #: The stylesheet the page links from now on, if it did not.
    linked: str | None = None
    #: How far the element's start tag moved: characters and lines (a link
    #: written before it).
    moved: tuple[int, int] = (0, 0)

    @property
    def writes(self) -> tuple[tuple[str, str], ...]:
        """``(path, text)`` of each file written, the stylesheet first."""
        out = []
        if self.css_path is not None and self.css_text is not None:
            out.append((self.css_path, self.css_text))
        if self.html_path is not None and self.html_text is not None:
            out.append((self.html_path, self.html_text))
        return tuple(out)


class StyleRefused(ValueError):
    """The change cannot be planned: ``str()`` says why and what to do; ``fields``
    holds each refused field's own message (typed values)."""

    def __init__(self, message: str, fields: Mapping[str, str] | None = None) -> None:
        super().__init__(message)
        self.fields = dict(fields or {})


@dataclass(frozen=True, slots=True)
class StyleWritten:
    """What writing a :class:`StyleEdit` did: the line to show, and the files written."""

    message: str
    error: bool = False
    paths: tuple[str, ...] = ()


class Applied(Protocol):
    """What applying an edit answers (:class:`StyleWritten`, or any result with
    the line to show and whether it was refused)."""

    @property
    def message(self) -> str: ...

    @property
    def error(self) -> bool: ...


class Checkpoints(Protocol):
    """History's checkpoint (``wiggum.project.service.HistoryService.checkpoint``)."""

    async def checkpoint(
        self, author: str, message: str, *, leave_out: tuple[str, ...] = ()
    ) -> Any: ...


# ------------------------------------------------------------------ what is shown


def inspector_fields(target: StyleTarget) -> list[InspectorField]:
    """A field per inspected property, showing its computed value."""
    out = []
    for prop in INSPECTED:
        value = shown_value(prop, target.computed.get(prop, ""))
        if prop in ("color", "background-color"):
            out.append(InspectorField(prop, LABELS[prop], "colour", value))
        elif prop in ("font-weight", "text-align"):
            options = WEIGHTS if prop == "font-weight" else ALIGNMENTS
            if value and value not in options:  # "bold" from a keyword: still shown
                options = (value, *options)
            out.append(InspectorField(prop, LABELS[prop], "choice", value, options))
        elif prop == "font-family":
            out.append(InspectorField(prop, LABELS[prop], "text", value))
        else:
            out.append(InspectorField(prop, LABELS[prop], "size", value))
    return out


def changed_values(target: StyleTarget, entered: Mapping[str, str]) -> dict[str, str]:
    """The fields the person changed (what they typed, trimmed), in the fields' order."""
    shown = {f.prop: f.value for f in inspector_fields(target)}
    out = {}
    for prop in INSPECTED:
        typed = " ".join(entered.get(prop, "").split())
        if typed and typed.lower() != shown.get(prop, "").lower():
            out[prop] = typed
    return out


def _pages(files: Mapping[str, str]) -> dict[str, str]:
    return {p: t for p, t in files.items() if p.lower().endswith((".html", ".htm"))}


def _uses(files: Mapping[str, str]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for text in _pages(files).values():
        for name, n in class_uses(text).items():
            counts[name] = counts.get(name, 0) + n
    return counts


def class_selector(name: str) -> str:
    """The selector of the class ``name`` as a stylesheet must write it: a class
    of the site's markup may hold any character (``class="w-1/2"``), escaped so
    that it stays one class (``.w-1\\/2``), never CSS of its own."""
    from tinycss2 import serialize_identifier

    return "." + serialize_identifier(name)


def _rule_file(target: StyleTarget, files: Mapping[str, str], class_name: str) -> str | None:
    """The last linked stylesheet with a top-level rule that is exactly ``.class_name``."""
    found = None
    for path in target.css_files:
        text = files.get(path)
        if text is None:
            continue
        try:
            if find_rule(text, class_selector(class_name)) is not None:
                found = path
        except CssEditError:
            continue
    return found


def _new_class(target: StyleTarget, files: Mapping[str, str]) -> str:
    """A class no page and no stylesheet uses: the element's id, else ``wg-<tag>-<n>``."""
    taken = set(_uses(files))
    css = "\n".join(files.get(p, "") for p in target.css_files)

    def free(name: str) -> bool:
        return name not in taken and not re.search(rf"\.{re.escape(name)}(?![\w-])", css)

    if target.id and re.fullmatch(r"[a-zA-Z][a-zA-Z0-9_-]*", target.id) and free(target.id):
        return target.id
    tag = re.sub(r"[^a-z0-9]", "", target.tag.lower()) or "el"
    n = 1
    while not free(f"wg-{tag}-{n}"):
        n += 1
    return f"wg-{tag}-{n}"


def _name(path: str) -> str:
    return path.rsplit("/", 1)[-1]


def destinations(target: StyleTarget, files: Mapping[str, str]) -> list[Destination]:
    """Where a change can go, the inspector's choice first; "only this element"
    (``inline``) last.  A page that links no stylesheet gets :data:`NEW_SHEET`."""
    inline = Destination(
        "inline", None, None, 1, f"{_name(target.html_path)}:{target.line} · style attribute"
    )
    sheets = [p for p in target.css_files if p in files]
    link, sheet_name = None, _name
    if not sheets:
        sheets = [NEW_SHEET]
        link = posixpath.relpath(NEW_SHEET, posixpath.dirname(target.html_path) or ".")
        state = "new, " if NEW_SHEET not in files else ""
        page = _name(target.html_path)

        def sheet_name(path: str) -> str:
            return f"{_name(path)} ({state}linked from {page})"

    uses = _uses(files)
    own = [c for c in target.classes if uses.get(c, 0) == 1]
    shared = [c for c in target.classes if uses.get(c, 0) > 1]
    out: list[Destination] = []
    with_rule = [(c, _rule_file(target, files, c)) for c in own]
    chosen = next(((c, f) for c, f in with_rule if f), None) or ((own[0], None) if own else None)
    if chosen is not None:
        name, path = chosen[0], chosen[1] or sheets[-1]
        out.append(Destination("rule", name, path, 1, f"{sheet_name(path)} · .{name}", link))
    else:
        name = _new_class(target, files)
        label = f"{sheet_name(sheets[-1])} · .{name} (a new class on this element)"
        out.append(Destination("new-class", name, sheets[-1], 1, label, link))
    for name in shared:
        path = _rule_file(target, files, name)
        if path is not None:
            label = f"{_name(path)} · .{name} (all {uses[name]} elements with it)"
            out.append(Destination("rule", name, path, uses[name], label))
    out.append(inline)
    return out


def chosen_destination(places: list[Destination], index: int, only_this: bool) -> Destination:
    """The place the inspector writes to: the style attribute when "Only this
    element" is ticked, else the place chosen in the list (the first when the
    index is out of it)."""
    if only_this or not places:
        inline = [d for d in places if d.kind == "inline"]
        if inline:
            return inline[0]
    usable = [d for d in places if d.kind != "inline"] or places
    return usable[index] if 0 <= index < len(usable) else usable[0]


def class_choices(places: list[Destination]) -> list[Destination]:
    """The places listed in the inspector's "Write to" list (the style attribute
    is its own checkbox); the list shows only when it offers a choice."""
    return [d for d in places if d.kind != "inline"]


def after_apply(
    target: StyleTarget, edit: StyleEdit, files: Mapping[str, str]
) -> tuple[StyleTarget, dict[str, str]]:
    """The selection and the files as an applied ``edit`` leaves them: the
    values written are the fields' new starting point (an Apply again sends
    only what changes next), a new class is the element's, the files are the
    written texts (the next plan starts from them)."""
    computed = {**target.computed, **dict(edit.values)}
    classes = target.classes
    if edit.added_class and edit.added_class not in classes:
        classes = (*classes, edit.added_class)
    sheets = target.css_files
    if edit.linked and edit.linked not in sheets:
        sheets = (*sheets, edit.linked)
    chars, lines = edit.moved
    moved = replace(
        target,
        computed=computed,
        classes=classes,
        css_files=sheets,
        offset=target.offset + chars,
        line=target.line + lines,
    )
    return moved, {**files, **dict(edit.writes)}


# ------------------------------------------------------------------ the plan


def _summary(subject: str, changes: Mapping[str, str]) -> str:
    said = ", ".join(f"{p} {v}" for p, v in changes.items())
    line = f"Style {subject}: {said}"
    return line if len(line) <= 100 else line[:99].rstrip() + "…"


def plan_style_edit(
    target: StyleTarget,
    changes: Mapping[str, str],
    files: Mapping[str, str],
    destination: Destination | None = None,
) -> StyleEdit:
    """The files ``changes`` (property → typed value) write at ``destination``
    (the inspector's choice when ``None``); :class:`StyleRefused` says why not."""
    checked, refused = {}, {}
    for prop, typed in changes.items():
        try:
            checked[prop] = checked_value(prop, typed)
        except StyleValueError as exc:
            refused[prop] = str(exc)
    if refused:
        raise StyleRefused(next(iter(refused.values())), refused)
    if not checked:
        raise StyleRefused("Nothing changed: type a new value in a field, then Apply.")
    where = destination or destinations(target, files)[0]
    html = files.get(target.html_path)
    if html is None:
        raise StyleRefused(f"{target.html_path} is not in the project any more: select again.")
    try:
        return _planned(target, checked, files, where, html)
    except (CssEditError, StartTagError) as exc:
        path = where.css_path if isinstance(exc, CssEditError) else target.html_path
        raise StyleRefused(f"{path}: {exc}") from exc


def _planned(
    target: StyleTarget,
    checked: dict[str, str],
    files: Mapping[str, str],
    where: Destination,
    html: str,
) -> StyleEdit:
    if where.kind == "inline":
        style = attributes(html, target.offset).get("style", "")
        if "{" in style or "}" in style:
            raise StartTagError("its style attribute cannot be read; change it in the editor.")
        block = set_rule(f"x{{{style}}}", "x", checked)
        new_style = block[2:-1].strip()
        new_html = set_attribute(html, target.offset, "style", new_style, tag=target.tag)
        return StyleEdit(
            _summary(
                f"{target.label} at {target.html_path}:{target.line} (only this element)", checked
            ),
            where.label,
            html_path=target.html_path,
            html_text=new_html,
            before=((target.html_path, html),),
        )
    assert where.css_path is not None and where.class_name is not None
    css = files.get(where.css_path, "")
    new_css = set_rule(css, class_selector(where.class_name), checked)
    page, moved = html, (0, 0)
    if where.kind == "new-class":  # within the tag: its "<" stays where it is
        page = add_class(html, target.offset, where.class_name, tag=target.tag)
    if where.link is not None:
        linked = link_stylesheet(page, where.link)
        page = linked.text
        if linked.offset <= target.offset:
            moved = (linked.length, linked.lines)
    if where.kind == "rule":
        subject = "." + where.class_name
    else:
        subject = f".{where.class_name} (new class on {target.label})"
    html_changed = page != html
    return StyleEdit(
        _summary(subject, checked),
        where.label,
        css_path=where.css_path,
        css_text=new_css,
        html_path=target.html_path if html_changed else None,
        html_text=page if html_changed else None,
        before=((where.css_path, css), (target.html_path, html))
        if html_changed
        else ((where.css_path, css),),
        values=tuple(checked.items()),
        added_class=where.class_name if where.kind == "new-class" else None,
        linked=where.css_path if where.link is not None else None,
        moved=moved,
    )


# ------------------------------------------------------------------ reading and writing


async def read_style_files(
    fs: FileStore, target: StyleTarget, load: Callable[..., Awaitable[None]]
) -> dict[str, str]:
    """The page and its stylesheets as they are now (a stylesheet not in the
    project is left out), with tinycss2 loaded (``load``: the host's
    ``load_packages``), and every other page of the project (a class's reach)."""
    await load("tinycss2")
    out: dict[str, str] = {}
    paths = [target.html_path, *target.css_files, NEW_SHEET]
    for path in await fs.list():
        if path.lower().endswith((".html", ".htm")) and not path.startswith((".chief/", ".ralph/")):
            paths.append(path)
    for path in dict.fromkeys(paths):
        try:
            out[path] = await fs.read_text(path)
        except (FileStoreError, PathError, UnicodeDecodeError):
            continue
    return out


def _write_refused(exc: BaseException) -> str:
    if isinstance(exc, ProjectPaused):
        return f"Not applied. {exc}"
    if isinstance(exc, StorageFull):
        return f"Not applied. {exc} Free some space, then apply again."
    return f"Not applied: {exc}. Nothing was changed; apply again."


async def write_style_edit(fs: FileStore, history: Checkpoints, edit: StyleEdit) -> StyleWritten:
    """Write ``edit``'s files and keep them as ONE checkpoint (``edit.summary``).

    A file changed since the plan read it is not overwritten; the files are
    written in one batch, so the stylesheet and the page change together or not."""
    before = dict(edit.before)
    for path, _ in edit.writes:
        try:
            now = await fs.read_text(path) if await fs.exists(path) else ""
        except (FileStoreError, PathError, UnicodeDecodeError) as exc:
            return StyleWritten(_write_refused(exc), error=True)
        if path in before and now != before[path]:
            return StyleWritten(
                f"Not applied: {path} changed since the inspector read it. "
                "Select the element again, then apply.",
                error=True,
            )
    try:  # one change, all or none (one IndexedDB transaction in the page)
        await fs.write_many({path: text.encode("utf-8") for path, text in edit.writes})
    except (FileStoreError, PathError, OSError) as exc:
        return StyleWritten(_write_refused(exc), error=True)
    paths = tuple(path for path, _ in edit.writes)
    try:
        await history.checkpoint("you", edit.summary, leave_out=_AGENT_MEMORY)
    except ProjectPaused:
        log.info("inspector: no checkpoint; another tab has the project now")
        return StyleWritten(f"{edit.summary} — applied.", paths=paths)
    except Exception as exc:
        log.exception("inspector: checkpoint failed")
        return StyleWritten(
            f"{edit.summary} — applied, but no checkpoint was kept in History ({exc}).",
            error=True,
            paths=paths,
        )
    return StyleWritten(f"{edit.summary} — applied (Undo in History).", paths=paths)


def same_element(one: StyleTarget, other: StyleTarget) -> bool:
    """Whether two selections are one element (its start tag at one place)."""
    return (one.html_path, one.offset, one.tag) == (other.html_path, other.offset, other.tag)


def unseen(edit: StyleEdit, computed: Mapping[str, str]) -> str | None:
    """After the preview shows the applied ``edit``: what to say when the browser
    computes something else than a value written (``computed``: the element's
    styles as the preview reports them again), else ``None``.  Only values whose
    computed form can be told are compared (:func:`computes_as`)."""
    for prop, value in edit.values:
        expected = computes_as(prop, value)
        now = shown_value(prop, computed.get(prop, ""))
        if expected is not None and now and now != expected:
            label = LABELS.get(prop, prop)
            return (
                f"{label} is still {now}, not {value}: another rule wins over {edit.where} "
                "(more specific, later, or !important). Tick Only this element, or ask "
                "Ralph to change that rule."
            )
    return None
