"""`feedtui refresh`: fetch the followed topics (or those named), then say
what came, what failed and what was skipped."""

from __future__ import annotations

import asyncio
import sys
from urllib.parse import unquote_plus, urlsplit

from feedtui.cli.progress import RefreshProgressView, refresh_summary, say_what_was_kept, ticking
from feedtui.cli.status import EXIT_FAILED, EXIT_OK, settle
from feedtui.core.events import RefreshActivity, RefreshProgress
from feedtui.sources.parse.text import cut
from feedtui.text.sanitize import clean_line

# How much of a failed source's query string its line shows: an arXiv query
# for several topics runs to a thousand characters, and the topics are named
# in the line already.
QUERY_SHOWN = 60


def cmd_refresh(engine, args) -> int:
    names = [engine.topic(n).name for n in args.topics]
    if not names and not engine.followed() and not engine.demo and not engine.starred_arxiv_not_cached():
        print("feedtui: no followed topics to refresh; follow one first (feedtui topics lists them)", file=sys.stderr)
        return EXIT_OK
    view = RefreshProgressView(sys.stderr.isatty())
    # Each source's end comes as the engine's RefreshProgress event, what an
    # arXiv query is doing meanwhile (paging, waiting) as RefreshActivity.
    unsubscribe = engine.subscribe(view.progress, RefreshProgress)
    unsubscribe_activity = engine.subscribe(view.activity, RefreshActivity)
    try:
        refresh = engine.refresh(names or None, force=args.force)
        report = asyncio.run(_stopped_as_by_ctrl_c(ticking(refresh, view.count_down) if view.interactive else refresh))
    except KeyboardInterrupt:
        say_what_was_kept(engine.stopped_refresh, view.interactive)
        raise
    finally:
        unsubscribe()
        unsubscribe_activity()
    pruned = engine.after_refresh()
    # Ask, Related and For you by meaning: the new papers' vectors (mostly
    # computed as the feeds were parsed), written with the cache.
    if engine.vectors_wanted():
        engine.compute_vectors()
    status = settle(EXIT_OK if report.ok else EXIT_FAILED)
    if pruned:
        print(f"feedtui: pruned the {pruned:,} oldest unstarred papers (cache_limit is {engine.settings.cache_limit:,})", file=sys.stderr)
    view.clear()
    for source in report.sources:
        if not source.ok:
            url = clean_line(source.url, html_allowed=False)
            shown = short_url(url)
            # A feed's label shows its URL already: "Lab blog (https://…)".
            where = f" ({shown})" if url and f"({url})" not in source.label else ""
            print(f"feedtui: failed: {source.label}{where}: {source.error}", file=sys.stderr)
        elif source.skipped:
            print(f"feedtui: skipped {source.label}: {source.skipped}", file=sys.stderr)
        for note in (source.warning, *source.reading_notes) if source.ok else ():
            if note:
                print(f"feedtui: note: {source.label}: {note}", file=sys.stderr)
    for note in report.notes:
        print(f"feedtui: {note}", file=sys.stderr)
    print(refresh_summary(report), file=sys.stderr)
    return status


async def _stopped_as_by_ctrl_c(work):
    """`work`, which a quit signal stops as Ctrl-C does even when Ctrl-C is
    ignored (see quit_signals.stoppable): stopped either way, it ends in
    KeyboardInterrupt, once what it fetched is stored."""
    from feedtui.quit_signals import stoppable

    task = asyncio.current_task()
    with stoppable(task):
        try:
            return await work
        except asyncio.CancelledError:
            if task is not None and task.cancelling():
                raise KeyboardInterrupt from None
            raise


def short_url(url: str) -> str:
    """Host and path whole, the query (decoded) cut to QUERY_SHOWN characters:
    `http://export.arxiv.org/api/query?search_query=(abs:"widget" OR …`."""
    parts = urlsplit(url)
    if not parts.query:
        return url
    query = clean_line(unquote_plus(parts.query), html_allowed=False)
    return f"{parts.scheme}://{parts.netloc}{parts.path}?{cut(query, QUERY_SHOWN)}"
