"""The user's state: follows, read marks, stars, their own topics, preferences.

Held in memory for instant answers and written to `state.json` (TinyDB) by a
background thread: changes are queued as operations, coalesced for a moment,
and flushed in one atomic rewrite under the data-directory lock. Before each
flush the file is re-read if another process replaced it, and the queued
operations are applied on top — so two feedtui processes never lose each
other's writes.

A damaged `state.json` is moved aside (never deleted) and the state is
restored from `state.json.bak`, the copy taken at the last successful start;
`recovery_message` says what happened so the UI and CLI can tell the user.
"""

from __future__ import annotations

import os
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from datetime import datetime
from pathlib import Path
from typing import Any

from feedtui.model import utcnow
from feedtui.slot_record import SlotRecord
from feedtui.store.files import (
    DamagedFileError,
    StoreError,
    WriteFailedError,
    atomic_write,
    file_signature,
    keep_aside,
    remove_stale_temporaries,
)
from feedtui.store.lock import DataDirLock
from feedtui.store.shapes import state_shape
from feedtui.store.tinydb_io import Database, open_database, parse_database
from feedtui.topics.names import name_key

SCHEMA_VERSION = 1

FOLLOWS = "follows"
READ = "read"
STARRED = "starred"
TOPICS = "topics"
HIDDEN_TOPICS = "hidden_topics"
PREFS = "prefs"
# "More / less like this": paper id → {"value": 1 or -1, "at": ISO time}.
FEEDBACK = "feedback"
# Pref keys `refreshed:<topic>`: when the topic's sources last answered, and for
# which definition of it ({"at": ISO time, "sig": signature}).
REFRESHED_PREFIX = "refreshed:"
META = "meta"
# In a renamed topic's document, the name it had, until its next change: so
# that another feedtui showing the topic follows it to its new name.
RENAMED_FROM = "renamed_from"
TABLES = (FOLLOWS, READ, STARRED, TOPICS, HIDDEN_TOPICS, PREFS, FEEDBACK)
# Tables whose keys are set or not, whatever their documents say (a read mark's time).
MARK_TABLES = (FOLLOWS, READ, STARRED, HIDDEN_TOPICS)


class Operation(SlotRecord):
    """One change to a table, never changed once made (a plain slotted class:
    the state store is opened on the way to the reader's first paint, see
    slot_record.py)."""

    __slots__ = ("table", "key", "document")

    def __init__(self, table: str, key: str, document: dict | None) -> None:  # document None removes the key
        self.table = table
        self.key = key
        self.document = document


