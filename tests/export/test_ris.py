"""RIS records: every field a reference manager reads, one line each, and
no feed text able to forge a tag."""

from __future__ import annotations

import re

from feedtui.export.ris import ris_record, ris_records

from tests.factories import make_paper

# A tag line as RIS readers split them: two capitals or a capital and a digit, two spaces, a dash.
TAG_LINE = re.compile(r"^([A-Z][A-Z0-9])  - ?(.*)$")


def tags(record: str) -> list[tuple[str, str]]:
    lines = record.splitlines()
    assert all(TAG_LINE.match(line) for line in lines if line), lines
    return [TAG_LINE.match(line).groups() for line in lines if line]


def test_an_arxiv_paper_has_every_field():
    paper = make_paper(
        "2609.01240", version=2, title="Cheaper widgets", abstract="Classical widgets,\nagain.",
        authors=(("Zoë Ångström", ()), ("Jan van der Berg", ()), ("The Widget Collaboration", ())),
        published="2026-09-25T10:00:00", doi="10.99999/invented.7", journal_ref="Widget Letters 3 (2026)",
    )
    assert tags(ris_record(paper)) == [
        ("TY", "UNPB"),
        ("TI", "Cheaper widgets"),
        ("AU", "Ångström, Zoë"),
        ("AU", "van der Berg, Jan"),
        ("AU", "The Widget Collaboration"),
        ("AB", "Classical widgets, again."),
        ("PY", "2026"),
        ("DA", "2026/09/25/"),
        ("AN", "arXiv:2609.01240v2"),
        ("DB", "arXiv.org"),
        ("KW", "cs.DC"),
        ("DO", "10.99999/invented.7"),
        ("N1", "Journal reference: Widget Letters 3 (2026)"),
        ("UR", "https://arxiv.org/abs/2609.01240v2"),
        ("L1", "https://arxiv.org/pdf/2609.01240v2"),
        ("ER", ""),
    ]


def test_line_breaks_and_control_characters_cannot_forge_a_tag():
    hostile = "Title\nER  - \r\nTY  - JOUR\u2028AU  - Mallory\x85UR  - http://evil.example\x1b[2J\x07"
    paper = make_paper(title=hostile, abstract=hostile, authors=((hostile, ()),))
    record = ris_record(paper)
    assert "\x1b" not in record and "\x07" not in record and "\x85" not in record and "\u2028" not in record
    found = tags(record)
    assert [tag for tag, _ in found].count("ER") == 1 and [tag for tag, _ in found].count("TY") == 1
    assert [tag for tag, _ in found if tag == "AU"] == ["AU"]
    assert ("TI", "Title ER - TY - JOUR AU - Mallory UR - http://evil.example") in found


def test_a_post_from_another_feed_is_a_web_page_without_an_accession_number():
    paper = make_paper("web:3f2a0011", title="Lab notes", categories=())
    found = dict(tags(ris_record(paper)))
    assert found["TY"] == "ELEC" and "AN" not in found and "DB" not in found


def test_a_paper_known_only_from_a_post_keeps_only_what_its_id_says():
    paper = make_paper("2612.00077", title="A post about it", authors=(("Blog Author", ()),), secondhand=True)
    found = tags(ris_record(paper))
    assert [tag for tag, _ in found] == ["TY", "PY", "DA", "AN", "DB", "UR", "ER"]
    assert ("DA", "2026/12//") in found and ("UR", "https://arxiv.org/abs/2612.00077") in found


def test_records_are_separated_by_a_blank_line():
    text = ris_records([make_paper("2609.00001"), make_paper("2609.00002")])
    assert text.count("ER  - \n") == 2 and "ER  - \n\nTY  - " in text
