"""The topic commands: `topics` (the list), `follow`, `unfollow`, and
`topic add / rm / restore / edit / show`."""

from __future__ import annotations

from datetime import datetime

from feedtui.cli.listing import print_json
from feedtui.cli.status import EXIT_OK, UsageError, confirm
from feedtui.model import UTC, TopicDefinition

AS_OF_YEARS = (1970, 9998)


def _parse_as_of(text: str | None) -> datetime | None:
    if not text:
        return None
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise UsageError(f"--as-of: not an ISO 8601 time: {text!r} (e.g. 2026-11-29T12:00:00Z)") from None
    moment = moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)
    if not AS_OF_YEARS[0] <= moment.year <= AS_OF_YEARS[1]:
        # The weeks counted back (and on) from it must be dates too.
        raise UsageError(f"--as-of: {text!r} is outside the years feedtui counts weeks in ({AS_OF_YEARS[0]} to {AS_OF_YEARS[1]})")
    return moment


def _count_for_shares(engine, as_of: datetime | None, entries) -> None:
    """For a past moment, arXiv's count of all new papers in its 28 days,
    asked for once and kept (a refresh only takes today's), so that arXiv
    topics' shares are of it; said on stderr, as is the cache's share taken
    instead when arXiv cannot be asked."""
    import asyncio
    import sys

    if as_of is None or as_of.date() >= engine.clock().date():
        return
    if all(entry.topic.definition.feeds for entry in entries):
        return  # feed topics' shares are of the cache whatever arXiv counts
    count = asyncio.run(engine.count_new_papers(as_of))
    end = count.day or as_of.date()
    window = f"the 28 days to {end:%b} {end.day}, {end.year}"
    if count.total is not None:
        print(f"feedtui: arXiv topics' shares are of arXiv's count of all new papers in {window}: {count.total:,}", file=sys.stderr)
    else:
        print(
            f"feedtui: arXiv's count of all new papers in {window} could not be fetched ({count.error}); "
            "shares are of the papers in your cache",
            file=sys.stderr,
        )


def cmd_topics(engine, args) -> int:
    if args.names:
        for name in sorted(engine.topic_names(), key=str.casefold):
            print(name)
        return EXIT_OK
    as_of = _parse_as_of(args.as_of)
    library = engine.library
    following = engine.is_following
    _count_for_shares(engine, as_of, engine.topics())
    momenta = engine.momenta(None, as_of)
    rows = sorted(((entry, momenta[entry.name]) for entry in engine.topics()), key=lambda r: r[0].name.casefold())
    if args.sort == "unread":
        rows.sort(key=lambda r: -library.unread_count(r[0].name))
    elif args.sort == "trending":
        from feedtui.topics.momentum import sort_trending

        rows = sort_trending((row, row[1]) for row in rows)  # as the sidebar ranks them
    elif args.sort == "followed":
        rows.sort(key=lambda r: not following(r[0].name))
    if args.json:
        out = [
            {
                "name": entry.name,
                "following": following(entry.name),
                "papers": len(library.topic_positions(entry.name)),
                "unread": library.unread_count(entry.name),
                "definition": entry.topic.definition.to_dict(),
                "description": entry.topic.description,
                "origin": entry.topic.origin,
                "momentum": momentum.to_json(),
                **({"error": entry.error} if entry.error else {}),
            }
            for entry, momentum in rows
        ]
        print_json(out)
        return EXIT_OK
    from rich.cells import cell_len

    # Padded to the columns the names take on a terminal (CJK and most emoji take two).
    width = max((cell_len(e.name) for e, _ in rows), default=10)
    for entry, momentum in rows:
        mark = "*" if following(entry.name) else " "
        name = entry.name + " " * (width - cell_len(entry.name))
        papers = len(library.topic_positions(entry.name))
        print(
            f"{mark} {name}  {papers:>6,} {'paper ' if papers == 1 else 'papers'}  {library.unread_count(entry.name):>6,} unread  "
            f"{momentum.last4:>5,} last 4 wk (prev {momentum.prev4:,})"
        )
    return EXIT_OK


def cmd_follow(engine, args) -> int:
    entry = engine.topic(args.topic)
    already = engine.is_following(entry.name)
    engine.follow(entry.name)
    confirm(f"already following {entry.name} (nothing changed)" if already else f"following {entry.name}")
    return EXIT_OK


def cmd_unfollow(engine, args) -> int:
    if orphan := engine.drop_orphaned_follow(args.topic):
        confirm(f"no longer following {orphan} (no topic is called that now)")
        return EXIT_OK
    entry = engine.topic(args.topic)
    following = engine.is_following(entry.name)
    engine.unfollow(entry.name)
    confirm(f"no longer following {entry.name}" if following else f"not following {entry.name} (nothing changed)")
    return EXIT_OK


def _check_categories(categories) -> None:
    from feedtui.topics.query import category_query

    for category in categories:
        try:
            category_query(category)
        except ValueError:
            raise UsageError(f"--category: {category!r} is not an arXiv category (e.g. cs.DC, hep-lat, or cs.* for all of cs)") from None


