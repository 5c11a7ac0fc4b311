"""CSL-JSON for papers: the citation data pandoc, Zotero and every CSL
processor read (a JSON array of items).

An arXiv paper is an `article` (CSL's type for a preprint) published by
arXiv with its id as the number (`arXiv:2609.01234v2`), as Zotero writes
one; a post from any other feed is a `webpage`. Item ids are the citation
keys `export bibtex` writes, so a document can cite either file with the same
keys. Text is plain: control characters stripped, JSON escaping the rest.
"""

from __future__ import annotations

import json
from collections.abc import Iterable
from typing import Any

from feedtui.export import fields
from feedtui.export.bibtex import unique_keys
from feedtui.model import Paper


def csl_item(paper: Paper, key: str) -> dict[str, Any]:
    date = fields.issued(paper)
    parts = [date.year, date.month] + ([date.day] if date.day else [])
    item: dict[str, Any] = {"id": key, "type": "article" if paper.is_arxiv else "webpage"}
    if not paper.secondhand:  # a post's title and authors are not the paper's
        item["title"] = fields.title(paper)
        if paper.authors:
            item["author"] = [_csl_name(fields.person_name(a.name)) for a in paper.authors]
        if abstract := fields.abstract(paper):
            item["abstract"] = abstract
    item["issued"] = {"date-parts": [parts]}
    if arxiv := fields.arxiv_id(paper):
        item["publisher"] = "arXiv"
        item["number"] = f"arXiv:{arxiv}"
    if (doi := fields.doi(paper)) and not paper.secondhand:
        item["DOI"] = doi
    if paper.journal_ref and not paper.secondhand:
        item["note"] = f"Journal reference: {fields.line(paper.journal_ref)}"
    url = f"https://arxiv.org/abs/{paper.id}" if paper.secondhand else fields.link(paper.abs_url)
    if url:
        item["URL"] = url
    return item


def _csl_name(name: fields.PersonName) -> dict[str, str]:
    if name.literal:
        return {"literal": name.literal}
    named = {"family": name.family, "given": name.given}
    if name.suffix:
        named["suffix"] = name.suffix
    return named


def csl_json(papers: Iterable[Paper]) -> str:
    papers = list(papers)
    items = [csl_item(paper, key) for paper, key in zip(papers, unique_keys(papers))]
    return json.dumps(items, ensure_ascii=False, indent=2) + "\n"
