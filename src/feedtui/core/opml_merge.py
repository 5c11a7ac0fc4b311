"""How topics read from another reader's OPML join the topics already here.

An import adds and merges; it never removes or overwrites. For each topic read:

- a topic of the same name (case aside) that has feeds gains the new feeds,
  after its own, each feed once; when it has them all, nothing changes;
- a name held by a topic without feeds (an arXiv query, a category) or by the
  reading list sends the feeds to `NAME (feeds)`: into the topic of that name
  when it has feeds (made by an earlier import, or earlier in the same file),
  so that importing a file again does not make `NAME (feeds) 2`; otherwise a
  new topic under the first free of `NAME (feeds)`, `NAME (feeds) 2`, …;
- any other topic is added under its own name.

The rules are pure, so that every front end (the CLI's `import opml`, the
reader) places topics alike: the caller says who holds a name (`holder_of`),
and carries out the `Placement` it gets back.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from feedtui.topics.names import fit_name

# Added to an imported topic's name when the name is taken by what cannot hold feeds.
FEEDS_SUFFIX = " (feeds)"


@dataclass(frozen=True)
class Holder:
    """What already has a name, but for case: a topic and its feeds, or the
    reading list (`feeds` None: it is no topic and holds no feeds)."""

    name: str
    feeds: tuple[str, ...] | None

    @property
    def takes_feeds(self) -> bool:
        return bool(self.feeds)


@dataclass(frozen=True)
class AlreadyHere:
    """Every feed of the imported topic is in the topic `name` already."""

    name: str


@dataclass(frozen=True)
class MergeInto:
    """The topic `name` gets `feeds`: its own, then `added` new ones."""

    name: str
    feeds: tuple[str, ...]
    added: int


@dataclass(frozen=True)
class AddAs:
    """A new topic `name`; `taken_by` is what holds the imported name when
    that is not `name` (None when the topic keeps its own name)."""

    name: str
    taken_by: Holder | None


Placement = AlreadyHere | MergeInto | AddAs


def merged_feeds(current: tuple[str, ...], new: tuple[str, ...]) -> tuple[str, ...]:
    """`current`, then each feed of `new` it lacks, in order, each once."""
    return tuple(dict.fromkeys(current + new))


def free_name(name: str, is_taken: Callable[[str], object], suffix: str = FEEDS_SUFFIX) -> str:
    """`NAME (feeds)`, else `NAME (feeds) 2`, `… 3`: the first not taken,
    with NAME cut short if need be to fit the topic-name limit."""
    candidate, n = fit_name(name, suffix), 2
    while is_taken(candidate):
        candidate, n = fit_name(name, f"{suffix} {n}"), n + 1
    return candidate


def place_topic(name: str, feeds: tuple[str, ...], holder_of: Callable[[str], Holder | None]) -> Placement:
    """Where the imported topic `name` with `feeds` goes. `holder_of(name)`:
    the topic or reading list that has `name` but for case, or None."""
    taken = holder_of(name)
    target = taken
    if taken is not None and not taken.takes_feeds:
        # Its feeds became "NAME (feeds)" at an earlier import (or earlier in
        # this file): they go there again, not to "NAME (feeds) 2".
        earlier = holder_of(fit_name(name, FEEDS_SUFFIX))
        if earlier is not None and earlier.takes_feeds:
            target = earlier
    if target is not None and target.takes_feeds:
        current = target.feeds or ()
        merged = merged_feeds(current, feeds)
        if merged == current:
            return AlreadyHere(target.name)
        return MergeInto(target.name, merged, len(merged) - len(current))
    if taken is None:
        return AddAs(name, None)
    return AddAs(free_name(name, holder_of), taken)
