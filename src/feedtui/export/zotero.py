"""Papers into the Zotero desktop app, through the connector server it runs
while open (the one its browser extension talks to), at `[zotero]
connector_url`, by default http://127.0.0.1:23119.

`GET /connector/ping` tells whether Zotero is there (it answers 200); then
`POST /connector/saveItems` takes `{"items": [...], "sessionID": …}` with
items in Zotero's JSON (the form its translators produce) and answers 201
once they are saved into the library or collection selected in Zotero.

An arXiv paper becomes a `preprint` (repository arXiv, archive id
`arXiv:2609.01234`, as Zotero's own arXiv translator saves one); a post from
another feed a `webpage`. The PDF link goes in twice: as a linked-URL
attachment, which Zotero versions that take attachments from saveItems
keep, and in a child note, because Zotero 7 takes attachment files only as
uploads from the connector (feedtui downloads nothing) and drops the rest.

Everything here blocks on the connection: the reader calls it from a thread.
Requests go straight to the address, never through a proxy from the
environment: Zotero is a program on this machine, not the network.
"""

from __future__ import annotations

import html
import json
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterable
from typing import Any, NamedTuple

from feedtui import __version__
from feedtui.export import fields
from feedtui.model import Paper

# Seconds to reach Zotero and hear back from a ping, and to save a batch
# (Zotero saves in one database transaction, and may be busy syncing).
PING_TIMEOUT_S = 3.0
SAVE_TIMEOUT_S = 30.0
# Items per saveItems request.
BATCH = 50
# The connector API version feedtui speaks (Zotero answers an older one
# with CONNECTOR_VERSION_OUTDATED).
CONNECTOR_API_VERSION = "3"
HEADERS = {
    "Content-Type": "application/json",
    "X-Zotero-Connector-API-Version": CONNECTOR_API_VERSION,
    # Zotero turns away requests that look like a web page's; this is not one.
    "Zotero-Allowed-Request": "1",
    "User-Agent": f"feedtui/{__version__}",
}


class ZoteroUnavailable(Exception):
    """Zotero did not take the papers; the message says why, for the user."""


class ZoteroNotRunning(ZoteroUnavailable):
    """Nothing answers at the connector's address: Zotero is not open."""


class Sent(NamedTuple):
    count: int
    url: str


def zotero_item(paper: Paper, key: str = "") -> dict[str, Any]:
    """`paper` as a Zotero item (the JSON saveItems takes)."""
    date = fields.issued(paper)
    item: dict[str, Any] = {
        "itemType": "preprint" if paper.is_arxiv else "webpage",
        "id": key or uuid.uuid4().hex,
        "date": f"{date.year:04d}-{date.month:02d}" + (f"-{date.day:02d}" if date.day else ""),
        "accessDate": "CURRENT_TIMESTAMP",
    }
    arxiv = fields.arxiv_id(paper)
    if paper.secondhand:  # a post's title and authors are not the paper's: only what the id says
        item["title"] = f"arXiv:{arxiv}"
    else:
        item["title"] = fields.title(paper)
        item["creators"] = [_creator(author.name) for author in paper.authors]
        if abstract := fields.abstract(paper):
            item["abstractNote"] = abstract
        if doi := fields.doi(paper):
            item["DOI"] = doi
    if arxiv:
        item.update(repository="arXiv", archiveID=f"arXiv:{arxiv}", libraryCatalog="arXiv.org")
        extra = [f"arXiv:{arxiv}" + (f" [{fields.line(paper.primary_category)}]" if paper.primary_category else "")]
        if paper.journal_ref and not paper.secondhand:
            extra.append(f"Journal reference: {fields.line(paper.journal_ref)}")
        item["extra"] = "\n".join(extra)
        if not paper.secondhand:
            item["tags"] = [{"tag": fields.line(category)} for category in paper.categories if fields.line(category)]
    url = f"https://arxiv.org/abs/{paper.id}" if paper.secondhand else fields.link(paper.abs_url)
    if url:
        item["url"] = url
    pdf = "" if paper.secondhand else fields.link(paper.pdf_url)
    if pdf:
        item["attachments"] = [{"title": "Full Text PDF", "url": pdf, "mimeType": "application/pdf", "snapshot": False}]
        shown = html.escape(pdf, quote=True)
        item["notes"] = [{"note": f'<p>PDF: <a href="{shown}">{shown}</a></p>'}]
    return item


