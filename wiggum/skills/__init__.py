"""Design guidance for Chief: a small library of skills and a ranked search over it."""

from .library import Skill, SkillHit, SkillLibrary, SkillSection, parse_skill
from .search import Bm25fIndex, FieldSpec, stem, tokenize

__all__ = [
    "Bm25fIndex",
    "FieldSpec",
    "Skill",
    "SkillHit",
    "SkillLibrary",
    "SkillSection",
    "parse_skill",
    "stem",
    "tokenize",
]
