"""The style inspector's values: what a field shows, and what a typed value may be.

Shown: the browser's computed value, made readable — a colour as hex (what a
colour input takes; ``transparent`` when fully transparent, eight digits with
an alpha), sizes in px rounded to two decimals.  Typed: each property accepts
what a person would type for it and a stylesheet would keep, and a refusal
says what is wrong and what would do instead ("16 needs a unit: 16px or
1rem").  Colours are checked by tinycss2's CSS Color 4 parser (every name,
hex, ``rgb()``, ``hsl()``, ``oklch()``…: a reference we did not write), a
font list by its tokenizer (quoted names are the one place a value may hold
quotes; the style attribute escapes them); the rest are small grammars written
here, since the inspector's nine properties are all there is.  CSS-wide
keywords (``inherit``, ``initial``…) are accepted everywhere; ``calc()``,
``min()``, ``max()`` and ``clamp()`` wherever a length is, with balanced
parentheses (the browser judges the rest).
"""

from __future__ import annotations

import re

from wiggum.preview.point import INSPECTED

__all__ = [
    "ALIGNMENTS",
    "INSPECTED",
    "LABELS",
    "WEIGHTS",
    "StyleValueError",
    "checked_value",
    "computes_as",
    "shown_value",
    "swatch_value",
]

#: The properties the inspector shows (:data:`INSPECTED`, in its order; the
#: preview's select script reports their computed values), and their labels.
LABELS = {
    "color": "Text colour",
    "background-color": "Background",
    "font-size": "Font size",
    "font-weight": "Font weight",
    "font-family": "Font",
    "margin": "Margin",
    "padding": "Padding",
    "text-align": "Alignment",
    "width": "Width",
}
WEIGHTS = ("100", "200", "300", "400", "500", "600", "700", "800", "900")
ALIGNMENTS = ("start", "left", "center", "right", "justify", "end")

_WIDE = {"inherit", "initial", "unset", "revert", "revert-layer"}
_UNITS = ["px", "em", "rem", "%", "vw", "vh", "vmin", "vmax", "ch", "ex", "lh", "rlh"]
_UNITS += ["svw", "svh", "lvw", "lvh", "dvw", "dvh", "cqw", "cqh", "cqi", "cqb", "cqmin", "cqmax"]
_UNITS += ["cap", "ic", "pt", "pc", "cm", "mm", "q", "in"]
_NUMBER = r"[+-]?(?:\d+\.?\d*|\.\d+)(?:e[+-]?\d+)?"
_LENGTH = re.compile(rf"({_NUMBER})({'|'.join(re.escape(u) for u in _UNITS)})?", re.I)
_MATH = re.compile(r"(calc|min|max|clamp)\(.*\)", re.I | re.S)
_SIZE_WORDS = {
    "xx-small",
    "x-small",
    "small",
    "medium",
    "large",
    "x-large",
    "xx-large",
    "xxx-large",
    "smaller",
    "larger",
}
_WIDTH_WORDS = {"auto", "min-content", "max-content", "fit-content", "stretch"}
_WEIGHT_WORDS = {"normal", "bold", "bolder", "lighter"}
_ALIGN_WORDS = {*ALIGNMENTS, "match-parent"}
_RGB = re.compile(
    r"rgba?\(\s*([\d.]+)[,\s]+([\d.]+)[,\s]+([\d.]+)(?:\s*[,/]\s*([\d.]+%?))?\s*\)", re.I
)


class StyleValueError(ValueError):
    """A typed value the property cannot take; ``str()`` is what the person reads."""

    def __init__(self, prop: str, message: str) -> None:
        super().__init__(message)
        self.prop = prop


# ------------------------------------------------------------------ shown


def _hex(r: float, g: float, b: float, a: float = 1.0) -> str:
    def two(x: float) -> str:
        return f"{max(0, min(255, round(x))):02x}"

    out = "#" + two(r) + two(g) + two(b)
    return out if a >= 1 else out + two(a * 255)


def _px(text: str) -> str:
    def short(m: re.Match[str]) -> str:
        number = f"{float(m.group(1)):.2f}".rstrip("0").rstrip(".")
        return ("0" if number == "-0" else number) + "px"

    return re.sub(rf"({_NUMBER})px", short, text)