def _creator(name: str) -> dict[str, str]:
    parts = fields.person_name(name)
    if parts.literal:
        return {"creatorType": "author", "name": parts.literal}
    # Zotero keeps a suffix after the given name, behind a comma (`Ana, Jr.`).
    given = f"{parts.given}, {parts.suffix}" if parts.suffix else parts.given
    return {"creatorType": "author", "firstName": given, "lastName": parts.family}


class Connector:
    """Zotero's connector server at `url`."""

    def __init__(self, url: str) -> None:
        self.url = url.rstrip("/")
        # No proxy: the environment's would be asked for 127.0.0.1.
        self._opener = urllib.request.build_opener(urllib.request.ProxyHandler({}))

    def ping(self) -> None:
        """Return when Zotero answers; ZoteroNotRunning when nothing does,
        ZoteroUnavailable when something else answers."""
        status, _ = self._request("GET", "/connector/ping", None, PING_TIMEOUT_S)
        if status != 200:
            raise ZoteroUnavailable(
                f"{self.url} answered HTTP {status} to a ping, not as Zotero does: "
                "is [zotero] connector_url Zotero's address?"
            )

    def save(self, papers: Iterable[Paper]) -> Sent:
        """Ping, then save the papers in batches; ZoteroUnavailable (naming
        how many were saved before) when Zotero does not take them all."""
        papers = list(papers)
        self.ping()
        saved = 0
        for start in range(0, len(papers), BATCH):
            batch = papers[start : start + BATCH]
            body = {"items": [zotero_item(paper) for paper in batch], "sessionID": uuid.uuid4().hex}
            status, answer = self._request("POST", "/connector/saveItems", json.dumps(body).encode("utf-8"), SAVE_TIMEOUT_S)
            if status != 201:
                before = f" ({saved} saved before)" if saved else ""
                raise ZoteroUnavailable(_refusal(status, answer) + before)
            saved += len(batch)
        return Sent(saved, self.url)

    def _request(self, method: str, path: str, body: bytes | None, timeout: float) -> tuple[int, bytes]:
        request = urllib.request.Request(self.url + path, data=body, method=method, headers=HEADERS)
        try:
            with self._opener.open(request, timeout=timeout) as response:
                return response.status, response.read(64 * 1024)
        except urllib.error.HTTPError as error:
            with error:
                return error.code, error.read(64 * 1024)
        except (urllib.error.URLError, OSError) as error:
            reason = getattr(error, "reason", error)
            if isinstance(reason, ConnectionRefusedError) or "refused" in str(reason).lower():
                raise ZoteroNotRunning(
                    f"Zotero is not running: nothing answers at {self.url} (open Zotero, or set [zotero] connector_url)"
                ) from None
            raise ZoteroUnavailable(f"Zotero did not answer at {self.url}: {fields.line(str(reason))}") from None


def _refusal(status: int, answer: bytes) -> str:
    """What Zotero's answer to saveItems means, for the user."""
    try:
        said = json.loads(answer.decode("utf-8")) if answer else {}
    except (UnicodeDecodeError, ValueError):
        said = {}
    said = said if isinstance(said, dict) else {}
    if said.get("libraryEditable") is False:
        return "Zotero's selected library is read-only: select My Library (or a collection you can edit) in Zotero"
    if said.get("error") == "CONNECTOR_VERSION_OUTDATED":
        return "this Zotero is too old for its connector protocol version 3: update Zotero"
    return f"Zotero did not save the papers (HTTP {status})"


def send_to_zotero(papers: Iterable[Paper], url: str) -> Sent:
    return Connector(url).save(papers)
