"""RIS records for papers, as reference managers import them (Zotero,
EndNote, Mendeley, JabRef).

A record is `TAG  - value` lines ending with `ER  - `. A value is one line:
every line break in a feed's text (CR, LF, U+2028, NEL, …) becomes a space,
so no title or abstract can start a line of its own and forge a tag.

An arXiv paper is `UNPB` (unpublished work: RIS has no preprint type) with
its id as the accession number (`AN  - arXiv:2609.01234v2`); a post from
any other feed is `ELEC` (a web page). `L1` is the PDF's link, which
Zotero keeps as a linked attachment.
"""

from __future__ import annotations

from collections.abc import Iterable

from feedtui.export import fields
from feedtui.model import Paper


def ris_record(paper: Paper) -> str:
    lines: list[tuple[str, str]] = [("TY", "UNPB" if paper.is_arxiv else "ELEC")]
    if not paper.secondhand:  # a post's title and authors are not the paper's
        lines.append(("TI", fields.title(paper)))
        for author in paper.authors:
            lines.append(("AU", _ris_name(fields.person_name(author.name))))
        if abstract := fields.line(paper.readable_abstract):
            lines.append(("AB", abstract))
    date = fields.issued(paper)
    lines.append(("PY", str(date.year)))
    lines.append(("DA", f"{date.year:04d}/{date.month:02d}/{f'{date.day:02d}' if date.day else ''}/"))
    if arxiv := fields.arxiv_id(paper):
        lines += [("AN", f"arXiv:{arxiv}"), ("DB", "arXiv.org")]
        if paper.primary_category and not paper.secondhand:
            lines.append(("KW", fields.line(paper.primary_category)))
    if (doi := fields.doi(paper)) and not paper.secondhand:
        lines.append(("DO", doi))
    if paper.journal_ref and not paper.secondhand:
        lines.append(("N1", f"Journal reference: {fields.line(paper.journal_ref)}"))
    url = f"https://arxiv.org/abs/{paper.id}" if paper.secondhand else fields.link(paper.abs_url)
    if url:
        lines.append(("UR", url))
    if (pdf := fields.link(paper.pdf_url)) and not paper.secondhand:
        lines.append(("L1", pdf))
    body = "".join(f"{tag}  - {value}\n" for tag, value in lines if value)
    return body + "ER  - \n"


def _ris_name(name: fields.PersonName) -> str:
    if name.literal:
        return name.literal
    return ", ".join(part for part in (name.family, name.given, name.suffix) if part)


def ris_records(papers: Iterable[Paper]) -> str:
    return "\n".join(ris_record(paper) for paper in papers)