def shown_value(prop: str, computed: str) -> str:
    """What the field for ``prop`` shows of the browser's computed value."""
    value = " ".join(computed.split())
    if prop in ("color", "background-color"):
        m = _RGB.fullmatch(value)
        if m is None:
            return value
        alpha = m.group(4)
        a = 1.0 if alpha is None else _alpha(alpha)
        if a == 0:
            return "transparent"
        return _hex(float(m.group(1)), float(m.group(2)), float(m.group(3)), a)
    return _px(value)


def swatch_value(text: str) -> str | None:
    """What a colour input (``#rrggbb`` only) shows for a field's ``text``, or
    ``None`` when it cannot show it (a name, ``rgb()``, an alpha)."""
    value = text.strip().lower()
    if re.fullmatch(r"#[0-9a-f]{6}", value):
        return value
    if re.fullmatch(r"#[0-9a-f]{3}", value):
        return "#" + "".join(c * 2 for c in value[1:])
    return None


def _alpha(text: str) -> float:
    return float(text[:-1]) / 100 if text.endswith("%") else float(text)


# ------------------------------------------------------------------ typed


def checked_value(prop: str, typed: str) -> str:
    """``typed`` as the stylesheet will have it (trimmed, a hex colour in lower
    case), or :class:`StyleValueError` saying what is wrong and what would do."""
    value = " ".join(typed.split())
    label = LABELS.get(prop, prop)
    if not value:
        raise StyleValueError(prop, f"{label}: type a value, or leave it as it was.")
    # Quotes only where CSS needs them: around a font's name with spaces.
    banned = r"[;{}<>\\]|/\*" if prop == "font-family" else r"[;{}<>\"'\\]|/\*"
    if re.search(banned, value):
        raise StyleValueError(prop, f"{label}: “{value}” holds characters a value cannot have.")
    if value.lower() in _WIDE:
        return value.lower()
    if prop in ("color", "background-color"):
        return _colour(prop, label, value)
    if prop == "font-weight":
        return _weight(prop, label, value)
    if prop == "font-family":
        return _families(prop, label, value)
    if prop == "text-align":
        if value.lower() not in _ALIGN_WORDS:
            choices = ", ".join(ALIGNMENTS)
            raise StyleValueError(prop, f"{label}: “{value}” is not an alignment; use {choices}.")
        return value.lower()
    if prop == "font-size":
        return _lengths(prop, label, value, 1, 1, words=_SIZE_WORDS, negative=False)
    if prop == "width":
        return _lengths(prop, label, value, 1, 1, words=_WIDTH_WORDS, negative=False)
    if prop == "margin":
        return _lengths(prop, label, value, 1, 4, words={"auto"}, negative=True)
    if prop == "padding":
        return _lengths(prop, label, value, 1, 4, words=set(), negative=False)
    raise StyleValueError(prop, f"{label} is not a property the inspector writes.")


def _colour(prop: str, label: str, value: str) -> str:
    from tinycss2 import parse_one_component_value
    from tinycss2.color4 import parse_color

    if re.fullmatch(r"[0-9a-fA-F]{3}(?:[0-9a-fA-F]{3})?", value):
        raise StyleValueError(prop, f"{label}: a hex colour starts with #: #{value}.")
    if parse_color(parse_one_component_value(value)) is None:
        raise StyleValueError(
            prop,
            f"{label}: “{value}” is not a colour. Use a name (red), a hex colour "
            "(#cc0000) or rgb(204 0 0).",
        )
    return value.lower() if value.startswith("#") else value


def _weight(prop: str, label: str, value: str) -> str:
    if value.lower() in _WEIGHT_WORDS:
        return value.lower()
    if re.fullmatch(r"\d+(?:\.\d+)?", value) and 1 <= float(value) <= 1000:
        return value
    raise StyleValueError(
        prop, f"{label}: “{value}” is not a weight; use normal, bold or a number 100–900."
    )


