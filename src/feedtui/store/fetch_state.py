"""What feedtui remembers about fetching: HTTP validators and answered queries.

    http.json         validators: URL → {"etag", "last_modified", "fetched"}
                      answered:   arXiv query → {"day": "2026-11-29", "at": ISO time}
                      totals:     "2026-10-31..2026-11-28" → {"total": N, "day": …}
    arxiv-pace.json   when the next request to arXiv may start, and the lock
                      that keeps one such request in flight across processes
                      (see feedtui.sources.pace)
    arxiv-pace.holds.json  a Retry-After met during another process's turn,
                      for the next turn to take in

arXiv publishes once a day, so an API query answered today is not sent again
unless forced. If the clock jumps backwards, an "answered" day in the future
no longer counts as today and the query is sent again.
"""

from __future__ import annotations

from datetime import date, datetime, timedelta
from pathlib import Path

from feedtui.sources.base import Validators
from feedtui.sources.pace import SharedPace
from feedtui.store.files import DamagedFileError, StoreError, keep_aside
from feedtui.store.lock import DataDirLock
from feedtui.store.shapes import fetch_state_shape
from feedtui.store.tinydb_io import Database, open_database

VALIDATORS = "validators"
ANSWERED = "answered"
TOTALS = "totals"
# How many days after it was taken a count of all new arXiv papers still
# stands for "all new papers" in momentum's share: a 28-day total moves by a
# few percent in a week, where every paper in the cache is another measure
# altogether (a cache of three topics makes each of them a third of it).
TOTAL_KEPT_DAYS = 7


def new_papers_key(now: datetime) -> str:
    """The key of the count of all new arXiv papers in the 28 days up to `now`."""
    start = (now - timedelta(days=28)).date()
    return f"new:{start.isoformat()}..{now.date().isoformat()}"


def topic_answered_key(signature: str) -> str:
    """The key under which a topic's query (by its signature) last answered in full."""
    return f"topic:{signature}"


class FetchState:
    def __init__(self, path: Path, lock: DataDirLock) -> None:
        self.path = path
        self._lock = lock
        self.problem = ""
        self._db = self._open()

    def _open(self) -> Database:
        """The file as on disk; a damaged one is kept aside (it holds nothing the
        user set) and replaced by an empty one."""
        try:
            return open_database(self.path, fetch_state_shape)
        except DamagedFileError as damage:
            try:
                kept = keep_aside(self.path)
            except OSError as error:
                raise StoreError(f"{damage}, and it could not be moved aside: {error.strerror}") from error
            self.problem = (
                f"{DamagedFileError(self.path, damage.reason, kept)}; "
                "every source will be fetched in full once"
            )
            return open_database(self.path, fetch_state_shape)

    def arxiv_pace(self) -> SharedPace:
        """The arXiv lane's turn and pause, shared by every process on this data directory."""
        return SharedPace(self.path.with_name("arxiv-pace.json"))

    def validators(self, url: str) -> Validators:
        doc = self._db.table(VALIDATORS).get(doc_id=url)
        if not doc:
            return Validators()
        return Validators(etag=doc.get("etag", ""), last_modified=doc.get("last_modified", ""))

    def answered_at(self, key: str) -> datetime | None:
        """When the source behind `key` last answered in full, if ever."""
        doc = self._db.table(ANSWERED).get(doc_id=key)
        if not doc:
            return None
        try:
            return datetime.fromisoformat(doc["at"])
        except (KeyError, ValueError):
            return None

    def total(self, key: str, today: date) -> int | None:
        doc = self._db.table(TOTALS).get(doc_id=key)
        if doc and doc.get("day") == today.isoformat():
            return int(doc["total"])
        return None

    def recent_total(self, now: datetime) -> int | None:
        """The latest count of all new arXiv papers whose 28 days end on
        `now`'s day or up to TOTAL_KEPT_DAYS days before it; None if none is."""
        recent = self.recent_count(now)
        return recent[0] if recent else None

    def recent_count(self, now: datetime) -> tuple[int, date] | None:
        """That count and the day its 28 days end on."""
        table = self._db.table(TOTALS)
        for age in range(TOTAL_KEPT_DAYS + 1):
            day = now - timedelta(days=age)
            doc = table.get(doc_id=new_papers_key(day))
            if doc and doc["total"]:
                return int(doc["total"]), day.date()
        return None

    def save(
        self,
        *,
        validators: dict[str, Validators] | None = None,
        answered: dict[str, datetime] | None = None,
        totals: dict[str, tuple[int, date]] | None = None,
        forget_validators: bool = False,
    ) -> None:
        """Merge these facts into http.json (under the lock, over what is on disk)."""
        with self._lock:
            db = self._open()
            if forget_validators:
                db.table(VALIDATORS).truncate()
                db.table(ANSWERED).truncate()
            if validators:
                db.table(VALIDATORS).put_many(
                    {
                        url: {"etag": v.etag, "last_modified": v.last_modified}
                        for url, v in validators.items()
                        if not v.empty
                    }
                )
            if answered:
                db.table(ANSWERED).put_many(
                    {q: {"day": at.date().isoformat(), "at": at.isoformat(timespec="seconds")} for q, at in answered.items()}
                )
            if totals:
                db.table(TOTALS).put_many(
                    {key: {"total": total, "day": day.isoformat()} for key, (total, day) in totals.items()}
                )
            db.flush()
            self._db = db
