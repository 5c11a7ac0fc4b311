"""A refresh: fetch the topics' sources, store what comes, in steps.

`Refreshing.refresh` plans the requests (core/fetch.py) and hands them to a
`RefreshRun`, which fetches them and commits what has come: a first batch
(`[fetch] store_batch` papers) as soon as it has come, every later full
batch set aside on disk by week (core/spool.py) to be stored a week at a
time at the end, so that a week of the cache is rewritten once per refresh,
not once per batch. A refresh nobody watches land (the CLI's) spools every
feed's papers as they come, packed by their parse worker (core/packed.py),
and holds none of them until their week is stored. A reader's refresh
(arXiv paced at one request per 3 s) also stores everything every
PERIODIC_COMMIT_S or so. Sources wait to begin
while a batch is waiting, so what a refresh holds stays bounded whatever it
fetches. A commit stores its papers a part at a time (each part its
papers, then their tags, then their cards: see store/cache.py), then the
sources' validators, so that a 304 never hides papers that were not saved:
a refresh killed with papers spooled saved no validator for them. A refresh
stopped midway (the reader quitting, Ctrl-C) still stores what it has
fetched, and says so in `stopped_refresh`.
"""

from __future__ import annotations

import asyncio
import hashlib
import json
import time
from collections import Counter
from collections.abc import Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass
from datetime import date, datetime
from typing import TYPE_CHECKING

from feedtui.core.cache_outline import CacheOutline
from feedtui.core.embedding import Embedder
from feedtui.core.events import PapersStored, RefreshActivity, RefreshProgress, SourceFailed
from feedtui.core.library import Library
from feedtui.core.spool import SPOOL_PART, Part, Spool
from feedtui.memory import give_back_freed_memory
from feedtui.model import Paper, RefreshReport, SourceReport, split_arxiv_id, utcnow
from feedtui.store.cache import StoreOutcome
from feedtui.store.fetch_state import new_papers_key, topic_answered_key
from feedtui.store.files import StoreError, atomic_write
from feedtui.store.tags import TagUpdate
from feedtui.topics.tagging import MatchRows, Tagger, build_matchers, tag_papers

if TYPE_CHECKING:
    from feedtui.core.fetch import Activity, PlannedSource, SourceOutcome

# What Engine.starred_arxiv_not_cached last found, for the cache and stars it saw.
STARS_CHECKED_FILE = "stars-checked.json"

# A refresh that runs longer than this saves what it has so far every this
# many seconds, so that a reader shows papers before the last source answers.
PERIODIC_COMMIT_S = 10.0


async def _to_its_end(work: Awaitable[None]) -> None:
    """Await `work` to its end even when cancelled meanwhile, then pass the
    cancellation on: a store cut short loses the batch it had taken."""
    task = asyncio.ensure_future(work)
    stop: asyncio.CancelledError | None = None
    while not task.done():
        try:
            await asyncio.shield(task)
        except asyncio.CancelledError as error:
            stop = stop or error
    if stop is not None:
        raise stop
    task.result()


