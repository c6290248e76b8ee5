"""The skills library: package data, parsing, tokenizer, BM25F ranking, snippets."""

from __future__ import annotations

from importlib import resources

import pytest

from wiggum.skills import Bm25fIndex, FieldSpec, SkillLibrary, parse_skill, stem, tokenize
from wiggum.skills.library import SNIPPET_CHARS


@pytest.fixture(scope="module")
def library() -> SkillLibrary:
    return SkillLibrary.load()


def top(library: SkillLibrary, query: str) -> str | None:
    hits = library.search(query, limit=3)
    return hits[0].skill.id if hits else None


def test_loads_from_package_data(library):
    files = [
        e.name
        for e in resources.files("wiggum.skills").joinpath("data").iterdir()
        if e.name.endswith(".md")
    ]
    assert len(files) >= 10
    assert len(library) == len(files)
    for skill in library.skills:
        assert skill.title and skill.summary
        assert len(skill.tags) >= 3
        assert len(skill.sections) >= 3
        assert all(s.heading and s.body for s in skill.sections)
    assert library.get("forms").title.startswith("Forms")
    assert library.get("nope") is None


def test_covers_the_topics(library):
    tags = {t for s in library.skills for t in s.tags}
    for topic in (
        "layout",
        "spacing",
        "typography",
        "line-length",
        "fonts",
        "palette",
        "contrast",
        "accessibility",
        "semantic-html",
        "focus",
        "aria",
        "motion",
        "forms",
        "validation",
        "navigation",
        "images",
        "alt-text",
        "performance",
        "dark-mode",
    ):
        assert topic in tags, topic


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("contrast for text on colored buttons", {"colour-contrast"}),
        ("white text on my orange button is hard to read", {"colour-contrast"}),
        ("form error messages", {"forms"}),
        ("validate the email field", {"forms"}),
        ("dark theme", {"dark-mode"}),
        ("mobile menu hamburger", {"navigation"}),
        ("line length of paragraphs", {"typography-readability"}),
        ("spacing scale", {"layout-spacing"}),
        ("alt text for images", {"images-performance"}),
        ("reduced motion animation", {"accessibility-keyboard-motion"}),
        ("keyboard focus ring", {"accessibility-keyboard-motion"}),
        ("responsive card grid", {"layout-responsive-grid"}),
        ("pick brand colours for a palette", {"colour-palette"}),
        ("heading font sizes", {"typography-scale"}),
        ("screen reader landmarks and aria", {"accessibility-semantic-html"}),
        ("how big should tap targets be", {"buttons-interaction"}),
    ],
)
def test_ranking_puts_the_right_skill_first(library, query, expected):
    assert top(library, query) in expected


def test_scores_descend_and_limit_applies(library):
    hits = library.search("color contrast accessibility", limit=5)
    assert 1 <= len(hits) <= 5
    scores = [h.score for h in hits]
    assert scores == sorted(scores, reverse=True)
    assert all(s > 0 for s in scores)
    assert len(library.search("color", limit=1)) == 1
    assert library.search("color", limit=0) == []


def test_snippet_is_the_best_section(library):
    hit = library.search("contrast for text on colored buttons", 1)[0]
    assert hit.section == "Text on coloured buttons"
    assert hit.snippet.startswith("## Text on coloured buttons")
    assert "4.5:1" in hit.snippet
    hit = library.search("form error messages", 1)[0]
    assert hit.section == "Error messages"
    for h in library.search("layout grid spacing images", 5):
        assert len(h.snippet) <= SNIPPET_CHARS + 2


def test_unknown_and_empty_queries_return_nothing(library):
    assert library.search("xyzzy frobnicate") == []
    assert library.search("") == []
    assert library.search("the and of with") == []  # stop words only
    assert library.search("!!! ??? ...") == []


def test_deterministic(library):
    first = [(h.skill.id, h.score, h.snippet) for h in library.search("button colors", 5)]
    again = [
        (h.skill.id, h.score, h.snippet) for h in SkillLibrary.load().search("button colors", 5)
    ]
    assert first == again


def test_a_search_reads_only_its_query(library, monkeypatch):
    """The library is tokenized once, when it loads: a search tokenizes its query
    (once per index it asks) and nothing else.  Its speed: bench/lookups.py."""
    import wiggum.skills.search as search

    seen: list[str] = []
    real = search.tokenize

    def counting(text):
        seen.append(text)
        return real(text)

    monkeypatch.setattr(search, "tokenize", counting)
    query = "contrast for text on colored buttons"
    hits = library.search(query, 3)
    assert hits and set(seen) == {query}
    assert len(seen) <= 1 + len(hits)


@pytest.mark.parametrize(
    ("a", "b"),
    [
        ("buttons", "button"),
        ("spacing", "space"),
        ("colored", "color"),
        ("coloured", "color"),
        ("images", "image"),
        ("running", "run"),
        ("menus", "menu"),
        ("headings", "heading"),
        ("categories", "category"),
        ("boxes", "box"),
        ("grey", "gray"),
    ],
)
def test_stemming_joins_word_forms(a, b):
    assert tokenize(a) == tokenize(b)


def test_stemming_keeps_short_and_special_words():
    assert stem("css") == "css"
    assert stem("focus") == "focus"
    assert stem("class") == "class"
    assert stem("string") == "string"
    assert stem("need") == "need"
    assert stem("2024") == "2024"
    assert tokenize("How do I use the focus-visible class?") == ["focus", "visibl", "class"]


def test_stemmed_query_matches_other_form(library):
    # The forms skill says "labels"/"validation"; the query uses other forms.
    assert top(library, "labelled inputs") == "forms"
    assert top(library, "coloured palettes") == "colour-palette"


def test_bm25f_field_weights_and_idf():
    docs = [
        {"title": "Buttons", "body": "How to style things."},
        {"title": "Forms", "body": "Forms have buttons at the end, buttons everywhere."},
        {"title": "Images", "body": "Pictures only."},
    ]
    index = Bm25fIndex(docs, {"title": FieldSpec(3.0), "body": FieldSpec(1.0)})
    ranked = index.rank("buttons")
    assert [i for i, _ in ranked] == [0, 1]  # the title match beats two body matches
    assert index.rank("zebra") == []
    # A rarer term is worth more than a common one.
    assert index.idf("imag") > index.idf("button")


def test_parse_skill_front_matter_and_sections():
    skill = parse_skill(
        "demo",
        "---\ntitle: Demo skill\ntags: One, two , three\nsummary: Short.\n---\n\n"
        "Intro text.\n\n## First\n\nBody one.\n\n## Second\nBody two.\n",
    )
    assert skill.title == "Demo skill"
    assert skill.tags == ("one", "two", "three")
    assert skill.summary == "Short."
    assert [(s.heading, s.body) for s in skill.sections] == [
        ("", "Intro text."),
        ("First", "Body one."),
        ("Second", "Body two."),
    ]
    assert skill.text.startswith("# Demo skill\n\nShort.")
    no_front = parse_skill("x", "# Title here\n\n## A\ntext\n")
    assert no_front.title == "Title here" and no_front.sections[0].heading == "A"
    with pytest.raises(ValueError):
        parse_skill("bad", "no title at all")
