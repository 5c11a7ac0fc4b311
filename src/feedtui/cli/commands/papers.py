"""The paper commands: `papers` (a topic's list, or the reading list's) and
the marks: `read`, `unread`, `star`, `unstar`."""

from __future__ import annotations

import sys

from feedtui.cli.listing import paper_json, print_json
from feedtui.cli.status import EXIT_FAILED, EXIT_OK, UsageError, confirm
from feedtui.model import shown_title


def cmd_papers(engine, args) -> int:
    from feedtui.topics.names import is_reading_list_name

    if args.limit is not None and args.limit < 0:
        raise UsageError("--limit must be 0 or more")
    if is_reading_list_name(args.topic):  # no topic can have its name
        positions = reading_list_positions(engine)
        tell_starred_not_cached(engine)
        if args.unread:
            positions = [i for i in positions if not engine.library.is_read(i)]
    else:
        positions = engine.topic_positions(engine.topic(args.topic).name, unread_only=args.unread)
    if args.limit is not None:
        positions = positions[: args.limit]
    papers = engine.papers(positions)
    library = engine.library
    tags = {pid: library.tags_of(library.pos[pid]) for pid in (p.id for p in papers)}
    if args.json:
        print_json([paper_json(engine, p, tags[p.id]) for p in papers])
        return EXIT_OK
    # Columns as wide as what they hold: a feed item's id takes 20, physics.comp-ph 15.
    width = max([16, *(len(paper.versioned_id) for paper in papers)])
    category_width = max([10, *(len(paper.primary_category) for paper in papers)])
    for paper in papers:
        mark = " " if engine.is_read(paper.id) else "●"
        star = "★" if engine.is_starred(paper.id) else " "
        category = f"{paper.primary_category:<{category_width}}"
        print(f"{mark}{star} {paper.versioned_id:<{width}} {paper.published:%Y-%m-%d} {category} {shown_title(paper.readable_title)}")
    return EXIT_OK


def reading_list_positions(engine) -> list[int]:
    """The reading list's papers in the cache, newest first, as the reader lists them."""
    from feedtui.ui.presenter import starred_positions

    return starred_positions(engine.library, engine.starred_view())


def tell_starred_not_cached(engine) -> None:
    from feedtui.ui.presenter import not_cached_note, starred_not_cached

    missing = starred_not_cached(engine.library, engine.starred_view())
    if missing:
        shown = ", ".join(missing[:10]) + (", …" if len(missing) > 10 else "")
        print(f"feedtui: {not_cached_note(missing, 'feedtui refresh', shown)}", file=sys.stderr)


def only_paper_ids(texts: list[str]) -> None:
    """Raise a UsageError naming what is not a paper id at all (`1234`, ""):
    "not in the cache (refresh first)" would send the user the wrong way."""
    from feedtui.sources.parse.ids import is_paper_id

    if wrong := [text for text in texts if not is_paper_id(text)]:
        named = ", ".join(repr(text) for text in dict.fromkeys(wrong))
        raise UsageError(
            f"not a paper id: {named} (an arXiv id such as 2609.01234, 2609.01234v2 or arXiv:2609.01234, "
            "or a web: id as feedtui papers lists it)"
        )


def marks(action: str):
    def handler(engine, args) -> int:
        only_paper_ids(args.ids)
        known, unknown = engine.resolve_ids(args.ids)
        for raw in unknown:
            print(f"feedtui: {raw}: not in the cache (refresh first, or check the id)", file=sys.stderr)
        count = len(getattr(engine, action)(known))
        confirm(f"{action.replace('_', ' ')}: {count:,} changed, {len(known) - count:,} already so")
        return EXIT_OK if not unknown else EXIT_FAILED

    return handler