class RefreshRun:
    """One refresh's fetching and committing, from its plans to its outcomes.

    Sources hand over what they fetched (`source_ended`, `page_came`) to
    `pending`; `commit` stores it. Commits never overlap (`_committing`),
    and the periodic committer is told, not cancelled, when the fetching is
    over: a commit cut short would lose the batch it had taken."""

    def __init__(
        self,
        engine: Refreshing,
        plans: Sequence[PlannedSource],
        report: RefreshReport,
        now: datetime,
        *,
        on_landed: Callable[[], None] | None = None,
    ) -> None:
        self.engine = engine
        self.plans = list(plans)
        self.report = report
        self.now = now
        self.on_landed = on_landed
        # The day's count of all new arXiv papers is no source the user added:
        # it is neither counted nor named among them (see _count_failed).
        self.shown = sum(1 for plan in self.plans if plan.kind != "total")
        self.done = 0
        self.pending: list[SourceOutcome] = []
        # Papers new to the cache stored so far (counted, not kept: a large
        # refresh stores a hundred thousand).
        self.new_count = 0
        self._committing = asyncio.Lock()
        self._last_commit = time.monotonic()
        self._fetched = asyncio.Event()
        # Papers are stored `batch` at a time, and a source begins only while
        # fewer than `fetch.concurrency` others are being fetched or parsed
        # and less than a batch waits to be stored, counting those as many
        # papers as the sources ended so far brought on average: what a
        # refresh holds is bounded whatever it fetches, and fetching goes on
        # while a batch is stored.
        self.batch = max(1, engine.settings.fetch.store_batch)
        self._slots = max(1, engine.settings.fetch.concurrency)
        self._in_hand = 0
        self._pending_papers = 0
        self._papers_seen = 0
        self._sources_seen = 0
        self._room = asyncio.Event()
        self._due = asyncio.Event()
        # Full batches after the first wait on disk, grouped by week, and are
        # stored a week at a time: a week is rewritten once, not once a batch.
        self.spool = Spool(engine.data_dir)
        # With nobody watching papers land (the CLI), a feed's papers come
        # packed by their parse worker and go to the spool as they come
        # (core/packed.py): the process holds none of them until their week
        # is stored. `_spilling`: those spills under way.
        self.pack = on_landed is None
        self._spilling: list[asyncio.Task] = []
        # Stored into without the library unless it is loaded or a reader
        # shows what lands (`on_landed`): see core/cache_outline.py.
        self.outline = CacheOutline() if on_landed is None else None
        self._stored = 0
        self._store_took = 0.0

    async def run(self) -> list[SourceOutcome]:
        """Fetch every planned source and store what came. Stopped while
        fetching or storing the last batch, what has come is stored before it
        ends, and said in the engine's `stopped_refresh`."""
        engine = self.engine
        embedder = Embedder() if engine.vectors_wanted() else None
        try:
            return await self._fetch_and_store(embedder)
        finally:
            if embedder is not None:
                embedder.close()

    async def _fetch_and_store(self, embedder: Embedder | None) -> list[SourceOutcome]:
        from feedtui.core.fetch import fetch_sources

        engine = self.engine
        committer = asyncio.ensure_future(self._periodic_commits())
        try:
            outcomes = await fetch_sources(
                self.plans,
                settings=engine.settings,
                fetch_state=engine.fetch_state,
                now=self.now,
                topics=engine.registry.tagged(),
                on_source=self.source_ended,
                on_page=self.page_came,
                on_activity=self.activity,
                admit=self.admit,
                embedder=embedder,
                pack=self.pack,
            )
        except asyncio.CancelledError:
            try:
                await _to_its_end(self._store_the_rest(committer))
            finally:
                self._stopped()
            raise
        except BaseException:
            self._fetched.set()
            self._due.set()
            await committer
            raise
        try:
            await _to_its_end(self._store_the_rest(committer))
        except asyncio.CancelledError:
            self._stopped()
            raise
        if embedder is not None:
            # The vectors and words of what was stored, as the embedder's
            # workers finish them (most while the papers were being stored).
            await engine._keep_embedded(await embedder.finish())
        return outcomes

    # -- what the sources hand over -------------------------------------------

    async def admit(self) -> None:
        """Wait, before a source begins, until there is room for its papers."""
        while self._in_hand >= self._slots or self._pending_papers + self._expected() >= self.batch:
            self._due.set()
            self._room.clear()
            await self._room.wait()
        self._in_hand += 1

    def _expected(self) -> int:
        """The papers the sources under way will most likely bring."""
        if not self._sources_seen or not self._in_hand:
            return 0
        return self._in_hand * self._papers_seen // self._sources_seen

    def _hand_over(self, outcome: SourceOutcome) -> None:
        if outcome.packed is not None:
            self._spilling.append(asyncio.ensure_future(self._spill_packed(outcome)))
            return
        self.pending.append(outcome)
        self._pending_papers += len(outcome.to_store)
        if self._pending_papers >= self.batch:
            self._due.set()

    def page_came(self, outcome: SourceOutcome) -> None:
        """A page of an arXiv query: stored with the next commit."""
        self._hand_over(outcome)

    def source_ended(self, outcome: SourceOutcome) -> None:
        self._hand_over(outcome)
        self._in_hand -= 1
        self._room.set()
        if not outcome.page:
            self._sources_seen += 1
            self._papers_seen += len(outcome.papers)
        if outcome.plan.kind == "total":
            return
        self.done += 1
        report = outcome.report
        progress = RefreshProgress(self.done, self.shown, report.label, report.ok, report.error)
        self.engine.publish(progress)
        if not report.ok:
            self.engine.publish(SourceFailed(report.label, report.error))

    async def _spill_packed(self, outcome: SourceOutcome) -> None:
        """Spool a feed's packed papers, between commits (which store and
        then clear the spool); without room for them, they are unpacked and
        stored with the next batch like any other's."""
        async with self._committing:
            try:
                await asyncio.to_thread(self.spool.spill_packed, outcome)
                return
            except OSError:
                pass
        packed, outcome.packed = outcome.packed, None
        assert packed is not None
        items = packed.unpacked()
        outcome.papers = [paper for _, paper, _, _ in items]
        outcome.tags = {paper.id: tags for _, paper, tags, _ in items if tags is not None}
        outcome.texts = {paper.id: texts for _, paper, _, texts in items if texts is not None}
        self._hand_over(outcome)

    def activity(self, now_at: Activity) -> None:
        self.engine.publish(RefreshActivity(self.done, self.shown, now_at))

    # -- committing -----------------------------------------------------------

    async def commit(self, *, spill: bool = False) -> bool:
        """Store what has come, `batch` papers at a time, then what the
        sources answered; True when that added or changed papers.

        With `spill`, once a first batch was stored, what has come is
        written to the spool instead (see core/spool.py), to be stored a
        week at a time by the next commit that stores."""
        engine, report = self.engine, self.report
        landed = False
        async with self._committing:
            batch, self.pending = self.pending, []
            self._pending_papers = 0
            self._room.set()
            spool = self.spool
            if spill and not self._stored:
                spill = False  # a first batch is stored as it comes: most refreshes hold no more
            if (spill or len(spool)) and batch:
                try:
                    await asyncio.to_thread(spool.spill, batch)
                    batch = []
                except OSError:
                    spill = False  # no room for the spool: this batch is stored as it is
            if spill:
                return False
            started = time.monotonic()
            outcomes = [*spool.outcomes, *batch]
            parts = iter(_chain_parts(spool, batch, self.batch))
            try:
                while (part := await asyncio.to_thread(next, parts, None)) is not None:
                    stored = await engine._store_part(part, self.now, self.outline)
                    self._stored += 1
                    if engine.cache.lost_papers:
                        report.notes.append(await asyncio.to_thread(engine._recover_lost_papers))
                    if stored is not None and self._tally(part, stored):
                        landed = True
                    part = stored = None  # let go of before the next part is read
                if outcomes:
                    try:
                        await asyncio.to_thread(engine._save_answers, outcomes, self.now)
                    except StoreError:
                        pass  # asked again at the next refresh
                for outcome in outcomes:
                    # Stored (or reported unsaved): the papers need not be held.
                    outcome.papers, outcome.tags, outcome.texts = [], {}, {}
            finally:
                spool.close()
                self._last_commit = time.monotonic()
                self._store_took = self._last_commit - started
        return landed

    def _tally(self, part: Part, stored: StoreOutcome) -> bool:
        """Count what a stored part added or changed, and say so; True if any."""
        new = set(stored.new)
        self.new_count += len(new)
        for outcome, papers in part:
            outcome.report.new_papers += sum(1 for p in papers if p.id in new)
        self.report.new_papers += len(stored.new)
        self.report.updated_papers += len(stored.updated)
        if not (stored.new or stored.updated):
            return False
        self.engine.publish(PapersStored(len(stored.new), len(stored.updated)))
        return True

    async def _periodic_commits(self) -> None:
        """Long refreshes land in steps, and a batch is set aside once it is
        full. Never cancelled mid-commit: it stops when told the fetching is
        over. Once papers wait in the spool, only a reader (`on_landed`) is
        worth storing them all before the end; storing what came so far
        takes no more than a third of the time."""
        fetched = self._fetched
        while not fetched.is_set():
            try:
                await asyncio.wait_for(self._due.wait(), 0.5)
            except TimeoutError:
                pass
            self._due.clear()
            if fetched.is_set() or not self.pending:
                continue
            since = time.monotonic() - self._last_commit
            due = since > max(PERIODIC_COMMIT_S, 2 * self._store_took)
            if due and (self.on_landed is not None or not len(self.spool)):
                if await self.commit() and self.on_landed:
                    self.on_landed()
            elif self._pending_papers >= self.batch:
                await self.commit(spill=True)

    async def _store_the_rest(self, committer: asyncio.Future) -> None:
        self._fetched.set()
        self._due.set()  # the committer, waiting for a batch, ends now
        await committer
        while self._spilling:
            spilling, self._spilling = self._spilling, []
            await asyncio.gather(*spilling)
        await self.commit()

    def _stopped(self) -> None:
        self.report.finished = utcnow()
        self.engine.stopped_refresh = self.report