def cmd_topic_add(engine, args) -> int:
    from feedtui.core.topics import TopicNameTaken

    _check_categories(args.category)
    definition = TopicDefinition(query=args.query or "", categories=tuple(args.category), feeds=tuple(args.feed))
    if definition.is_empty:
        raise UsageError("a topic needs --query, --category or --feed")
    try:
        entry = engine.add_topic(args.name, definition, args.description)
    except TopicNameTaken as error:
        raise UsageError(f"{error}: feedtui topic edit '{error.taken}' changes it") from None
    engine.compute_tags([entry.name])  # written to disk; this process needs no library
    confirm(f"added {entry.name}: {entry.topic.definition.describe()}")
    return EXIT_OK


def cmd_topic_rm(engine, args) -> int:
    name = engine.topic(args.name).name
    followed = engine.is_following(name)
    copy_of = engine.config_copy_of(name)
    entry = engine.remove_topic(name)
    if copy_of:
        engine.compute_tags([entry.name])  # as its table defines it
        confirm(f"dropped your edited copy of {entry.name}: its [[topic]] table in {copy_of} defines it again")
        return EXIT_OK
    if engine.is_catalogue_topic(entry.name):
        back = ", followed" if followed else ""
        confirm(f"removed {entry.name} (feedtui topic restore '{entry.name}' brings it back{back})")
    else:
        confirm(f"removed {entry.name}" + (" and stopped following it" if followed else ""))
    return EXIT_OK


def cmd_topic_restore(engine, args) -> int:
    entry = engine.restore_topic(args.name)
    engine.compute_tags([entry.name])  # written to disk; this process needs no library
    followed = ", followed" if engine.is_following(entry.name) else ""
    confirm(f"restored {entry.name}{followed}: {entry.topic.definition.describe()}")
    return EXIT_OK


def _replacing(values: list[str] | None) -> tuple[str, ...] | None:
    """A repeated option of `topic edit` as the list that replaces the
    topic's (None when not given: kept). An empty value adds nothing, so
    `--feed ''` empties the list."""
    return None if values is None else tuple(value for value in values if value.strip())


def cmd_topic_edit(engine, args) -> int:
    changes = (args.query, args.category, args.feed, args.description)
    if all(value is None for value in (*changes, args.new_name)):
        raise UsageError("nothing to change: give --query, --category, --feed, --description and/or --name")
    categories, feeds = _replacing(args.category), _replacing(args.feed)
    _check_categories(categories or ())
    old = engine.topic(args.name).name
    entry = engine.edit_topic(
        old, query=args.query, description=args.description, categories=categories, feeds=feeds, new_name=args.new_name
    )
    engine.compute_tags([entry.name])
    if entry.name != old:
        confirm(f"renamed {old} to {entry.name}" + (", still followed" if engine.is_following(entry.name) else ""))
    if any(value is not None for value in changes):
        confirm(f"changed {entry.name}: {entry.topic.definition.describe()}")
    if note := engine.override_note(entry.name):
        confirm(note)
    return EXIT_OK


_SHARE_OF = {
    "arxiv": "arXiv's count of all new papers in 28 days, taken in the last week",
    "cache": "the new papers in your cache: feed topics, or no arXiv count taken in the last week",
}


def _sent_form(entry) -> str:
    """The search_query the arXiv API is asked for the topic, or "" when it
    is the query as written, or the topic is not fetched from the API."""
    if entry.api_query is None:
        return ""
    sent = entry.api_query.to_api()
    return "" if sent == entry.topic.definition.query.strip() else sent


def cmd_topic_show(engine, args) -> int:
    from feedtui.topics.momentum import render_text_chart

    entry = engine.topic(args.name)
    library = engine.library
    as_of = _parse_as_of(args.as_of)
    _count_for_shares(engine, as_of, [entry])
    momentum = engine.momentum(entry.name, as_of)
    following = "following" if engine.is_following(entry.name) else "not following"
    print(f"{entry.name}  ({following})")
    if entry.topic.description:
        print(entry.topic.description)
    print(f"definition: {entry.topic.definition.describe()}")
    if sent := _sent_form(entry):
        print(f"sent to arXiv as: {sent}")
    if copy_of := engine.config_copy_of(entry.name):
        print(
            f"(your edited copy, which overrides its [[topic]] table in {copy_of}: "
            f"feedtui topic rm '{entry.name}' drops the copy)"
        )
    if entry.error:
        print(f"error: {entry.error}")
    print(f"papers: {len(library.topic_positions(entry.name)):,}, unread: {library.unread_count(entry.name):,}")
    print()
    print(momentum.sentence)
    if momentum.share_of is not None:
        print(f"(share of {_SHARE_OF[momentum.share_of]})")
    print()
    for line in render_text_chart(momentum):
        print(line)
    return EXIT_OK
