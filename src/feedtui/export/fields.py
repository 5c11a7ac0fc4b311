"""What RIS, CSL-JSON and Zotero items say about a paper, worked out once:
plain one-line text, a person's name in parts, the date cited.

Every value here is untrusted text from a feed made plain: control
characters and escape sequences stripped, and (for one-line values) every
line break folded into a space, so no format's record structure can be
broken from inside a field.
"""

from __future__ import annotations

from typing import NamedTuple

from feedtui.export.bibtex import bibtex_name, citation_date, is_organisation
from feedtui.model import Paper, shown_title
from feedtui.text.links import safe_link
from feedtui.text.sanitize import clean_block, clean_line


class PersonName(NamedTuple):
    """A name in parts; `literal` alone for an organisation or a one-word name."""

    family: str = ""
    given: str = ""
    suffix: str = ""
    literal: str = ""


class Issued(NamedTuple):
    """The date a record cites: day is None when only the month is sure."""

    year: int
    month: int
    day: int | None


def line(text: str | None) -> str:
    """One line of plain text: no control character, no line break of any kind."""
    return clean_line(text, html_allowed=False)


def block(text: str | None) -> str:
    """Plain text that keeps its paragraphs (blank lines), nothing else."""
    return clean_block(text, html_allowed=False)


def title(paper: Paper) -> str:
    return line(shown_title(paper.readable_title))


def abstract(paper: Paper) -> str:
    return block(paper.readable_abstract)


def person_name(name: str) -> PersonName:
    """`Ana Núñez Jr.` → family Núñez, given Ana, suffix Jr.; `Jan van der
    Berg` → family `van der Berg` (from the first lower-case particle on);
    `Lee, Min-jun` as written. The split BibTeX's writer makes is reused
    where it makes one."""
    name = line(name)
    if not name or is_organisation(name):
        return PersonName(literal=name)
    split = bibtex_name(name)
    parts = [part.strip() for part in split.split(",")]
    if len(parts) == 2 and all(parts):
        return PersonName(family=parts[0], given=parts[1])
    if len(parts) == 3 and parts[0] and parts[2]:
        return PersonName(family=parts[0], given=parts[2], suffix=parts[1])
    words = name.split()
    if len(words) < 2 or "," in name:
        return PersonName(literal=name)
    start = next((i for i, word in enumerate(words[1:-1], 1) if word[:1].islower()), len(words) - 1)
    return PersonName(family=" ".join(words[start:]), given=" ".join(words[:start]))


def issued(paper: Paper) -> Issued:
    """An arXiv paper known only from a post, or dated by estimate, is cited
    by the month of its id (see export.bibtex); any other by its own day."""
    if paper.is_arxiv and (paper.secondhand or paper.date_estimated):
        month = citation_date(paper)
        return Issued(month.year, month.month, None)
    day = paper.published
    return Issued(day.year, day.month, day.day)


def link(url: str) -> str:
    """An http(s) link as it may be written, or "" for anything else."""
    return line(safe_link(url) or "")


def arxiv_id(paper: Paper) -> str:
    """`2609.01234v2` for an arXiv paper (the id alone when known only from a post), else ""."""
    if not paper.is_arxiv:
        return ""
    return line(paper.id if paper.secondhand else paper.versioned_id)


def doi(paper: Paper) -> str:
    value = line(paper.doi)
    return value if value and " " not in value else ""