def _families(prop: str, label: str, value: str) -> str:
    """A list of fonts, read by tinycss2: each a quoted name or words
    (``"Open Sans", Arial, sans-serif``), separated by commas."""
    from tinycss2 import parse_component_value_list

    families: list[list[str]] = [[]]
    for token in parse_component_value_list(value):
        if token.type == "literal" and token.value == ",":
            families.append([])
        elif token.type in ("ident", "string"):
            families[-1].append(token.type)
        elif token.type != "whitespace":
            families = [[]]  # not a font's name: refused below
            break
    if any(not f or ("string" in f and len(f) > 1) for f in families):
        raise StyleValueError(
            prop,
            f"{label}: “{value}” is not a list of fonts. Separate fonts with commas and put "
            'a name with spaces in quotes: "Open Sans", sans-serif.',
        )
    return value


def _lengths(
    prop: str, label: str, value: str, least: int, most: int, *, words: set[str], negative: bool
) -> str:
    if _MATH.fullmatch(value):
        if value.count("(") != value.count(")"):
            raise StyleValueError(prop, f"{label}: “{value}” has unbalanced parentheses.")
        return value
    parts = value.split(" ")
    if not least <= len(parts) <= most:
        many = "one value" if most == 1 else f"one to {most} values (top right bottom left)"
        raise StyleValueError(prop, f"{label} takes {many}, not “{value}”.")
    out = []
    for part in parts:
        if part.lower() in words:
            out.append(part.lower())
            continue
        m = _LENGTH.fullmatch(part)
        if m is None:
            hint = f", or {', '.join(sorted(words))}" if words else ""
            raise StyleValueError(
                prop, f"{label}: “{part}” is not a size; use a length such as 16px or 1.5rem{hint}."
            )
        number, unit = m.group(1), m.group(2)
        if unit is None and float(number) != 0:
            raise StyleValueError(
                prop, f"{label}: “{part}” needs a unit, such as {number}px or {number}rem."
            )
        if not negative and float(number) < 0:
            raise StyleValueError(prop, f"{label} cannot be negative (“{part}”).")
        out.append(number + (unit.lower() if unit else ""))
    return " ".join(out)


# ------------------------------------------------------------------ seen


_WEIGHT_NUMBERS = {"normal": "400", "bold": "700"}


def computes_as(prop: str, written: str) -> str | None:
    """What the inspector's field will show once the browser computes ``written``
    (as :func:`shown_value` shows it), when that can be told from the value
    alone: a colour (any notation), px lengths, a weight, an alignment.
    ``None`` for what depends on the page (``em``, ``%``, ``auto``, keywords
    such as ``larger`` or ``inherit``)."""
    value = written.strip().lower()
    if prop in ("color", "background-color"):
        return _colour_computed(value)
    if prop == "font-weight":
        number = _WEIGHT_NUMBERS.get(value, value)
        return number if re.fullmatch(r"\d+", number) else None
    if prop == "text-align":
        return value if value in ("center", "right", "justify", "left") else None
    parts = value.split()
    if not parts or not all(p == "0" or re.fullmatch(rf"{_NUMBER}px", p) for p in parts):
        return None
    px = [_px("0px" if p == "0" else p) for p in parts]
    if prop in ("margin", "padding"):  # the browser's shorthand says each side once
        top, right, bottom, left = (px * 4)[:4] if len(px) == 1 else _sides(px)
        px = [top, right, bottom, left]
        if right == left:
            px = px[:3]
            if top == bottom:
                px = px[:2]
                if top == right:
                    px = px[:1]
    return " ".join(px)


def _sides(px: list[str]) -> tuple[str, str, str, str]:
    if len(px) == 2:
        return px[0], px[1], px[0], px[1]
    if len(px) == 3:
        return px[0], px[1], px[2], px[1]
    return px[0], px[1], px[2], px[3]


def _colour_computed(value: str) -> str | None:
    from tinycss2 import parse_one_component_value
    from tinycss2.color4 import parse_color

    colour = parse_color(parse_one_component_value(value))
    if colour is None or isinstance(colour, str):  # currentcolor: the page's
        return None
    srgb = colour.to("srgb")
    if colour.alpha == 0:
        return "transparent"
    r, g, b = (c * 255 for c in srgb.coordinates)
    return _hex(r, g, b, colour.alpha)
