"""A paper's fields as a user command receives them (`{id}`, `{url}`,
`{pdf_url}`, `{doi}`): each checked against its shape, so that what a feed
wrote there reaches a program only when it is what the name promises.

A field that fails its check is missing, as an absent one is: the command
is not run, and says which field it lacked. None of the shapes can start
with `-`, so no value can pass for an option (text/argv_template.py
refuses one all the same).
"""

from __future__ import annotations

import re

from feedtui.model import Paper, split_arxiv_id
from feedtui.text.links import safe_link

# A DOI: the 10. directory, a registrant code, a slash, a suffix of visible
# characters (no spaces, no control characters).
_DOI = re.compile(r"^10\.\d{4,9}(?:\.\d+)*/[!-~]+$")
_WEB_KEY = re.compile(r"^web:[0-9a-f]{16}$")


def command_fields(paper: Paper) -> dict[str, str]:
    """{placeholder name: value} for the fields this paper has in a checked
    form; `{bibtex_file}` is added by whoever writes the file."""
    fields: dict[str, str] = {}
    if (paper.is_arxiv and split_arxiv_id(paper.id) == (paper.id, None)) or _WEB_KEY.match(paper.id):
        fields["id"] = paper.id
    for name, link in (("url", paper.abs_url), ("pdf_url", paper.pdf_url)):
        checked = safe_link(link)
        if checked:
            fields[name] = checked
    doi = paper.doi.strip()
    if _DOI.match(doi):
        fields["doi"] = doi
    return fields
