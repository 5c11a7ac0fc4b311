"""`feedtui export bibtex / opml / json`: to stdout, or to a file replaced whole."""

from __future__ import annotations

import sys

from feedtui.cli.commands.papers import only_paper_ids, reading_list_positions
from feedtui.cli.listing import json_text
from feedtui.cli.status import EXIT_FAILED, EXIT_OK, UsageError, reader_left
from feedtui.model import Paper, split_arxiv_id
from feedtui.output import takes_any_character

# How a starred arXiv paper the cache lacks comes back (see Engine.starred_arxiv_not_cached).
_STARRED_FETCH = "feedtui refresh fetches it"

# How many of the topics `export opml` leaves out it names.
OPML_LEFT_OUT_SHOWN = 5


def cmd_export(engine, args) -> int:
    exporters = {"bibtex": _export_bibtex, "opml": _export_opml, "json": _export_json}
    return exporters[args.export_format](engine, args)


def _export_bibtex(engine, args) -> int:
    from feedtui.export.bibtex import SECONDHAND_NOTE, bibtex_entries
    from feedtui.topics.names import is_reading_list_name

    if sum((args.starred, args.topic is not None, bool(args.ids))) != 1:
        raise UsageError("export bibtex: give one of --starred, --topic T or paper ids")
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
    status = _write_output(bibtex_entries(papers), args.output, f"{len(papers):,} BibTeX entr{'y' if len(papers) == 1 else 'ies'}")
    return EXIT_FAILED if status != EXIT_OK or missing or not papers else EXIT_OK


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


def _export_opml(engine, args) -> int:
    from feedtui.export.opml import export_opml

    topics = [entry.topic for entry in engine.topics() if entry.topic.definition.feeds]
    if not topics:
        print("feedtui: no topic has feed URLs, so the OPML lists none (add one: feedtui topic add NAME --feed URL)", file=sys.stderr)
    # Your subscriptions that OPML cannot carry: a catalogue topic you do not follow is none.
    left_out = [
        entry.name
        for entry in engine.topics()
        if not entry.topic.definition.feeds and (entry.topic.origin != "catalogue" or engine.is_following(entry.name))
    ]
    if left_out:
        shown = ", ".join(left_out[:OPML_LEFT_OUT_SHOWN])
        if len(left_out) > OPML_LEFT_OUT_SHOWN:
            shown += f" and {len(left_out) - OPML_LEFT_OUT_SHOWN} more"
        print(
            f"feedtui: left out {len(left_out)} topic{'' if len(left_out) == 1 else 's'} without feed URLs "
            f"(arXiv queries and categories; `feedtui export json` keeps them for feedtui elsewhere): {shown}",
            file=sys.stderr,
        )
    return _write_output(export_opml(topics), args.output, f"{len(topics)} feed topic{'' if len(topics) == 1 else 's'}")


def _export_json(engine, args) -> int:
    from feedtui.export.state_json import export_state

    document = export_state(engine)
    follows, topics = len(document["follows"]), len(document["topics"])
    counts = (
        f"{follows:,} follow{'' if follows == 1 else 's'}, {len(document['read']):,} read, "
        f"{len(document['starred']):,} starred, {topics:,} topic{'' if topics == 1 else 's'}"
    )
    return _write_output(json_text(document) + "\n", args.output, f"your state ({counts})")


def _write_output(text: str, output: str | None, what: str) -> int:
    """stdout, or FILE: replaced whole (a crash never leaves half a file), or
    written into when it is a pipe, a terminal or a device."""
    from pathlib import Path

    from feedtui.core.files import StoreError, atomic_write

    if output is None or output == "-":
        try:
            if takes_any_character(sys.stdout):
                sys.stdout.write(text)
                sys.stdout.flush()
            else:  # the file's bytes, as -o FILE writes them, whatever the locale
                sys.stdout.write_bytes(text.encode("utf-8"))
        except BrokenPipeError:  # ids not found still make the export's exit 1
            return reader_left()
        return EXIT_OK
    # As `>` would: through a symlink to its target, into a pipe or a device
    # as it is; a new file gets what the umask allows, a file replaced keeps
    # its permissions (and is replaced whole: a crash never leaves half of it).
    path = Path(output).expanduser()
    data = text.encode("utf-8")
    try:
        if path.exists() and not path.is_file():  # /dev/stdout, a FIFO, a terminal
            return _write_into(path, data)
        path = path.resolve() if path.is_symlink() else path
        if path.is_file():
            atomic_write(path, data, mode=path.stat().st_mode & 0o7777, exact_mode=True)
        else:
            atomic_write(path, data, mode=0o666)
    except (OSError, RuntimeError) as error:  # RuntimeError: a symlink loop
        reason = error.strerror if isinstance(error, OSError) and error.strerror else str(error)
        print(f"feedtui: could not write {path}: {reason}", file=sys.stderr)
        return EXIT_FAILED
    except StoreError as error:
        print(f"feedtui: {error}", file=sys.stderr)
        return EXIT_FAILED
    print(f"wrote {what} to {path}", file=sys.stderr)
    return EXIT_OK


def _write_into(path, data: bytes) -> int:
    """Into a pipe, a device or a terminal as it is; a reader that leaves early is no failure."""
    try:
        with open(path, "wb") as stream:
            stream.write(data)
    except BrokenPipeError:
        pass
    return EXIT_OK
