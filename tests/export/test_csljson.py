"""CSL-JSON items: valid JSON, the fields CSL processors read, keys shared with BibTeX."""

from __future__ import annotations

import json

from feedtui.export.bibtex import bibtex_entries
from feedtui.export.csljson import csl_json

from tests.factories import make_paper


def test_an_arxiv_paper_as_a_csl_item():
    paper = make_paper(
        "2609.01240", version=2, title="Cheaper widgets", abstract="First.\n\nSecond paragraph.",
        authors=(("Ana Núñez Jr.", ()), ("Plato", ())), published="2026-09-25T10:00:00", doi="10.99999/invented.7",
    )
    [item] = json.loads(csl_json([paper]))
    assert item == {
        "id": "nunez2026cheaper",
        "type": "article",
        "title": "Cheaper widgets",
        "author": [{"family": "Núñez", "given": "Ana", "suffix": "Jr."}, {"literal": "Plato"}],
        "abstract": "First.\n\nSecond paragraph.",
        "issued": {"date-parts": [[2026, 9, 25]]},
        "publisher": "arXiv",
        "number": "arXiv:2609.01240v2",
        "DOI": "10.99999/invented.7",
        "URL": "https://arxiv.org/abs/2609.01240v2",
    }


def test_ids_are_the_bibtex_keys_even_when_they_clash():
    papers = [make_paper("2609.00001", title="Widgets"), make_paper("2609.00002", title="Widgets")]
    ids = [item["id"] for item in json.loads(csl_json(papers))]
    keys = [line.split("{")[1].rstrip(",") for line in bibtex_entries(papers).splitlines() if line.startswith("@misc")]
    assert ids == keys == ["quill2026widgets", "quill2026widgetsa"]


def test_control_characters_are_stripped_from_every_text():
    hostile = "Bad\x1b]52;c;ZXZpbA==\x07 title\x00\u202e"
    [item] = json.loads(csl_json([make_paper(title=hostile, abstract=hostile, authors=((hostile, ()),))]))
    for text in (item["title"], item["abstract"], item["author"][0].get("family", "") + item["author"][0].get("literal", "")):
        assert not any(ord(c) < 32 or 0x7F <= ord(c) < 0xA0 or c == "\u202e" for c in text), text
    assert item["title"] == "Bad title"


def test_a_post_from_another_feed_is_a_webpage_and_a_secondhand_paper_has_no_title():
    post = make_paper("web:3f2a0011", title="Lab notes", categories=())
    secondhand = make_paper("2612.00077", title="A post about it", secondhand=True)
    web, known_from_post = json.loads(csl_json([post, secondhand]))
    assert web["type"] == "webpage" and "number" not in web
    assert "title" not in known_from_post and "author" not in known_from_post
    assert known_from_post["issued"] == {"date-parts": [[2026, 12]]} and known_from_post["number"] == "arXiv:2612.00077"
