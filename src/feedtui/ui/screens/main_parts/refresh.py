"""The refresh lifecycle: when one starts, what it says while it runs, and
what the reader catches up with when it (or another feedtui's) has stored."""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from datetime import datetime
from functools import partial
from typing import TYPE_CHECKING

from textual.worker import Worker, WorkerCancelled, WorkerFailed

from feedtui.core.events import EngineEvent, RefreshActivity, RefreshProgress
from feedtui.ui.messages import RefreshActivityChanged, RefreshAdvanced
from feedtui.ui.presenter import VIRTUAL_VIEWS
from feedtui.ui.widgets.paper_list import PaperList, one_line_safe
from feedtui.ui.widgets.status_line import StatusLine

if TYPE_CHECKING:
    from textual.screen import Screen

    from feedtui.core.fetch import Activity

# A query's name in the status line's "refreshing… Name: 300 of ~1,200 papers", cut to fit 80 columns.
ACTIVITY_LABEL_WIDTH = 18
# How long quitting waits for a refresh to store what it has fetched.
STOP_REFRESH_S = 10.0
REFRESH_RUNNING = "A refresh is running; what it fetches shows as it is stored"


class Refresher:
    """Owns the refresh under way (one at a time), the topics queued behind
    it, the automatic refresh's clock, the retag and reload workers, and the
    status line that tells of them."""

    # How often an open app looks whether the followed topics are due, and
    # how long it waits after an automatic refresh that reached no source.
    AUTO_REFRESH_CHECK_S = 300.0
    AUTO_REFRESH_RETRY_S = 1800.0

    def __init__(self, screen: Screen) -> None:
        self.screen = screen
        self.engine = screen.engine
        self.refreshing = False
        # The topics the refresh under way fetches (None: every one due).
        self._refresh_names: list[str] | None = None
        # What the refresh under way is at, as the status line says it.
        self._refresh_activity: Activity = None
        self.auto_refreshed_at = float("-inf")
        self.refresh_failed = ""
        # When the refresh that failed ended: a refresh another feedtui made
        # since then (cron's) is the last word, and the badge goes.
        self._refresh_failed_at: datetime | None = None
        # Topics followed while a refresh ran, refreshed once it has ended.
        self.queued: dict[str, None] = {}
        self._refresh_job: Worker | None = None
        # Sources of the refresh under way failing the same way (a server
        # down takes all its feeds with it), by error: the first is told at
        # once, the others in one notification at the end that names two of
        # them and counts the rest.
        self._failed_alike: dict[str, list[str]] = {}

    def fetching(self, name: str) -> bool:
        """Whether the refresh under way fetches this topic."""
        return self.refreshing and (self._refresh_names is None or name in self._refresh_names)

    def start_clock(self) -> None:
        """The automatic refresh: now if due, and every AUTO_REFRESH_CHECK_S."""
        self.screen.set_interval(self.AUTO_REFRESH_CHECK_S, self.screen.every_few_minutes)

    def when_stale(self) -> None:
        """At start and every AUTO_REFRESH_CHECK_S after: the followed topics
        not refreshed within refresh_age_hours (each topic on its own: one
        followed since the last refresh, never fetched, is due) are refreshed.
        After an attempt that changed nothing (every source failed: offline,
        say) the next one waits AUTO_REFRESH_RETRY_S rather than failing again
        at every check: the wait starts with each attempt, and a refresh that
        reaches a source (this one, or r) lifts it."""
        engine = self.engine
        if not engine.settings.auto_refresh or engine.demo or self.busy:
            return
        due = engine.stale_followed()
        if not due:
            return
        if time.monotonic() - self.auto_refreshed_at < self.AUTO_REFRESH_RETRY_S:
            return
        self.auto_refreshed_at = time.monotonic()
        self.refresh_topics(due)

    def refresh_topic(self, name: str | None) -> None:
        if self.busy:
            # Starting another would cancel the one running (all followed
            # topics, perhaps), which would then count as done.
            self.screen.notify(REFRESH_RUNNING, markup=False)
        elif name and name not in VIRTUAL_VIEWS:
            self.refresh_topics([name], force=True)

    def refresh_all(self) -> None:
        if not self.engine.followed() and not self.engine.starred_arxiv_not_cached():
            self.screen.notify("Follow a topic first (f), then R refreshes everything you follow", markup=False)
            return
        if self.busy:
            self.screen.notify(REFRESH_RUNNING, markup=False)
            return
        self.refresh_topics(None)

    def soon(self, names: list[str]) -> None:
        """Refresh these topics now, or once the refresh under way has ended:
        starting one would cancel that (all followed topics, perhaps), and what
        it had not fetched yet would wait for the next automatic refresh."""
        if self.busy:
            self.queued.update(dict.fromkeys(names))
        else:
            self.refresh_topics(names)

    def _refresh_queued(self) -> None:
        """The topics followed during the last refresh, those still followed."""
        if not self.queued:
            return
        if self.busy:
            self.screen.set_timer(0.1, self._refresh_queued)
            return
        engine = self.engine
        names = [name for name in self.queued if engine.has_topic(name) and engine.is_following(name)]
        self.queued.clear()
        if names:
            self.refresh_topics(names)

    @property
    def busy(self) -> bool:
        """A refresh started and not ended: `refreshing` is set only once its
        worker runs, and starting another before then would cancel it."""
        return self.refreshing or (self._refresh_job is not None and not self._refresh_job.is_finished)

    async def stop(self, timeout: float = STOP_REFRESH_S) -> None:
        """End a refresh under way, once what it has fetched is stored (the
        engine stores it when stopped), waiting at most `timeout` seconds."""
        job = self._refresh_job
        if job is None or job.is_finished:
            return
        job.cancel()
        try:
            await asyncio.wait_for(job.wait(), timeout)
        except (WorkerCancelled, WorkerFailed, TimeoutError):
            pass

    def refresh_topics(self, names: list[str] | None, force: bool = False) -> None:
        """Start a refresh; one not ended is cancelled (callers ask `busy`)."""
        self._refresh_job = self.screen.run_worker(
            partial(self._refresh_topics, names, force), group="refresh", exclusive=True
        )

    async def _refresh_topics(self, names: list[str] | None, force: bool) -> None:
        if self.engine.demo:
            self.screen.notify("Demo mode: the bundled papers are all there is; nothing is fetched", markup=False)
            return
        try:
            await self._refresh(names, force)
        finally:
            # The topics queued meanwhile start once this worker has ended
            # (starting them before would cancel it): _refresh_queued waits.
            self.screen.call_later(self._refresh_queued)

    async def _refresh(self, names: list[str] | None, force: bool) -> None:
        screen, engine = self.screen, self.engine
        status = screen.query_one(StatusLine)
        self.refreshing = True
        self._refresh_names = names
        status.start_progress(1)
        self._refresh_activity = None
        self.show_refreshing()
        # A wait told in the status line counts down.
        countdown = screen.set_interval(1.0, self._count_down_wait)
        if screen.current and not screen.asking.question:
            # An empty topic being fetched says so, not "press r to fetch".
            view = screen.topic_view
            screen.query_one(PaperList).empty_message = view.empty_message(screen.current, view.list_total)

        failed_alike = self._failed_alike = {}

        def tell_failure(label: str, error: str) -> None:
            if error not in failed_alike:
                screen.notify(f"{label}: {error}", severity="error", timeout=10, markup=False)
            failed_alike.setdefault(error, []).append(label)

        unsubscribe = engine.subscribe(self._engine_told, RefreshProgress, RefreshActivity)
        try:
            report = await engine.refresh(names, force=force, on_landed=self._landed)
        finally:
            unsubscribe()
            countdown.stop()
            self.refreshing = False
            status.stop_progress()
        # Sources fetched but whose papers could not be stored (a full disk) fail
        # after their progress said they were fetched: the failures it did not tell.
        untold = Counter(source.error for source in report.failed)
        untold.subtract({error: len(labels) for error, labels in failed_alike.items()})
        for source in report.failed:
            if untold[source.error] > 0:
                untold[source.error] -= 1
                tell_failure(source.label, source.error)
        from feedtui.sources.parse.text import cut  # the parse path's LaTeX tables: not needed to start

        for error, labels in failed_alike.items():
            if others := labels[1:]:
                named = ", ".join(f"“{cut(one_line_safe(label), 50)}”" for label in others[:2])
                rest = len(others) - 2
                who = f"{named} and {rest} more source{'s' if rest != 1 else ''}" if rest > 0 else named
                screen.notify(f"{who} failed the same way: {error}", severity="error", timeout=10, markup=False)
        for note in report.notes:
            screen.notify(note, severity="warning", timeout=12, markup=False)
        for source in report.sources:  # a result cap reached, say (how a feed was read is the CLI's)
            if source.ok and source.warning:
                screen.notify(f"{source.label}: {source.warning}", severity="warning", timeout=12, markup=False)
        failed = report.failed
        # Counted as the notifications name them: by topic ("2 topics (A, B):
        # could not resolve host" is one arXiv query, two topics not refreshed).
        topics = report.failed_topics
        failures = f"{len(topics)} topic{'s' if len(topics) != 1 else ''} not refreshed"
        # Not "offline": a 404 from a server that is up fails the same way.
        self.refresh_failed = failures if report.offline else ""
        self._refresh_failed_at = report.finished if report.offline else None
        if not report.offline:
            # A source answered: the next automatic refresh is due when the
            # topics are (when_stale), not after AUTO_REFRESH_RETRY_S.
            self.auto_refreshed_at = float("-inf")
        # Tags are made complete by this reader's own retag worker (catch_up).
        if pruned := await asyncio.to_thread(engine.after_refresh, retag=False):
            screen.notify(f"Pruned the {pruned:,} oldest unstarred papers to stay within cache_limit", markup=False)
        self.catch_up()
        if report.new_papers or report.updated_papers:
            screen.discover.compute_vectors()
        summary = f"{report.new_papers:,} new paper{'s' if report.new_papers != 1 else ''}"
        if report.updated_papers:
            summary += f", {report.updated_papers:,} updated"
        if failed:
            summary += f"; {failures}"
        # A refresh that fetched nothing says so once, in its badge.
        self.show_status("" if report.offline else summary)
        # Papers another feedtui stored while this refresh ran (not looked
        # for meanwhile) are loaded now.
        self.check_cache_elsewhere()

    def _engine_told(self, event: EngineEvent) -> None:
        """The refresh's events, as the screen's messages. A failure is
        counted here, as it comes, so that the summary at the end knows every
        one; it is shown when its message is handled (`advanced`)."""
        if isinstance(event, RefreshActivity):
            self.screen.post_message(RefreshActivityChanged(event))
            return
        assert isinstance(event, RefreshProgress)
        tell = False
        if not event.ok:
            tell = event.error not in self._failed_alike
            self._failed_alike.setdefault(event.error, []).append(event.label)
        self.screen.post_message(RefreshAdvanced(event, tell))

    def advanced(self, message: RefreshAdvanced) -> None:
        """A source ended: the progress bar, and its failure if it is the first of its kind."""
        p = message.progress
        if self.refreshing:
            self.screen.query_one(StatusLine).advance(p.done, p.total)
        if message.tell:
            self.screen.notify(f"{p.label}: {p.error}", severity="error", timeout=10, markup=False)

    def activity_changed(self, message: RefreshActivityChanged) -> None:
        if self.refreshing:
            self._refresh_activity = message.event.activity
            self.show_refreshing()

    def _landed(self) -> None:
        """A step of a long refresh is stored: the views, and the count of papers cached, show it."""
        self.catch_up()
        self.show_refreshing()

    def show_refreshing(self) -> None:
        activity = self._refresh_activity.text(ACTIVITY_LABEL_WIDTH) if self._refresh_activity else ""
        self.screen.query_one(StatusLine).show_refreshing(activity, papers=len(self.engine.library))

    def _count_down_wait(self) -> None:
        from feedtui.core.fetch import Waiting  # loaded by the refresh under way; httpx stays out of the start

        if isinstance(self._refresh_activity, Waiting) and self.refreshing:
            self.show_refreshing()

    def show_status(self, note: str = "") -> None:
        last = self.last_refresh()
        failed_at = self._refresh_failed_at
        # Saved to the second: one within the failed refresh's second came after it.
        if self.refresh_failed and last and failed_at and last >= failed_at.replace(microsecond=0):
            self.refresh_failed = ""
        self.screen.query_one(StatusLine).show(
            last_refresh=last, failed=self.refresh_failed, note=note, papers=len(self.engine.library)
        )

    def last_refresh(self) -> datetime | None:
        """The last refresh that fetched something, this reader's or another
        feedtui's on the same data (saved with the state)."""
        own = self.engine.last_refresh
        try:
            saved = datetime.fromisoformat(self.engine.pref("last_refresh") or "")
        except ValueError:
            saved = None
        if saved is not None and saved.tzinfo is None:
            saved = None
        return max((t for t in (own, saved) if t is not None), default=None)

    # -- catching up -------------------------------------------------------------------

    def catch_up(self) -> None:
        """The sidebar and the list show the library as it is now (after a
        refresh, or a step of one, a retag or a reload), the cursor staying on
        the paper it is on now: the user may have moved while the work ran."""
        screen = self.screen
        screen.rebuild_sidebar()
        if screen.current:
            screen.show_topic(screen.current, keep=screen.topic_view.cursor_id())

    def retag(self, names: list[str]) -> None:
        self.screen.run_worker(partial(self._retag, names), group="retag", exclusive=True)

    async def _retag(self, names: list[str]) -> None:
        self.show_status(f"tagging {len(names)} topic{'s' if len(names) != 1 else ''}…")
        found = await asyncio.to_thread(self.engine.compute_tags, names)
        self.engine.apply_tags(found)
        self.catch_up()
        self.show_status()

    def check_cache_elsewhere(self) -> None:
        if not self.refreshing and self.engine.cache_changed_elsewhere():
            self.reload_library()

    def reload_library(self) -> None:
        self.screen.run_worker(self._reload_library, group="reload", exclusive=True)

    async def _reload_library(self) -> None:
        await asyncio.to_thread(self.engine.load_library)
        # Another feedtui may have stored new versions of papers read whole here.
        self.screen.topic_view.full_abstracts.clear()
        if self.engine.stale_topics:
            self.retag(self.engine.stale_topics)
        self.catch_up()
        self.show_status("new papers from another feedtui")