class StateStore:
    """Thread-safe; every method except `flush`/`close` returns without touching disk."""

    def __init__(
        self,
        path: Path,
        lock: DataDirLock,
        *,
        debounce: float = 0.15,
        max_delay: float = 0.5,
        poll_interval: float = 1.0,
        background: bool = True,
    ) -> None:
        self.path = path
        self.backup_path = path.with_name(path.name + ".bak")
        self._dirlock = lock
        self._debounce = debounce
        self._max_delay = max_delay
        self._poll_interval = poll_interval
        self._lock = threading.RLock()
        self._flush_mutex = threading.Lock()
        self._wake = threading.Condition(self._lock)
        self._pending: list[Operation] = []
        self._tables: dict[str, dict[str, dict]] = {name: {} for name in TABLES}
        self._signature: tuple[int, int, int] | None = None
        self._pinned: int | None = None
        self._seq = 0
        # The follows table, the sequence number and its names' keys, for is_following.
        self._follow_keys_of: tuple[dict, int, frozenset[str]] | None = None
        self._durable_seq = 0
        self._first_pending_at: float | None = None
        self._last_change_at = 0.0
        self._closed = False
        self.recovery_message = ""
        self.last_error = ""
        self.on_error: Callable[[str], None] | None = None  # a save failed (the changes are kept)
        self.on_recovered: Callable[[str], None] | None = None  # the file was damaged under us, and replaced
        self.on_external_change: Callable[[], None] | None = None
        self.on_durable: Callable[[int], None] | None = None
        # state.json as found at the start, for the backup (see _take_backup).
        self._found: bytes | None = None
        self._load()
        self._thread: threading.Thread | None = None
        if background:
            # The thread takes the backup first: its sync is no wait on the
            # way to the reader's first paint.
            self._thread = threading.Thread(target=self._run, name="feedtui-state", daemon=True)
            self._thread.start()
        else:
            self._take_backup()

    # -- reading -----------------------------------------------------------

    def follows(self) -> set[str]:
        """The followed topics' names as they were followed (see `is_following`)."""
        with self._lock:
            return set(self._tables[FOLLOWS])

    def is_following(self, topic: str) -> bool:
        """Case and Unicode spelling aside (`topics.names.name_key`), as topics
        are named: a config [[topic]] "edge inference" that replaces the
        catalogue's "Edge Inference" is the topic followed under the old
        spelling. Stored names are left as they are, so two readers whose
        config files spell a topic differently never rewrite each other's."""
        table = self._tables[FOLLOWS]
        return topic in table or name_key(topic) in self._follow_keys(table)

    def _follow_keys(self, table: dict[str, dict]) -> frozenset[str]:
        cached = self._follow_keys_of
        if cached is None or cached[0] is not table or cached[1] != self._seq:
            cached = self._follow_keys_of = (table, self._seq, frozenset(map(name_key, list(table))))
        return cached[2]

    def is_read(self, paper_id: str) -> bool:
        return paper_id in self._tables[READ]

    def is_starred(self, paper_id: str) -> bool:
        return paper_id in self._tables[STARRED]

    def read_ids(self) -> set[str]:
        with self._lock:
            return set(self._tables[READ])

    def read_view(self) -> dict[str, dict]:
        """The live read table (paper id → {"at": …}). Read-only; for hot loops on the UI thread."""
        return self._tables[READ]

    def starred_ids(self) -> set[str]:
        with self._lock:
            return set(self._tables[STARRED])

    def starred_view(self) -> dict[str, dict]:
        return self._tables[STARRED]

    def user_topics(self) -> dict[str, dict]:
        with self._lock:
            return {name: dict(doc) for name, doc in self._tables[TOPICS].items()}

    def renamed_from(self, topic: str) -> str:
        """The name the user topic `topic` had before it was renamed ("" when
        it has not been, or has been changed since)."""
        with self._lock:
            return str(self._tables[TOPICS].get(topic, {}).get(RENAMED_FROM, ""))

    def hidden_topics(self) -> set[str]:
        with self._lock:
            return set(self._tables[HIDDEN_TOPICS])

    def pref(self, key: str, default: Any = None) -> Any:
        doc = self._tables[PREFS].get(key)
        return default if doc is None else doc.get("value", default)

    def export(self) -> dict[str, dict[str, dict]]:
        with self._lock:
            return {name: {k: dict(v) for k, v in table.items()} for name, table in self._tables.items()}

    # -- changing ----------------------------------------------------------

    def follow(self, topic: str) -> None:
        if not self.is_following(topic):
            self._apply([Operation(FOLLOWS, topic, {"since": _now()})])

    def unfollow(self, topic: str) -> None:
        self._apply([Operation(FOLLOWS, name, None) for name in self._follow_spellings(topic)])

    def mark_read(self, paper_ids: Iterable[str]) -> int:
        at = _now()
        ops = [Operation(READ, pid, {"at": at}) for pid in dict.fromkeys(paper_ids) if pid not in self._tables[READ]]
        self._apply(ops)
        return len(ops)

    def mark_unread(self, paper_ids: Iterable[str]) -> int:
        ops = [Operation(READ, pid, None) for pid in dict.fromkeys(paper_ids) if pid in self._tables[READ]]
        self._apply(ops)
        return len(ops)

    def star(self, paper_ids: Iterable[str]) -> int:
        at = _now()
        ops = [Operation(STARRED, pid, {"at": at}) for pid in dict.fromkeys(paper_ids) if pid not in self._tables[STARRED]]
        self._apply(ops)
        return len(ops)

    def unstar(self, paper_ids: Iterable[str]) -> int:
        ops = [Operation(STARRED, pid, None) for pid in dict.fromkeys(paper_ids) if pid in self._tables[STARRED]]
        self._apply(ops)
        return len(ops)

    def feedback_view(self) -> dict[str, dict]:
        """The live feedback table (paper id → {"value": ±1, "at": …}). Read-only."""
        return self._tables[FEEDBACK]

    def set_feedback(self, paper_id: str, value: int) -> bool:
        """+1 more like this, -1 less like this, 0 neither; whether it changed."""
        held = self._tables[FEEDBACK].get(paper_id)
        if (held or {}).get("value", 0) == value:
            return False
        self._apply([Operation(FEEDBACK, paper_id, {"value": value, "at": _now()} if value else None)])
        return True

    def put_topic(self, name: str, document: dict) -> None:
        self.put_topics({name: document})

    def put_topics(self, documents: Mapping[str, dict]) -> None:
        """Add or replace topics (showing again a hidden catalogue topic of the same name), as one change."""
        now = _now()
        ops: list[Operation] = []
        for name, document in documents.items():
            ops.append(Operation(TOPICS, name, {**document, "updated": now}))
            if name in self._tables[HIDDEN_TOPICS]:
                ops.append(Operation(HIDDEN_TOPICS, name, None))
        self._apply(ops)

    def remove_topic(self, name: str, *, hide: bool) -> None:
        """Drop a user topic and its follow; with `hide`, also hide the
        catalogue topic of that name, remembering whether it was followed."""
        ops: list[Operation] = []
        if name in self._tables[TOPICS]:
            ops.append(Operation(TOPICS, name, None))
        followed = self._follow_spellings(name)
        if hide and name not in self._tables[HIDDEN_TOPICS]:
            ops.append(Operation(HIDDEN_TOPICS, name, {"at": _now(), **({"followed": True} if followed else {})}))
        ops.extend(Operation(FOLLOWS, spelling, None) for spelling in followed)
        self._apply(ops)

    def rename_topic(self, old: str, new: str, document: dict) -> None:
        """Give a user topic another name and `document`, its follow going
        with it, as one change; a follow the new name had, left behind by a
        topic of that name renamed in the config file, goes. It is refreshed
        again at the next refresh (what the arXiv API returned for it is
        recorded under its name)."""
        if old not in self._tables[TOPICS]:
            return
        ops = [Operation(TOPICS, old, None), Operation(TOPICS, new, {**document, RENAMED_FROM: old, "updated": _now()})]
        if new in self._tables[HIDDEN_TOPICS]:
            ops.append(Operation(HIDDEN_TOPICS, new, None))
        followed = self._follow_spellings(old)
        ops.extend(Operation(FOLLOWS, spelling, None) for spelling in dict.fromkeys([*followed, *self._follow_spellings(new)]))
        if followed:
            ops.append(Operation(FOLLOWS, new, dict(self._tables[FOLLOWS][followed[0]])))
        if REFRESHED_PREFIX + old in self._tables[PREFS]:
            ops.append(Operation(PREFS, REFRESHED_PREFIX + old, None))
        self._apply(ops)

    def forget_topic(self, name: str) -> None:
        """Drop the user's document of a topic, and only that (an edited copy
        of a config topic: the topic stays, followed as it was)."""
        if name in self._tables[TOPICS]:
            self._apply([Operation(TOPICS, name, None)])

    def unhide_topic(self, name: str) -> None:
        """Show the catalogue topic `name` again (removed, it was hidden),
        followed again if it was when it was removed."""
        hidden = self._tables[HIDDEN_TOPICS].get(name)
        if hidden is None:
            return
        ops = [Operation(HIDDEN_TOPICS, name, None)]
        if hidden.get("followed") is True and not self.is_following(name):
            ops.append(Operation(FOLLOWS, name, {"since": _now()}))
        self._apply(ops)

    def _follow_spellings(self, topic: str) -> list[str]:
        """The follows of this topic as they are stored (case aside, see `is_following`)."""
        key = name_key(topic)
        with self._lock:
            return [name for name in self._tables[FOLLOWS] if name == topic or name_key(name) == key]

    def set_pref(self, key: str, value: Any) -> None:
        self._apply([Operation(PREFS, key, {"value": value})])

    def clear_pref(self, key: str) -> None:
        if key in self._tables[PREFS]:
            self._apply([Operation(PREFS, key, None)])

    def replace_all(self, tables: dict[str, dict[str, dict]]) -> None:
        """Merge an exported state in (import): every key given is set."""
        ops = [
            Operation(table, key, dict(doc))
            for table, docs in tables.items()
            if table in TABLES
            for key, doc in docs.items()
        ]
        self._apply(ops)

    def _apply(self, ops: list[Operation]) -> None:
        if not ops:
            return
        with self._lock:
            for op in ops:
                _apply_to(self._tables, op)
            self._pending.extend(ops)
            self._seq += len(ops)
            now = time.monotonic()
            if self._first_pending_at is None:
                self._first_pending_at = now
            self._last_change_at = now
            self._wake.notify()

    # -- durability ----------------------------------------------------------

    @property
    def sequence(self) -> int:
        """Operations accepted so far; compare with `durable_sequence`."""
        return self._seq

    @property
    def durable_sequence(self) -> int:
        return self._durable_seq

    @property
    def dirty(self) -> bool:
        return bool(self._pending)

    def unsaved(self, *, ignore_pref: Callable[[str], bool] = lambda key: False) -> Counter[tuple[str, bool]]:
        """The changes not saved yet, as how many keys of each (table, whether
        the key is now set): compared with state.json as it is on disk, so a
        change undone before it was saved counts for nothing. Preferences
        `ignore_pref` picks are left out. Reads the file."""
        with self._lock:
            now = {(op.table, op.key): self._tables[op.table].get(op.key) for op in self._pending}
        try:
            saved = parse_database(self.path, self.path.read_bytes(), state_shape)
        except (OSError, DamagedFileError):
            saved = {}
        counts: Counter[tuple[str, bool]] = Counter()
        for (table, key), document in now.items():
            if table == PREFS and ignore_pref(key):
                continue
            before = saved.get(table, {}).get(key)
            if table in MARK_TABLES:
                changed = (document is None) != (before is None)
            else:
                changed = document != before
            if changed:
                counts[table, document is not None] += 1
        return counts

    def wait_durable(self, timeout: float = 5.0) -> bool:
        if self._thread is None:
            self.flush()
            return True
        target = self._seq
        deadline = time.monotonic() + timeout
        with self._lock:
            while self._durable_seq < target:
                remaining = deadline - time.monotonic()
                if remaining <= 0:
                    return False
                self._wake.notify()
                self._wake.wait(min(remaining, 0.05))
        return True

    def flush(self) -> None:
        """Write queued changes now (and pick up other processes' changes). Raises StoreError."""
        with self._flush_mutex:
            with self._lock:
                ops = list(self._pending)
                seq = self._seq
            if not ops and file_signature(self.path) == self._signature:
                return
            reloaded = False
            with self._dirlock:
                # Looked at again under the lock: another process may have
                # written between the look above and taking the lock.
                changed_on_disk = file_signature(self.path) != self._signature
                if changed_on_disk:
                    if self._signature is not None and not self.path.exists():
                        db = self._write_back("was removed while feedtui ran; saved again the state this process holds")
                    else:
                        try:
                            db = self._read_disk()
                        except DamagedFileError as damage:
                            kept = self._move_aside()
                            db = self._write_back(
                                f"was damaged while feedtui ran ({damage.reason}); kept it as {kept.name} "
                                "and saved the state this process holds"
                            )
                    reloaded = True
                else:
                    db = self._db
                if ops:
                    _write_ops(db, ops)
                    db.flush()
                self._db = db
                self._signature = self._pin()
            with self._lock:
                del self._pending[: len(ops)]
                if reloaded:
                    tables = _tables_of(db)
                    for op in self._pending:
                        _apply_to(tables, op)
                    self._tables = tables
                if not self._pending:
                    self._first_pending_at = None
                self._durable_seq = max(self._durable_seq, seq)
                self.last_error = ""
                self._wake.notify_all()
        durable, changed = self.on_durable, self.on_external_change  # read once: they may be detached meanwhile
        if durable:
            durable(self._durable_seq)
        if reloaded and changed:
            changed()

    def close(self) -> None:
        """Flush what is queued and stop the background thread."""
        with self._lock:
            self._closed = True
            self._wake.notify_all()
        if self._thread:
            self._thread.join(timeout=5)
        try:
            self.flush()
        finally:
            if self._pinned is not None and not self.dirty:
                os.close(self._pinned)
                self._pinned = None

    # -- internals ---------------------------------------------------------

    def _load(self) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        remove_stale_temporaries(self.path.parent)
        try:
            db = self._read_disk(stamp=False)
        except DamagedFileError as damage:
            db = self._recover(damage)
        else:
            lost = None if db.table(META).get(doc_id="schema") else self._restore_lost(db)
            if lost is None:
                _stamp(db)
                self._found = self._read_found()
            else:
                db = lost
        self._db = db
        self._tables = _tables_of(db)
        self._signature = self._pin()

    def _read_disk(self, *, stamp: bool = True) -> Database:
        db = open_database(self.path, state_shape)
        meta = db.table(META).get(doc_id="schema")
        version = (meta or {}).get("version", SCHEMA_VERSION)
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"{self.path} was written by a newer feedtui (schema {version}, this one reads "
                f"{SCHEMA_VERSION}); upgrade feedtui or use another --data-dir"
            )
        if stamp:
            _stamp(db)
        return db

    def _pin(self) -> tuple[int, int, int] | None:
        """The signature of the file as this process last read or wrote it, with
        that file held open: while it is open its inode cannot be reused, so
        a file another process put in its place always has a different one,
        however close in time the two writes were."""
        try:
            fd = os.open(self.path, os.O_RDONLY)
        except OSError:
            signature = None
            fd = None
        else:
            st = os.fstat(fd)
            signature = (st.st_ino, st.st_size, st.st_mtime_ns)
        if self._pinned is not None:
            os.close(self._pinned)
        self._pinned = fd
        return signature

    def _restore_lost(self, found: Database) -> Database | None:
        """The state from the backup, when state.json is missing or was
        emptied by something other than feedtui (every file feedtui writes
        carries its schema stamp), and the backup holds what the user set.
        None when there is nothing to restore."""
        if _holds_user_state({name: found.table(name).raw() for name in TABLES}):
            return None  # not stamped, yet the user's: an old file, kept as it is
        when = self._put_backup_back(only_with_user_state=True)
        if not when:
            return None
        self.recovery_message = (
            f"{self.path} was missing or empty; restored your follows, read marks, stars and topics "
            f"from the backup of {when} (to start afresh, remove {self.backup_path.name} too)"
        )
        return self._read_disk()

    def _read_found(self) -> bytes | None:
        try:
            return self.path.read_bytes()
        except OSError:
            return None

    def _take_backup(self) -> None:
        """Copy state.json as it was found at the start to the backup, unless
        the backup already holds the same bytes: a start that changed nothing
        then writes and syncs nothing. The bytes were read at the start, so a
        save made since cannot put a later state in the backup."""
        data, self._found = self._found, None
        if data is None:
            return
        try:
            if self.backup_path.exists() and self.backup_path.read_bytes() == data:
                return
            atomic_write(self.backup_path, data)
        except (OSError, WriteFailedError):
            pass

    def _recover(self, damage: DamagedFileError) -> Database:
        try:
            kept = self._move_aside()
        except OSError as error:
            raise StoreError(
                f"{self.path} is damaged ({damage.reason}) and could not be moved aside: {error.strerror}"
            ) from error
        when = self._put_backup_back()
        if when:
            self.recovery_message = (
                f"{self.path} was damaged ({damage.reason}); kept it as {kept.name} and "
                f"restored your follows, read marks, stars and topics from the backup of {when}"
            )
        else:
            self.recovery_message = (
                f"{self.path} was damaged ({damage.reason}) and no good backup exists; "
                f"kept it as {kept.name} and started with empty state — your data is still in that file"
            )
        return self._read_disk()

    def _put_backup_back(self, *, only_with_user_state: bool = False) -> str:
        """Copy a good state.json.bak over state.json (with `only_with_user_state`,
        only one holding something the user set); when the backup was taken, or
        "" when it was not copied."""
        try:
            good = self.backup_path.read_bytes()
            tables = parse_database(self.backup_path, good, state_shape)
            if only_with_user_state and not _holds_user_state(tables):
                return ""
            atomic_write(self.path, good)
            return datetime.fromtimestamp(self.backup_path.stat().st_mtime).strftime("%Y-%m-%d %H:%M")
        except (DamagedFileError, WriteFailedError, OSError):
            return ""

    def _write_back(self, what_happened: str) -> Database:
        """The file was damaged or removed while we ran (feedtui itself only
        ever replaces it whole): write what we hold in its place, and say so."""
        db = open_database(self.path, state_shape)
        with self._lock:
            snapshot = {name: dict(table) for name, table in self._tables.items()}
        _write_ops(db, [Operation(t, k, d) for t, docs in snapshot.items() for k, d in docs.items()])
        _stamp(db)
        db.flush()
        self.recovery_message = f"{self.path} {what_happened}"
        report = self.on_recovered  # read once: the app may detach it meanwhile
        if report:
            report(self.recovery_message)
        return db

    def _move_aside(self) -> Path:
        return keep_aside(self.path)

    def _run(self) -> None:
        self._take_backup()
        last_poll = time.monotonic()
        failures = 0
        while True:
            with self._lock:
                if self._closed:
                    return
                timeout = self._poll_interval
                if self._pending:
                    now = time.monotonic()
                    due = min(self._last_change_at + self._debounce, (self._first_pending_at or now) + self._max_delay)
                    if failures:
                        due = max(due, now + min(30.0, 0.5 * 2**failures))
                    timeout = max(0.0, due - now)
                if timeout > 0:
                    self._wake.wait(timeout)
                if self._closed:
                    return
                now = time.monotonic()
                flush_due = bool(self._pending) and (
                    now >= self._last_change_at + self._debounce
                    or now >= (self._first_pending_at or now) + self._max_delay
                )
                poll_due = now - last_poll >= self._poll_interval
            if not (flush_due or poll_due):
                continue
            last_poll = time.monotonic()
            try:
                self.flush()
                failures = 0
            except StoreError as error:
                failures += 1
                message = f"{error}; your changes are kept in memory and will be saved when possible"
                if message != self.last_error:
                    self.last_error = message
                    report = self.on_error
                    if report:
                        report(message)