@dataclass(frozen=True, slots=True)
class NewPaperCount:
    """arXiv's count of all new papers in 28 days, the denominator of
    momentum's share: `total` (None: not known), the day its 28 days end on,
    whether it was asked for now, and why it could not be (`error`)."""

    total: int | None
    day: date | None = None
    asked: bool = False
    error: str = ""


class Refreshing:
    """The Engine's refresh methods (see core/engine.py for the state they use)."""

    async def count_new_papers(self, as_of: datetime) -> NewPaperCount:
        """arXiv's count of all new papers in the 28 days up to `as_of`, for
        the share of momentum at that moment (a past one: a refresh takes
        today's). A count kept for that window (or for one ending up to
        TOTAL_KEPT_DAYS before it) stands; otherwise one request asks arXiv,
        and the answer is kept in the fetch state for the next time. Not
        answered (offline, say), `error` says why: the shares are then of the
        papers in the cache."""
        from feedtui.core.fetch import PlannedSource, fetch_sources, total_query

        if recent := self.fetch_state.recent_count(as_of):
            return NewPaperCount(*recent)
        if self.demo:
            return NewPaperCount(None, error="demo mode fetches nothing")
        key = new_papers_key(as_of)
        plan = PlannedSource("total", "arXiv new-paper count", query=total_query(as_of), answers=(key,))
        [outcome] = await fetch_sources([plan], settings=self.settings, fetch_state=self.fetch_state, now=self.clock())
        report = outcome.report
        if not report.ok or not outcome.total:
            return NewPaperCount(None, asked=True, error=report.error or "arXiv counted no new papers")
        try:
            self.fetch_state.save(totals={key: (outcome.total, self.clock().date())})
        except StoreError:
            pass  # used now all the same; asked for again next time
        return NewPaperCount(outcome.total, as_of.date(), asked=True)

    def topic_fetched_at(self, name: str) -> datetime | None:
        """When a refresh last fetched this topic's arXiv query or categories in
        full (None: never, or a topic of feeds only, whose answers are kept by
        feed rather than by topic)."""
        entry = self.registry.get(name)
        return self.fetch_state.answered_at(topic_answered_key(entry.signature)) if entry is not None else None

    def starred_arxiv_not_cached(self) -> list[str]:
        """The arXiv ids of starred papers the cache lacks (stars imported from
        another machine, say), which a refresh of the followed topics asks for.

        Finding them needs the library, slow to load for a large cache,
        which a refresh of 304s otherwise never loads: the answer is kept in
        STARS_CHECKED_FILE with the cache's generation and the stars it was
        found for, and taken from there while both are the same."""
        starred = {pid for pid in self.state.starred_ids() if split_arxiv_id(pid)}
        if not starred:
            return []  # the library need not be loaded
        stars = hashlib.blake2b("\n".join(sorted(starred)).encode(), digest_size=12).hexdigest()
        checked = self.data_dir / STARS_CHECKED_FILE
        if not self.library_loaded:
            try:
                kept = json.loads(checked.read_bytes())
                if kept["generation"] == self.cache.generation() and kept["stars"] == stars:
                    return [str(pid) for pid in kept["missing"]]
            except (OSError, ValueError, KeyError, TypeError):
                pass  # no record, or a damaged one: the library decides
        library = self.library
        missing = sorted(pid for pid in starred if pid not in library.pos)
        record = {"generation": self.known_generation, "stars": stars, "missing": missing}
        if record != self._stars_checked:
            try:
                atomic_write(checked, json.dumps(record).encode(), sync=False)
                self._stars_checked = record
            except StoreError:
                pass  # found again next time
        return missing


    async def refresh(
        self,
        names: Sequence[str] | None = None,
        *,
        force: bool = False,
        on_landed: Callable[[], None] | None = None,
        now: datetime | None = None,
    ) -> RefreshReport:
        """Fetch the named topics (default: the followed ones, and the starred
        arXiv papers the cache lacks) and store what comes.

        A long refresh stores what it has every PERIODIC_COMMIT_S; `on_landed`
        is called after each such step that added or changed papers, so a
        reader can show them before the last source has answered. The
        engine's subscribers are told as each source ends (RefreshProgress,
        SourceFailed), as an arXiv query pages and when a wait worth telling
        begins or ends (RefreshActivity), and of every step stored
        (PapersStored)."""
        from feedtui.core.fetch import plan_refresh

        now = now or self.clock()
        report = RefreshReport(started=now)
        entries = [self.topic(n) for n in names] if names else self.followed()
        if self.demo:
            report.sources.append(
                SourceReport(url="", label="demo", ok=True, skipped="demo mode uses bundled papers; nothing is fetched")
            )
            report.finished = utcnow()
            return report
        plans, skipped = plan_refresh(
            entries,
            settings=self.settings,
            fetch_state=self.fetch_state,
            now=now,
            force=force,
            starred_not_cached=self.starred_arxiv_not_cached() if not names else (),
        )
        report.sources.extend(skipped)
        run = RefreshRun(self, plans, report, now, on_landed=on_landed)
        try:
            outcomes = await run.run()
        finally:
            if run.outline is not None and run.outline.loaded:
                self._stored_outline = run.outline
        if run.new_count and self.library_loaded:
            # What was stored made a new cache generation: found again now,
            # from the library storing loaded, the next refresh need not load it.
            self.starred_arxiv_not_cached()
        for outcome in outcomes:
            if outcome.plan.kind != "total":
                report.sources.append(outcome.report)
        recent = self.fetch_state.recent_count(now)
        if note := _count_failed(outcomes, report, recent[1] if recent else None):
            report.notes.append(note)
        report.finished = utcnow()
        if not report.offline:
            # An offline refresh is not one: the status line does not claim it
            # and the next check tries again. Otherwise every topic asked for
            # is done for refresh_age_hours, a topic whose own feed failed too
            # (retried then, not at every check; its failure was reported).
            self.note_refreshed([entry for entry in entries if not entry.error], now)
            self.last_refresh = report.finished
            self.state.set_pref("last_refresh", report.finished.isoformat(timespec="seconds"))
        return report

    async def _store_part(
        self, part: list[tuple[SourceOutcome, list[Paper]]], now: datetime, outline: CacheOutline | None = None
    ) -> StoreOutcome | None:
        """Store a part of the fetched papers and tag them (the papers first:
        see PaperCache.store); None when they could not be saved, which their
        sources' reports then say. Given an `outline`, a library not loaded
        is not loaded for it: the outline is all the store needs."""
        papers = [p for _, chunk in part for p in chunk]
        outcomes = [outcome for outcome, _ in part]
        if not papers:
            return StoreOutcome()
        # Parsing and compiling the topics' queries (slow the first time)
        # stays off the event loop, which may be the reader's; done first, so
        # that what is read of the library below is read without a pause.
        matchers = await asyncio.to_thread(build_matchers, self.registry.tagged())
        library = self._library if outline is not None else self.library
        if library is None:
            assert outline is not None
            if not outline.loaded:
                self.problems.messages.extend(
                    await asyncio.to_thread(outline.read, self.cache, self.tags, self.registry.tagged())
                )
            known: dict = {}
            weeks: dict[str, str] | None = outline.weeks
            stale = set(outline.stale)
            members = None
        else:
            known = {p.id: library.rows[library.pos[p.id]] for p in papers if p.id in library.pos}
            weeks = None
            stale = set(self._stale_topics)
            members = {
                m.name: {library.ids[i] for i in library.raw_positions(m.name)} for m in matchers if m.name not in stale
            }

        # Tags computed beside the parser hold for papers new to the cache that
        # arrived once in this batch: what was stored is what was tagged.
        seen = Counter(p.id for p in papers)
        ready = {pid: tags for o in outcomes for pid, tags in o.tags.items() if seen[pid] == 1}
        # Likewise their normalised texts, for the match files (checked per
        # Paper object), taken from the outcomes: the store lets go of each
        # once its week's match rows are made (see MatchRows).
        prepared = {p.id: (p, o.texts.pop(p.id)) for o, chunk in part for p in chunk if p.id in o.texts}

        found: dict[str, set[str]] = {m.name: set() for m in matchers}

        def save_tags(stored: StoreOutcome) -> None:
            # Called by the cache once the papers are on disk and before their
            # cards are, so that a crash never leaves a card without its tags.
            universe = set(stored.papers)
            new = set(stored.new)
            retag = [p for pid, p in stored.papers.items() if pid not in new or pid not in ready]
            for name, ids in tag_papers(retag, matchers).items():
                found[name] |= ids
            fetched_by = Tagger(matchers)
            for pid in universe - {p.id for p in retag}:
                for name in (*ready[pid], *fetched_by.fetched_for(stored.papers[pid].fetched_for)):
                    if name in found:
                        found[name].add(pid)
            self.tags.update(
                TagUpdate(
                    m.name,
                    m.signature,
                    found.get(m.name, set()),
                    universe,
                    known=None if m.name in stale else _known(members, m.name, universe) | found.get(m.name, set()),
                )
                for m in matchers
            )

        def write():
            stored = self.cache.store(
                papers, known, now, before_index=save_tags, match_rows=MatchRows(prepared), weeks=weeks
            )
            give_back_freed_memory()  # the weeks the store read, dropped now
            if self.vectors_wanted():
                self._note_stored(stored.papers.values())
            return stored, found, set(stored.papers)

        try:
            stored, found, universe = await asyncio.to_thread(write)
        except StoreError as error:
            for outcome in outcomes:
                if outcome.report.ok:
                    outcome.report.ok = False
                    outcome.report.error = f"fetched, but could not be saved: {error}"
            return None
        if library is None:
            outline.stored(stored.rows)  # type: ignore[union-attr]
            return stored
        library.upsert_rows(stored.rows)
        library.update_tags(universe, found)
        self._note_own_generation(stored.generation, library)
        return stored

    def _note_own_generation(self, generation: int, library: Library) -> None:
        """This process's store made `generation`, and `library` holds its
        papers. Known from then on only if every generation before it was
        (and `library` is still the one shown): what another process stored
        between must not pass for loaded."""
        if generation and library is self._library and generation - 1 == self.known_generation:
            self.known_generation = generation

    def _save_answers(self, outcomes: list, now: datetime) -> None:
        """Validators, "answered today" and daily totals of the sources that
        answered. Raises StoreError."""
        validators = {}
        answered = {}
        totals = {}
        for outcome in outcomes:
            if outcome.report.ok and not outcome.page:
                validators.update(outcome.validators)
                for key in outcome.plan.answers:
                    if outcome.plan.kind == "total":
                        if outcome.total is not None:
                            totals[key] = (outcome.total, now.date())
                    else:
                        answered[key] = now
        self.fetch_state.save(validators=validators, answered=answered, totals=totals)

    def _recover_lost_papers(self) -> str:
        """A week of cached papers turned out damaged while storing and was set
        aside: forget the validators (so the next refresh fetches them again
        instead of getting 304s) and reload the library without them."""
        self.cache.lost_papers = False
        self.fetch_state.save(forget_validators=True)
        self.load_library()
        return (
            "some cached papers were damaged and set aside (kept as .damaged files in the cache); "
            "the next refresh fetches them again"
        )



