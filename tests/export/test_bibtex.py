from __future__ import annotations

from feedtui.export.bibtex import bibtex_entries, bibtex_entry, citation_key

from tests.factories import make_paper


def test_arxiv_entry_hand_checked():
    paper = make_paper(
        "2609.01234",
        version=2,
        title="Gr\u00fcnwald & Co: 100% of $a_b$ #1",
        title_display="Grünwald & Co: 100% of a_b #1",
        published="2026-09-28T10:00:00",
        authors=(("Søren Åberg", ()), ("Zoë Dvořák", ())),
        categories=("cs.DC", "cs.LG"),
        doi="10.99999/synthetic.12345",
    )
    assert bibtex_entry(paper) == (
        "@misc{aberg2026grunwald,\n"
        "  title = {{Gr{\\\"u}nwald {\\&} Co: 100{\\%} of a{\\_}b {\\#}1}},\n"
        "  author = {S{\\o}ren {\\r{A}}berg and Zo{\\\"e} Dvo{\\v{r}}{\\'a}k},\n"
        "  year = {2026},\n"
        "  month = sep,\n"
        "  eprint = {2609.01234v2},\n"
        "  archivePrefix = {arXiv},\n"
        "  primaryClass = {cs.DC},\n"
        "  doi = {10.99999/synthetic.12345},\n"
        "  url = {https://arxiv.org/abs/2609.01234v2}\n"
        "}\n"
    )


def test_braces_and_tildes_are_escaped():
    paper = make_paper(title_display="Sets {x} ~ y^2 \\ z")
    entry = bibtex_entry(paper)
    assert "Sets {\\{}x{\\}} {\\textasciitilde} y{\\textasciicircum}2 {\\textbackslash} z" in entry


def test_keys_skip_stopwords_and_stay_unique():
    first = make_paper("2609.00001", title_display="On the Edge of Inference", authors=(("Ada Quill", ()),))
    second = make_paper("2609.00002", title_display="On the Edge of Reason", authors=(("Ada Quill", ()),))
    assert citation_key(first) == "quill2026edge"
    text = bibtex_entries([first, second])
    assert "@misc{quill2026edge," in text and "@misc{quill2026edgea," in text


def test_non_arxiv_paper_has_no_eprint_and_unsafe_links_are_dropped():
    paper = make_paper("web:0123456789ab", title_display="A blog post")
    paper.abs_url = "javascript:alert(1)"
    entry = bibtex_entry(paper)
    assert "eprint" not in entry and "archivePrefix" not in entry and "url" not in entry
