"""The reader's messages between its parts: one class per thing that happened.

Posting a message is thread-safe and never waits, so the state store's own
thread reports through these (it may report while holding the data
directory's lock, which the app's thread may be waiting for)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from textual.message import Message

if TYPE_CHECKING:
    from feedtui.core.events import RefreshActivity, RefreshProgress


class StateChangedElsewhere(Message):
    """Another process wrote state.json: follows, marks or topics changed."""


class StateNotSaved(Message):
    """A save failed (read-only or full disk, say): the store keeps the
    changes and retries."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class StateRecovered(Message):
    """The store replaced a state.json damaged under it, with what it holds."""

    def __init__(self, text: str) -> None:
        super().__init__()
        self.text = text


class StateSavedAgain(Message):
    """A save succeeded after one had failed."""


class DiscoveryMessage(Message):
    """What a discovery worker (ask, related, For you, vectors) found, posted
    to the screen that started it: workers never touch the widgets."""


class AnswerReady(DiscoveryMessage):
    """Ask answered `question` (an `Answer`) about `topic`, or (None) every
    paper in the cache; `keep`: the paper the cursor stays on."""

    def __init__(self, question: str, answer: object, keep: str | None = None, *, topic: str | None = None) -> None:
        super().__init__()
        self.question = question
        self.answer = answer
        self.keep = keep
        self.topic = topic


class AuthorPapersReady(DiscoveryMessage):
    """The papers of an author, newest first (ids)."""

    def __init__(self, author: str, paper_ids: list[str]) -> None:
        super().__init__()
        self.author = author
        self.paper_ids = paper_ids


class ForYouReady(DiscoveryMessage):
    """For you was computed (a `ForYou`)."""

    def __init__(self, for_you: object) -> None:
        super().__init__()
        self.for_you = for_you


class RelatedReady(DiscoveryMessage):
    """The papers most related to `paper_id` (`Hit`s, best first)."""

    def __init__(self, paper_id: str, hits: list) -> None:
        super().__init__()
        self.paper_id = paper_id
        self.hits = hits


class DiscoveryFailed(DiscoveryMessage):
    """A discovery worker failed: said in one line; nothing is lost. An Ask
    about a topic that failed names the topic and the question."""

    def __init__(self, what: str, error: str, *, topic: str | None = None, question: str = "") -> None:
        super().__init__()
        self.what = what
        self.error = error
        self.topic = topic
        self.question = question


class TasteChanged(DiscoveryMessage):
    """The user's taste changed (a star, a `+` or `-`): For you is stale."""


class VectorsComputed(DiscoveryMessage):
    """Vectors were computed for `count` more papers."""

    def __init__(self, count: int) -> None:
        super().__init__()
        self.count = count


class RefreshAdvanced(Message):
    """A source of the refresh under way ended (the engine's RefreshProgress);
    `tell`: it failed, and first of the sources failing the same way."""

    def __init__(self, progress: RefreshProgress, tell: bool) -> None:
        super().__init__()
        self.progress = progress
        self.tell = tell


class RefreshActivityChanged(Message):
    """What the refresh under way is at changed (the engine's RefreshActivity)."""

    def __init__(self, event: RefreshActivity) -> None:
        super().__init__()
        self.event = event
