"""`feedtui export bibtex / ris / csljson / zotero / opml / json`: to stdout, or to a
file replaced whole (`zotero`: into Zotero, see export_zotero)."""

from __future__ import annotations

import sys

from feedtui.cli.commands.selection import Chosen, chosen_papers
from feedtui.cli.listing import json_text
from feedtui.cli.status import EXIT_FAILED, EXIT_OK, reader_left
from feedtui.output import takes_any_character

# How many of the topics `export opml` leaves out it names.
OPML_LEFT_OUT_SHOWN = 5


def cmd_export(engine, args) -> int:
    exporters = {
        "bibtex": _export_bibtex, "ris": _export_ris, "csljson": _export_csljson, "zotero": _export_zotero,
        "opml": _export_opml, "json": _export_json,
    }
    return exporters[args.export_format](engine, args)


def _export_bibtex(engine, args) -> int:
    from feedtui.export.bibtex import bibtex_entries

    chosen = chosen_papers(engine, args, "export bibtex")
    count = len(chosen.papers)
    return _write_chosen(chosen, bibtex_entries(chosen.papers), args.output, f"{count:,} BibTeX entr{'y' if count == 1 else 'ies'}")


def _export_ris(engine, args) -> int:
    from feedtui.export.ris import ris_records

    chosen = chosen_papers(engine, args, "export ris")
    count = len(chosen.papers)
    return _write_chosen(chosen, ris_records(chosen.papers), args.output, f"{count:,} RIS record{'' if count == 1 else 's'}")


def _export_csljson(engine, args) -> int:
    from feedtui.export.csljson import csl_json

    chosen = chosen_papers(engine, args, "export csljson")
    count = len(chosen.papers)
    return _write_chosen(chosen, csl_json(chosen.papers), args.output, f"{count:,} CSL-JSON item{'' if count == 1 else 's'}")


def _export_zotero(engine, args) -> int:
    from feedtui.cli.commands.export_zotero import export_zotero

    return export_zotero(engine, args)


def _write_chosen(chosen: Chosen, text: str, output: str | None, what: str) -> int:
    """Write what was chosen; exit 1 too when a paper asked for is missing, or none was found."""
    status = _write_output(text, output, what)
    return EXIT_FAILED if status != EXIT_OK or chosen.missing or not chosen.papers else EXIT_OK


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
