"""Everything the views ask about, held in memory and answered at once.

The library is built from the card index and the stored tags at start-up and
kept current as refreshes land and marks change. It never touches the disk or
the network: the engine feeds it. Papers are addressed by position (an int)
in hot paths, so a 10,000-paper topic is a list of ints, not of objects.

The config's `hide` query is tagged as a topic of its own (`HIDE_TOPIC`),
which the library keeps apart: its papers are `hidden`, and left out of
every topic's papers, unread count and momentum here, the one place the
reader and the CLI both ask. A topic's whole membership (`raw_positions`)
is kept, so what the tags file is told never depends on what is hidden.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Callable, Iterable, Mapping
from itertools import compress
from operator import attrgetter

from feedtui.store.codec import CardRow
from feedtui.topics.registry import HIDE_TOPIC

__all__ = ["CardRow", "Library"]

_NO_TAGS: tuple[str, ...] = ()


def _tag_order(name: str) -> tuple[str, str]:
    return name.casefold(), name


class Library:
    def __init__(
        self,
        rows: Mapping[str, CardRow],
        read: Callable[[], Mapping[str, object]],
        bylines: Callable[[str, str], tuple[str, str]] | None = None,
    ) -> None:
        self.ids: list[str] = list(rows)
        self.rows: list[CardRow] = list(rows.values())
        self.pos: dict[str, int] = dict(zip(self.ids, range(len(self.ids))))
        # First-version times by position, for sorting with a C-level key.
        self.published_at: list[int] = list(map(attrgetter("published"), self.rows))
        # Positions whose first-version date is a guess (rare: momentum skips them).
        self.estimated: set[int] = set(compress(range(len(self.rows)), map(attrgetter("estimated"), self.rows)))
        # Each paper's topics, in no set order: `tags_of` gives them in the order shown.
        self.tags: list[tuple[str, ...]] = [_NO_TAGS] * len(self.ids)
        self.members: dict[str, list[int]] = {}
        # One tuple per combination of topics (most papers share theirs with thousands).
        self._tag_tuples: dict[tuple[str, ...], tuple[str, ...]] = {}
        self.unread: dict[str, int] = {}
        # Positions of the papers the config's `hide` query matches, and
        # each topic's members without them (made when first asked).
        self.hidden: set[int] = set()
        self._shown: dict[str, list[int]] = {}
        # Bumped whenever rows change, for callers that memoise over them.
        self.version = 0
        # The current read marks (paper id → …); a callable because the state
        # store swaps its tables when another process changed them.
        self._read = read
        # (week, paper id) → (authors, affiliations), for rows loaded without
        # them (see `bylines_of`).
        self._bylines = bylines

    def __len__(self) -> int:
        return len(self.ids)

    # -- questions ---------------------------------------------------------

    def topic_positions(self, topic: str) -> list[int]:
        """The topic's papers, newest first (by first-version date), the hidden ones left out."""
        if not self.hidden:
            return self.members.get(topic, [])
        shown = self._shown.get(topic)
        if shown is None:
            hidden = self.hidden
            shown = self._shown[topic] = [i for i in self.members.get(topic, ()) if i not in hidden]
        return shown

    def raw_positions(self, topic: str) -> list[int]:
        """Every paper the topic matches, hidden ones too (what its tags are)."""
        if topic == HIDE_TOPIC:
            return sorted(self.hidden)
        return self.members.get(topic, [])

    def hidden_count(self, topic: str) -> int:
        """How many of the topic's papers the hide query leaves out."""
        return len(self.members.get(topic, ())) - len(self.topic_positions(topic)) if self.hidden else 0

    def tags_of(self, position: int) -> tuple[str, ...]:
        """The paper's topics as cards, the detail view and the CLI show them: by name, case aside."""
        return tuple(sorted(self.tags[position], key=_tag_order))

    def bylines_of(self, position: int) -> tuple[str, str]:
        """The paper's authors and affiliations as its card shows them. Rows
        loaded at start have neither (store.bylines says why): they are read
        for the few cards drawn. A row a store made has its own."""
        row = self.rows[position]
        if row.authors or row.affiliations or self._bylines is None:
            return row.authors, row.affiliations
        return self._bylines(row.shard, self.ids[position])

    def unread_count(self, topic: str) -> int:
        return self.unread.get(topic, 0)

    def is_read(self, position: int) -> bool:
        return self.ids[position] in self._read()

    def row_of(self, paper_id: str) -> CardRow | None:
        position = self.pos.get(paper_id)
        return None if position is None else self.rows[position]

    def rows_by_id(self) -> dict[str, CardRow]:
        return dict(zip(self.ids, self.rows))

    def published(self, topic: str, since: int | None = None) -> list[int]:
        """First-version times (epoch seconds) of the topic's papers with exact
        dates, newest first; with `since`, only those at or after it (members
        are kept newest first, so the rest is never looked at)."""
        return self._published(self.topic_positions(topic), since)

    def hidden_published(self, topic: str, since: int | None = None) -> list[int]:
        """`published` for the topic's hidden papers: what momentum leaves out, counted."""
        if not self.hidden:
            return []
        hidden = self.hidden
        return self._published([i for i in self.members.get(topic, ()) if i in hidden], since)

    def _published(self, members: list[int], since: int | None) -> list[int]:
        at, estimated = self.published_at, self.estimated
        if since is not None:
            members = members[: bisect_right(members, -since, key=lambda i: -at[i])]
        if estimated:
            members = [i for i in members if i not in estimated]
        return list(map(at.__getitem__, members))

    def all_published(self) -> list[int]:
        """First-version times of every paper with an exact date, but the hidden."""
        at, left_out = self.published_at, self.estimated | self.hidden
        if not left_out:
            return list(at)
        return [time for i, time in enumerate(at) if i not in left_out]

    def total_unread(self) -> int:
        read = self._read()
        return sum(1 for pid in self.ids if pid not in read)

    # -- changes -----------------------------------------------------------

    def upsert_rows(self, rows: Mapping[str, CardRow]) -> None:
        self.version += 1
        resort: set[str] = set()
        for pid, row in rows.items():
            position = self.pos.get(pid)
            if position is None:
                position = self.pos[pid] = len(self.ids)
                self.ids.append(pid)
                self.rows.append(row)
                self.published_at.append(row.published)
                self.tags.append(_NO_TAGS)
            else:
                if self.rows[position].published != row.published:
                    resort.update(self.tags[position])
                self.rows[position] = row
                self.published_at[position] = row.published
            if row.estimated:
                self.estimated.add(position)
            else:
                self.estimated.discard(position)
        for topic in resort:
            self._sort(topic)

    def set_members(self, topic: str, paper_ids: Iterable[str]) -> None:
        """Replace a topic's papers (ids not in the library are ignored)."""
        positions = set(map(self.pos.get, paper_ids))
        positions.discard(None)
        if topic == HIDE_TOPIC:
            self._set_hidden(positions)  # type: ignore[arg-type]
            return
        tags = self.tags
        before = self.members.get(topic, ())
        for position in before:
            if position not in positions:
                tags[position] = tuple(t for t in tags[position] if t != topic)
        # A paper's tags hold the topic exactly when it is among the members.
        # Papers with the same topics share one tuple of them.
        this_topic = (topic,)
        same = self._tag_tuples
        for position in positions.difference(before) if before else positions:
            grown = tags[position] + this_topic
            tags[position] = same.setdefault(grown, grown)
        self.members[topic] = list(positions)  # type: ignore[arg-type]
        self._sort(topic)
        self._count(topic)

    def update_tags(self, examined: Iterable[str], found: Mapping[str, set[str]]) -> set[str]:
        """New verdicts for some papers: each examined paper belongs to exactly the
        topics whose set in `found` holds it (topics absent from `found` are not
        touched). Returns the topics whose membership changed (or whose hidden
        papers did)."""
        hidden_changed: set[str] = set()
        if HIDE_TOPIC in found:
            found = dict(found)
            matched = found.pop(HIDE_TOPIC)
            examined = list(examined)
            looked = {p for p in map(self.pos.get, examined) if p is not None}
            now = {p for p in map(self.pos.get, matched) if p is not None and p in looked}
            before = self.hidden & looked
            if now != before:
                for position in now ^ before:
                    hidden_changed.update(self.tags[position])
                self._set_hidden((self.hidden - looked) | now)
        judged = set(found)
        verdicts: dict[int, set[str]] = {}
        for pid in examined:
            position = self.pos.get(pid)
            if position is not None:
                verdicts[position] = set()
        for topic, ids in found.items():
            for pid in ids:
                position = self.pos.get(pid)
                if position is not None and position in verdicts:
                    verdicts[position].add(topic)
        added: dict[str, set[int]] = {}
        removed: dict[str, set[int]] = {}
        for position, topics in verdicts.items():
            old = set(self.tags[position])
            kept = old - judged
            new = kept | topics
            if new == old:
                continue
            for topic in topics - old:
                added.setdefault(topic, set()).add(position)
            for topic in (old & judged) - topics:
                removed.setdefault(topic, set()).add(position)
            self.tags[position] = tuple(new)
        changed = set(added) | set(removed)
        for topic in changed:
            gone = removed.get(topic, set())
            current = [p for p in self.members.get(topic, ()) if p not in gone]
            current.extend(added.get(topic, ()))
            self.members[topic] = current
            self._sort(topic)
            self._count(topic)
        for topic in judged - set(self.members):
            self.members[topic] = []
            self.unread[topic] = 0
        return changed | hidden_changed

    def drop_topic(self, topic: str) -> None:
        if topic == HIDE_TOPIC:
            self._set_hidden(set())
            return
        for position in self.members.pop(topic, ()):
            self.tags[position] = tuple(t for t in self.tags[position] if t != topic)
        self.unread.pop(topic, None)

    def read_changed(self, paper_ids: Iterable[str], now_read: bool) -> None:
        """Adjust unread counts after these papers' read state flipped."""
        delta = -1 if now_read else 1
        for pid in paper_ids:
            position = self.pos.get(pid)
            if position is None or position in self.hidden:
                continue
            for topic in self.tags[position]:
                self.unread[topic] = self.unread.get(topic, 0) + delta

    def recount(self) -> None:
        for topic in self.members:
            self._count(topic)

    def _set_hidden(self, positions: set[int]) -> None:
        if positions == self.hidden:
            return
        self.hidden = positions
        self._shown.clear()
        self.version += 1
        self.recount()

    def _sort(self, topic: str) -> None:
        """Newest first; papers submitted the same second keep position order."""
        self._shown.pop(topic, None)
        members = self.members[topic]
        members.sort()
        members.sort(key=self.published_at.__getitem__, reverse=True)

    def _count(self, topic: str) -> None:
        members, read = self.topic_positions(topic), self._read()
        marked = sum(map(read.__contains__, map(self.ids.__getitem__, members))) if read else 0
        self.unread[topic] = len(members) - marked
