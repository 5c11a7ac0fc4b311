"""Which papers an export names: `--starred`, `--topic T` or ids, the same
for every format (`export bibtex`, `ris`, `csljson`, `zotero`). What cannot
be had is said on stderr; the caller decides the exit status from it."""

from __future__ import annotations

import sys
from typing import NamedTuple

from feedtui.cli.commands.papers import only_paper_ids, reading_list_positions
from feedtui.cli.status import UsageError
from feedtui.model import Paper, split_arxiv_id

# How a starred arXiv paper the cache lacks comes back (see Engine.starred_arxiv_not_cached).
_STARRED_FETCH = "feedtui refresh fetches it"


class Chosen(NamedTuple):
    papers: list[Paper]
    # Whether some paper asked for is not in the cache (named on stderr).
    missing: bool


def chosen_papers(engine, args, command: str) -> Chosen:
    """The papers `args` name (`args.starred`, `args.topic`, `args.ids`), in
    the order the reader lists them; UsageError unless exactly one is given."""
    from feedtui.export.bibtex import SECONDHAND_NOTE
    from feedtui.topics.names import is_reading_list_name

    if sum((args.starred, args.topic is not None, bool(args.ids))) != 1:
        raise UsageError(f"{command}: give one of --starred, --topic T or paper ids")
    library = engine.library
    missing: list[str] = []
    reading_list = args.starred or (args.topic is not None and is_reading_list_name(args.topic))  # as `papers Starred`
    if args.topic is not None and not reading_list:
        positions = engine.topic_positions(engine.topic(args.topic).name)
    elif reading_list:
        positions = reading_list_positions(engine)
        missing = [
            f"{pid}: starred, but not in the cache ({_STARRED_FETCH if split_arxiv_id(pid) else 'refresh a topic it belongs to'})"
            for pid in sorted(engine.starred_ids())
            if pid not in library.pos
        ]
    else:
        only_paper_ids(args.ids)
        known, unknown = engine.resolve_ids(args.ids)
        positions = [library.pos[pid] for pid in dict.fromkeys(known)]
        missing = [f"{raw}: not in the cache (refresh first, or check the id)" for raw in unknown]
    for message in missing:
        print(f"feedtui: {message}", file=sys.stderr)
    papers = engine.papers(positions)
    for message in _versions_not_kept(args.ids, papers):
        print(f"feedtui: {message}", file=sys.stderr)
    for paper in papers:
        if paper.secondhand:
            print(f"feedtui: {paper.id}: {SECONDHAND_NOTE}", file=sys.stderr)
    if not papers and not missing:
        print("feedtui: no papers to export", file=sys.stderr)
    return Chosen(papers, bool(missing))


def _versions_not_kept(ids: list[str], papers: list[Paper]) -> list[str]:
    """A line for each id asked for with a version the cache does not keep
    (it keeps a paper's newest version only): the entry written is the kept
    version's, and one citing the version they read should know."""
    kept = {paper.id: paper.version for paper in papers}
    messages: dict[str, None] = {}
    for raw in ids:
        split = split_arxiv_id(raw)
        if split and split[1] is not None and split[0] in kept and split[1] != kept[split[0]]:
            messages.setdefault(f"{raw.strip()}: only v{kept[split[0]]} is kept; its entry is written")
    return list(messages)
