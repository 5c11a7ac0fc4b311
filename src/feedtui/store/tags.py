"""Which cached papers belong to which topic, kept per topic definition.

    cache/tags.json   topic name → {"sig": definition signature, "ids": [paper ids]}

Tags are derived data (the topic queries evaluated over the cache), stored so
start-up does not re-read every abstract. A topic whose signature no longer
matches its definition is retagged in the background.

Every update names the papers it examined (`universe`): on disk, that topic's
list becomes (old list − universe) ∪ matches. Two processes tagging different
papers at once therefore both keep their results.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from pathlib import Path

from feedtui.slot_record import SlotRecord

from feedtui.store.files import DamagedFileError, keep_aside, remove_quietly
from feedtui.store.lock import DataDirLock
from feedtui.store.shapes import tags_shape
from feedtui.store.tinydb_io import open_database, parse_database

TOPICS = "topics"


class TagUpdate(SlotRecord):
    """A topic's new tags (a plain slotted class: the tag store is opened on
    the way to the reader's first paint, see slot_record.py)."""

    __slots__ = ("topic", "signature", "matches", "universe", "known")

    def __init__(
        self,
        topic: str,
        signature: str,
        matches: set[str],
        # None means every cached paper was examined (a full retag).
        universe: set[str] | None,
        # The topic's whole membership as the writer knows it, used when the file
        # has no entry for the topic yet (a partial update has nothing to amend).
        known: set[str] | None = None,
    ) -> None:
        self.topic = topic
        self.signature = signature
        self.matches = matches
        self.universe = universe
        self.known = known


class TagStore:
    def __init__(self, path: Path, lock: DataDirLock) -> None:
        self.path = path
        self._lock = lock
        self.problem = ""

    def load(self) -> dict[str, tuple[str, list[str]]]:
        """topic → (signature, paper ids). A damaged file is kept aside (tags are
        derived and will be recomputed) and reported in `problem`."""
        try:
            data = parse_database(self.path, self.path.read_bytes(), tags_shape, lean=True)
        except FileNotFoundError:
            return {}
        except DamagedFileError as damage:
            self.problem = f"{self._set_aside(damage)}; topic tags will be recomputed"
            return {}
        return {name: (doc.get("sig", ""), list(doc.get("ids", []))) for name, doc in data.get(TOPICS, {}).items()}

    def update(self, updates: Iterable[TagUpdate], removed: Iterable[str] = ()) -> None:
        updates = list(updates)
        removed = list(removed)
        if not updates and not removed:
            return
        with self._lock:
            try:
                db = open_database(self.path, tags_shape)
            except DamagedFileError as damage:
                self.problem = f"{self._set_aside(damage)}; topic tags will be recomputed"
                db = open_database(self.path, tags_shape)
            table = db.table(TOPICS)
            current: Mapping[str, dict] = table.raw()
            puts: dict[str, dict] = {}
            for update in updates:
                old = current.get(update.topic)
                if update.universe is None:
                    ids = update.matches
                elif old is None and update.known is not None:
                    ids = update.known
                elif old is None or old.get("sig") != update.signature:
                    # A partial update against another definition: the full retag
                    # that follows a definition change will write this topic.
                    continue
                else:
                    ids = (set(old.get("ids", ())) - update.universe) | update.matches
                puts[update.topic] = {"sig": update.signature, "ids": sorted(ids)}
            table.put_many(puts)
            table.delete_many(name for name in removed if name in current)
            db.flush()

    def _set_aside(self, damage: DamagedFileError) -> DamagedFileError:
        """Keep the damaged file aside (or drop it if it cannot be moved: it is derived)."""
        try:
            return DamagedFileError(self.path, damage.reason, keep_aside(self.path))
        except OSError:
            remove_quietly(self.path)
            return damage