def _stamp(db: Database) -> None:
    """Mark the database as written by feedtui (kept in every write)."""
    if db.table(META).get(doc_id="schema") is None:
        db.table(META).put_many({"schema": {"version": SCHEMA_VERSION, "created": _now()}})


def _holds_user_state(tables: Mapping[str, Mapping]) -> bool:
    """Whether anything the user set is in these tables (preferences aside)."""
    return any(tables.get(name) for name in (FOLLOWS, READ, STARRED, TOPICS, HIDDEN_TOPICS))


def _apply_to(tables: dict[str, dict[str, dict]], op: Operation) -> None:
    table = tables.setdefault(op.table, {})
    if op.document is None:
        table.pop(op.key, None)
    else:
        table[op.key] = op.document


def _write_ops(db: Database, ops: list[Operation]) -> None:
    """Apply ops to the TinyDB tables, one table rewrite per table."""
    puts: dict[str, dict[str, dict]] = {}
    deletes: dict[str, set[str]] = {}
    for op in ops:
        if op.document is None:
            puts.get(op.table, {}).pop(op.key, None)
            deletes.setdefault(op.table, set()).add(op.key)
        else:
            deletes.get(op.table, set()).discard(op.key)
            puts.setdefault(op.table, {})[op.key] = op.document
    for table, keys in deletes.items():
        db.table(table).delete_many(keys)
    for table, docs in puts.items():
        db.table(table).put_many(docs)


def _tables_of(db: Database) -> dict[str, dict[str, dict]]:
    return {name: {key: dict(doc) for key, doc in db.table(name).raw().items()} for name in TABLES}


def _now() -> str:
    return utcnow().isoformat(timespec="seconds")
