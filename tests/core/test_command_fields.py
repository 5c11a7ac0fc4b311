"""A paper's fields for user commands: only values of the promised shape."""

from __future__ import annotations

from feedtui.core.command_fields import command_fields

from tests.factories import make_paper


def test_an_arxiv_paper_gives_its_id_links_and_doi():
    paper = make_paper("2611.00001", doi="10.1145/3600006.3613165")
    assert command_fields(paper) == {
        "id": "2611.00001",
        "url": "https://arxiv.org/abs/2611.00001v1",
        "pdf_url": "https://arxiv.org/pdf/2611.00001v1",
        "doi": "10.1145/3600006.3613165",
    }


def test_fields_of_the_wrong_shape_are_missing_and_none_starts_with_a_dash():
    from dataclasses import replace

    paper = replace(make_paper("2611.00001", doi="-o /etc/passwd"), abs_url="javascript:alert(1)", pdf_url="--output=x")
    assert command_fields(paper) == {"id": "2611.00001"}
    assert command_fields(make_paper("web:0123456789abcdef"))["id"] == "web:0123456789abcdef"
    assert "id" not in command_fields(make_paper("-rf"))
    assert "doi" not in command_fields(make_paper("2611.00001", doi="10.1234/has space"))
