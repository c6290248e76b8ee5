"""Ranking for the skills library: a tokenizer with light stemming and BM25F.

BM25F (BM25 over weighted fields) rather than substring matching: a word in
a skill's title or tags counts for more than the same word deep in its body,
frequent words ("color" in every colour skill) count for less than rare ones,
and long documents do not win just by being long.

Pure and deterministic: the index is built once from the documents and
ranking ties are broken by document order.
"""

from __future__ import annotations

import math
import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

__all__ = ["STOP_WORDS", "Bm25fIndex", "FieldSpec", "stem", "tokenize"]

_WORD = re.compile(r"[a-z0-9]+")

#: Words too common to tell documents apart (question words included: queries
#: are often phrased "how do I ...").
STOP_WORDS = frozenset(
    """
    a about after all also am an and any are as at be because been before being
    but by can could did do does doing done each either else for from get gets
    had has have having he her here him his how i if in into is it its itself
    just let like make makes me more most much my no nor not of off on once only
    or other our out over own please same she should so some such than that the
    their them then there these they this those through to too under until up
    us use used using very want was way we well were what when where which
    while who whom why will with would you your yours
    """.split()  # noqa: SIM905 (a word list reads better as text)
)

# British spellings and a few variants folded onto one form, so "coloured
# buttons" finds a skill that says "colored" and the reverse.
_VARIANTS = {
    "colour": "color",
    "colours": "colors",
    "coloured": "colored",
    "colouring": "coloring",
    "grey": "gray",
    # "-us" words are kept whole (focus, status); this plural is the exception.
    "menus": "menu",
    "greys": "grays",
    "centre": "center",
    "centred": "centered",
    "behaviour": "behavior",
    "optimise": "optimize",
    "optimised": "optimized",
    "recognise": "recognize",
    "favourite": "favorite",
    "a11y": "accessibility",
    "accessible": "accessibility",
    "nav": "navigation",
    "navbar": "navigation",
    "pic": "image",
    "pics": "images",
    "photo": "image",
    "photos": "images",
    "picture": "image",
    "pictures": "images",
    "typeface": "font",
    "typefaces": "fonts",
}

_VOWELS = frozenset("aeiouy")


def _undouble(word: str) -> str:
    # "running" -> "runn" -> "run"; but "scrolled" -> "scroll" and "pressed" -> "press".
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "lsz" + "aeiou":
        return word[:-1]
    return word


def stem(word: str) -> str:
    """Light suffix stripping: plurals, -ing, -ed, and a final -e.

    Not a full Porter stemmer: enough to make "buttons"/"button",
    "spacing"/"space", "colored"/"color" and "images"/"image" meet, while
    keeping short words intact.  Both the index and the query go through it,
    so the stems need only be consistent, not real words.
    """
    w = word
    if len(w) <= 3 or w.isdigit():
        return w
    if w.endswith("ies") and len(w) > 4:
        w = w[:-3] + "y"
    elif w.endswith(("sses", "xes", "ches", "shes", "zes")):
        w = w[:-2]
    elif w.endswith("s") and not w.endswith(("ss", "us", "is", "ous")):
        w = w[:-1]
    if w.endswith("ing") and len(w) - 3 >= 3 and any(c in _VOWELS for c in w[:-3]):
        w = _undouble(w[:-3])
    elif w.endswith("ed") and len(w) - 2 >= 3 and any(c in _VOWELS for c in w[:-2]):
        w = _undouble(w[:-2])
    if w.endswith("e") and len(w) > 4:
        w = w[:-1]
    return w


def tokenize(text: str) -> list[str]:
    """Lowercase words, stop words dropped, variants folded, stemmed."""
    out = []
    for raw in _WORD.findall(text.lower()):
        if raw in STOP_WORDS:
            continue
        word = _VARIANTS.get(raw, raw)
        token = stem(word)
        out.append(_VARIANTS.get(token, token))
    return out


@dataclass(frozen=True, slots=True)
class FieldSpec:
    weight: float
    #: Length normalization (0 = none, 1 = full).
    b: float = 0.75


class Bm25fIndex:
    """BM25F over documents made of named text fields.

    ``documents`` is a sequence of ``{field: text}``; ``fields`` gives each
    field's weight and length normalization.  ``score(query)`` returns one
    score per document (0.0 when no query term occurs in it).
    """

    def __init__(
        self,
        documents: Sequence[Mapping[str, str]],
        fields: Mapping[str, FieldSpec],
        *,
        k1: float = 1.2,
    ) -> None:
        self.fields = dict(fields)
        self.k1 = k1
        self._tf: list[dict[str, Counter[str]]] = []
        self._len: list[dict[str, int]] = []
        df: Counter[str] = Counter()
        for doc in documents:
            tf = {name: Counter(tokenize(doc.get(name, ""))) for name in self.fields}
            self._tf.append(tf)
            self._len.append({name: sum(c.values()) for name, c in tf.items()})
            df.update(set().union(*tf.values()))
        n = len(self._tf)
        self.size = n
        self._avg = {
            name: (sum(lens[name] for lens in self._len) / n if n else 0.0) or 1.0
            for name in self.fields
        }
        # Always positive (the "+1" variant): a term in most documents still counts a little.
        self._idf = {t: math.log(1 + (n - d + 0.5) / (d + 0.5)) for t, d in df.items()}

    def idf(self, term: str) -> float:
        return self._idf.get(term, 0.0)

    def score(self, query: str | Sequence[str]) -> list[float]:
        terms = tokenize(query) if isinstance(query, str) else list(query)
        unique = [t for t in dict.fromkeys(terms) if t in self._idf]
        scores = [0.0] * self.size
        if not unique:
            return scores
        for i, (tf, lens) in enumerate(zip(self._tf, self._len, strict=True)):
            total = 0.0
            for term in unique:
                pseudo = 0.0
                for name, spec in self.fields.items():
                    count = tf[name].get(term)
                    if count:
                        norm = 1 - spec.b + spec.b * lens[name] / self._avg[name]
                        pseudo += spec.weight * count / norm
                if pseudo:
                    total += self._idf[term] * pseudo / (self.k1 + pseudo)
            scores[i] = total
        return scores

    def rank(self, query: str | Sequence[str], limit: int | None = None) -> list[tuple[int, float]]:
        """``(document index, score)`` best first, only documents that matched."""
        scored = [(i, s) for i, s in enumerate(self.score(query)) if s > 0]
        # Stable sort on score only: ties keep document order, so results are deterministic.
        scored.sort(key=lambda pair: -pair[1])
        return scored[:limit] if limit is not None else scored
