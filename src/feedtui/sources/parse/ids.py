"""Paper keys: arXiv ids found in links and guids, and stable keys for everything else."""

from __future__ import annotations

import hashlib
import re
from datetime import datetime, timedelta

from feedtui.model import UTC, split_arxiv_id

# The forms of an arXiv reference a feed entry's link, id or guid takes: abs,
# pdf and html URLs on arxiv.org (any scheme-relative host variant), arXiv's
# DOI (`doi.org/10.48550/arXiv.ID`), `oai:arXiv.org:` guids and `arXiv:` ids.
# A bare `1234.5678` is not enough: a blog's post number could look like that;
# nor is a third party's page about a paper (alphaxiv.org/abs/ID).
_ARXIV_REFERENCE = re.compile(
    r"""^\s*(?:
        https?://(?:www\.|export\.)?arxiv\.org/(?:abs|pdf|html)/(?P<path>[^?#\s]+?)(?:\.pdf)?/?(?:[?#]\S*)?
      | https?://(?:dx\.|www\.)?doi\.org/10\.48550/arxiv\.(?P<doi>[^?#\s]+?)/?(?:[?#]\S*)?
      | oai:arxiv\.org:(?P<oai>\S+)
      | arxiv:(?P<bare>\S+)
    )\s*$""",
    re.IGNORECASE | re.VERBOSE,
)
_NEW_STYLE_MONTH = re.compile(r"^(\d{2})(\d{2})\.")
_OLD_STYLE_MONTH = re.compile(r"/(\d{2})(\d{2})\d{3}$")
WEB_PREFIX = "web:"
_WEB_KEY = re.compile(r"^web:[0-9a-f]{16}$")


def arxiv_id_from_reference(text: str | None) -> tuple[str, int | None] | None:
    """(`2609.01234`, 2) from `https://arxiv.org/abs/2609.01234v2` (or /pdf/, /html/),
    `oai:arXiv.org:2609.01234v2` or `arXiv:2609.01234v2`; (`2609.01234`, None)
    from `https://doi.org/10.48550/arXiv.2609.01234`; None for anything else."""
    if not text:
        return None
    match = _ARXIV_REFERENCE.match(text)
    if not match:
        return None
    candidate = match.group("path") or match.group("doi") or match.group("oai") or match.group("bare")
    return split_arxiv_id(candidate)


def first_version_month(arxiv_id: str) -> datetime | None:
    """The first day of the month an arXiv id was issued in (its YYMM); None if unknown.

    `2609.01234` → 2026-09-01; `hep-th/9901001` → 1999-01-01. Old-style ids
    run from 1991 to March 2007, new-style ones from April 2007.
    """
    match = _NEW_STYLE_MONTH.match(arxiv_id) or _OLD_STYLE_MONTH.search(arxiv_id)
    if not match:
        return None
    yy, month = int(match.group(1)), int(match.group(2))
    if not 1 <= month <= 12:
        return None
    year = 1900 + yy if yy >= 91 else 2000 + yy
    return datetime(year, month, 1, tzinfo=UTC)


def months_after_issue(arxiv_id: str, moment: datetime) -> int | None:
    """How many calendar months `moment` (UTC) falls after the month the id was
    issued in: 0 within that month, 1 in the next, -1 in the one before; None
    when the id names no month."""
    issued = first_version_month(arxiv_id)
    if issued is None:
        return None
    moment = moment.astimezone(UTC)
    return (moment.year - issued.year) * 12 + moment.month - issued.month


def estimated_first_version(arxiv_id: str, seen: datetime) -> datetime:
    """A stand-in for the first-version date of a paper seen at `seen` whose
    source does not give it: the last moment of the id's month, or `seen` when
    that is earlier or the id names no month. Always marked as an estimate.

    The first version came out some time in that month and before `seen`;
    the latest such moment keeps the paper beside the post or announcement
    that brought it (a post of 1 December about `2611.09999` sorts with 30
    November, not a month back with 1 November)."""
    issued = first_version_month(arxiv_id)
    if issued is None:
        return seen
    following = datetime(issued.year + issued.month // 12, issued.month % 12 + 1, 1, tzinfo=UTC)
    return min(following - timedelta(seconds=1), seen)


def web_key(reference: str, feed_url: str) -> str:
    """`web:` + a short stable hash for an entry that is not on arXiv.

    A guid that is a URI (it has a scheme, e.g. `https:`, `tag:`, `urn:`) is
    meant to be unique everywhere, so it is hashed alone and the same post seen
    in two feeds is one paper. A guid that is a bare token (`post-17`) is only
    unique within its feed, so the feed's URL is hashed with it.
    """
    reference = reference.strip()
    scoped = reference if ":" in reference else f"{feed_url}\n{reference}"
    digest = hashlib.blake2b(scoped.encode("utf-8", "surrogatepass"), digest_size=8).hexdigest()
    return WEB_PREFIX + digest


def is_paper_id(text: str) -> bool:
    """An arXiv id in a form users paste (see `split_arxiv_id`), or a `web:` key."""
    return split_arxiv_id(text) is not None or _WEB_KEY.match(text.strip()) is not None
