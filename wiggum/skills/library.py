"""The skills library: design guidance documents shipped inside the package.

Each skill is a Markdown file in ``wiggum/skills/data/`` with a small front
matter block::

    ---
    title: Colour contrast for text and buttons
    tags: color, contrast, accessibility
    summary: One sentence on what the skill covers.
    ---

    ## A section
    ...

The files are package data (``build.py`` packs every file under ``wiggum/``
into the wheel the page loads), read with ``importlib.resources`` so the same
code works from a checkout, an installed wheel and Pyodide's file system.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from importlib import resources
from typing import NamedTuple

from .search import Bm25fIndex, FieldSpec

__all__ = [
    "SNIPPET_CHARS",
    "Skill",
    "SkillHit",
    "SkillLibrary",
    "SkillSection",
    "parse_skill",
]

#: Longest snippet returned with a hit, so a search result stays a glance.
SNIPPET_CHARS = 900

# Field weights: a match in the title or tags says far more about what a skill
# is about than one in passing in the body.
_SKILL_FIELDS = {
    "title": FieldSpec(weight=3.0, b=0.3),
    "tags": FieldSpec(weight=2.5, b=0.3),
    "headings": FieldSpec(weight=1.5, b=0.5),
    "body": FieldSpec(weight=1.0, b=0.75),
}
_SECTION_FIELDS = {
    "heading": FieldSpec(weight=3.0, b=0.3),
    "body": FieldSpec(weight=1.0, b=0.75),
}


class SkillSection(NamedTuple):
    heading: str
    body: str


@dataclass(frozen=True, slots=True)
class Skill:
    id: str
    title: str
    tags: tuple[str, ...]
    summary: str
    sections: tuple[SkillSection, ...]

    @property
    def text(self) -> str:
        """The whole skill as Markdown (title, summary, sections)."""
        parts = [f"# {self.title}"]
        if self.summary:
            parts.append(self.summary)
        for s in self.sections:
            parts.append(f"## {s.heading}\n\n{s.body}" if s.heading else s.body)
        return "\n\n".join(parts) + "\n"


@dataclass(frozen=True, slots=True)
class SkillHit:
    skill: Skill
    score: float
    #: The best-matching section: ``## heading`` and its text, shortened.
    snippet: str
    section: str = ""


_FRONT = re.compile(r"\A---\s*\n(.*?)\n---\s*\n", re.S)


def parse_skill(skill_id: str, text: str) -> Skill:
    """A skill from its Markdown.  ``ValueError`` without a title."""
    meta: dict[str, str] = {}
    body = text
    m = _FRONT.match(text)
    if m:
        for line in m.group(1).splitlines():
            key, sep, value = line.partition(":")
            if sep:
                meta[key.strip().lower()] = value.strip()
        body = text[m.end() :]
    sections: list[SkillSection] = []
    heading, lines = "", []
    title = meta.get("title", "")
    for line in body.splitlines():
        if line.startswith("# ") and not title:
            title = line[2:].strip()
            continue
        if line.startswith("## "):
            if heading or "".join(lines).strip():
                sections.append(SkillSection(heading, "\n".join(lines).strip()))
            heading, lines = line[3:].strip(), []
        else:
            lines.append(line)
    if heading or "".join(lines).strip():
        sections.append(SkillSection(heading, "\n".join(lines).strip()))
    if not title:
        raise ValueError(f"skill {skill_id!r} has no title")
    tags = tuple(t.strip().lower() for t in meta.get("tags", "").split(",") if t.strip())
    return Skill(skill_id, title, tags, meta.get("summary", ""), tuple(sections))


def _shorten(text: str, limit: int) -> str:
    if len(text) <= limit:
        return text
    cut = text[:limit]
    # End at a paragraph, then a line, then a sentence, when one is near the limit.
    for mark in ("\n\n", "\n", ". "):
        at = cut.rfind(mark)
        if at > limit * 0.6:
            return cut[: at + (1 if mark == ". " else 0)].rstrip() + "\n…"
    return cut.rstrip() + "…"


class SkillLibrary:
    """The skills and their search index (built once, when the library is made)."""

    def __init__(self, skills: Iterable[Skill]) -> None:
        self.skills: tuple[Skill, ...] = tuple(sorted(skills, key=lambda s: s.id))
        self._by_id = {s.id: s for s in self.skills}
        self._index = Bm25fIndex(
            [
                {
                    "title": s.title,
                    "tags": " ".join(s.tags),
                    "headings": " ".join(sec.heading for sec in s.sections),
                    "body": s.summary + "\n" + "\n".join(sec.body for sec in s.sections),
                }
                for s in self.skills
            ],
            _SKILL_FIELDS,
            # Less saturation than the usual 1.2: with few, short documents most
            # query words occur in many skills, and repeated use is the signal.
            k1=2.0,
        )
        # Sections of every skill in one index, so a section's idf reflects the
        # whole library, not just its own skill.
        self._sections: list[tuple[str, SkillSection]] = [
            (s.id, sec) for s in self.skills for sec in s.sections
        ]
        self._section_index = Bm25fIndex(
            [{"heading": sec.heading, "body": sec.body} for _, sec in self._sections],
            _SECTION_FIELDS,
        )

    @classmethod
    def load(cls, package: str = "wiggum.skills", folder: str = "data") -> SkillLibrary:
        """Read the ``*.md`` skills shipped in ``package``/``folder``."""
        root = resources.files(package).joinpath(folder)
        skills = []
        for entry in root.iterdir():
            if entry.name.endswith(".md") and entry.is_file():
                skill_id = entry.name[: -len(".md")]
                skills.append(parse_skill(skill_id, entry.read_text(encoding="utf-8")))
        return cls(skills)

    def __len__(self) -> int:
        return len(self.skills)

    def get(self, skill_id: str) -> Skill | None:
        return self._by_id.get(skill_id)

    def search(self, query: str, limit: int = 3) -> list[SkillHit]:
        """The skills that best match ``query``, best first; ``[]`` when none match."""
        if limit <= 0:
            return []
        hits = []
        for i, score in self._index.rank(query, limit):
            skill = self.skills[i]
            section = self._best_section(skill, query)
            text = section.body
            if section.heading:
                text = f"## {section.heading}\n\n{text}"
            hits.append(SkillHit(skill, score, _shorten(text, SNIPPET_CHARS), section.heading))
        return hits

    def _best_section(self, skill: Skill, query: str) -> SkillSection:
        scores = self._section_index.score(query)
        best: SkillSection | None = None
        best_score = 0.0
        for (owner, section), score in zip(self._sections, scores, strict=True):
            if owner == skill.id and score > best_score:
                best, best_score = section, score
        if best is not None:
            return best
        # The skill matched on its title or tags only: its first section introduces it.
        return skill.sections[0] if skill.sections else SkillSection("", skill.summary)