def _known(members: dict[str, set[str]] | None, name: str, universe: set[str]) -> set[str]:
    """A topic's members outside what a store examined, as the library
    holds them; without the library, none: they matter only to a topic the
    tags file has no entry for, and the library's come from that file."""
    return members[name] - universe if members is not None else set()


def _chain_parts(spool: Spool, outcomes: Sequence[SourceOutcome], size: int) -> Iterator[Part]:
    """The spooled papers a week at a time (in parts of at most SPOOL_PART,
    see core/spool.py), then the outcomes' in hand."""
    yield from spool.parts(min(size, SPOOL_PART))
    yield from _parts(outcomes, size)


def _parts(outcomes: Sequence[SourceOutcome], size: int) -> Iterator[list[tuple[SourceOutcome, list[Paper]]]]:
    """The outcomes' papers to store in parts of at most `size` papers, each
    with the outcome it came from (a large source spans several parts)."""
    part: list[tuple[SourceOutcome, list[Paper]]] = []
    room = size
    for outcome in outcomes:
        papers = outcome.to_store
        while papers:
            taken, papers = papers[:room], papers[room:]
            part.append((outcome, taken))
            room -= len(taken)
            if room == 0:
                yield part
                part, room = [], size
    if part:
        yield part


def _count_failed(outcomes: list, report: RefreshReport, earlier: date | None) -> str:
    """What to say of the day's count of new arXiv papers failing: nothing when
    a topic's source failed the same way (offline, say: that failure is told),
    else a note of what the topics' shares stay of until it comes: the count
    of the `earlier` day, or the papers in the cache when there is none."""
    told = {source.error for source in report.failed}
    for outcome in outcomes:
        if outcome.plan.kind == "total" and not outcome.report.ok and outcome.report.error not in told:
            stay = f"stay of its count of {earlier:%b} {earlier.day}" if earlier else "are of the papers in your cache"
            return f"arXiv's count of all new papers could not be fetched ({outcome.report.error}); shares {stay} until it is"
    return ""

