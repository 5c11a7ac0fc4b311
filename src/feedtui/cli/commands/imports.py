"""`feedtui import opml / json`: add another reader's feeds as topics (the
merge rules are core.opml_merge's), or merge a state from `feedtui export json`.
Importing adds and merges; it never removes or overwrites what is here."""

from __future__ import annotations

import json
import sys

from feedtui.cli.status import EXIT_FAILED, EXIT_OK, confirm
from feedtui.model import TopicDefinition


def cmd_import(engine, args) -> int:
    importers = {"opml": _import_opml, "json": _import_json}
    return importers[args.import_format](engine, args)


def _read_input(name: str) -> tuple[bytes | None, str]:
    """(the bytes, a name for messages); None after telling the user why not."""
    from pathlib import Path

    from feedtui.core.files import describe_os_error

    if name == "-":
        return sys.stdin.buffer.read(), "<stdin>"
    path = Path(name).expanduser()
    try:
        return path.read_bytes(), str(path)
    except FileNotFoundError:
        print(f"feedtui: {path}: no such file", file=sys.stderr)
    except IsADirectoryError:
        print(f"feedtui: {path}: is a directory, not a file", file=sys.stderr)
    except OSError as error:
        print(f"feedtui: {path}: cannot read it: {describe_os_error(error)}", file=sys.stderr)
    return None, str(path)


def _import_opml(engine, args) -> int:
    from feedtui.core.opml_merge import AddAs, AlreadyHere, Holder, MergeInto, place_topic
    from feedtui.export.opml import OpmlError, import_opml

    data, source = _read_input(args.file)
    if data is None:
        return EXIT_FAILED
    try:
        result = import_opml(data, source)
    except OpmlError as error:
        print(f"feedtui: {error}", file=sys.stderr)
        return EXIT_FAILED
    for warning in result.warnings:
        print(f"feedtui: {warning}", file=sys.stderr)

    def holder_of(name: str) -> Holder | None:
        """The topic, or the reading list, that has this name but for case."""
        taken = engine.name_taken(engine.topic_name(name))
        if not taken:
            return None
        existing = engine.topic_entry(taken)
        return Holder(taken, existing.topic.definition.feeds if existing is not None else None)

    added: list[str] = []
    merged: list[str] = []
    already = skipped = 0
    with engine.adding_topics():
        for topic in result.topics:
            try:
                placement = place_topic(topic.name, topic.definition.feeds, holder_of)
                if isinstance(placement, AlreadyHere):
                    already += 1
                    continue
                if isinstance(placement, MergeInto):
                    existing = engine.topic_entry(placement.name)
                    current = existing.topic.definition
                    definition = TopicDefinition(query=current.query, categories=current.categories, feeds=placement.feeds)
                    engine.add_topic(existing.name, definition, existing.topic.description, replace=True)
                    merged.append(existing.name)
                    confirm(f"merged into {existing.name}: {placement.added} more feed(s)")
                    continue
                assert isinstance(placement, AddAs)
                entry = engine.add_topic(placement.name, topic.definition, topic.description)
                added.append(entry.name)
                renamed = ""
                if (holder := placement.taken_by) is not None:
                    if holder.feeds is None:
                        words = "the reading list"
                    else:
                        words = "a topic without feeds" if holder.name == topic.name else f"{holder.name}, a topic without feeds"
                    renamed = f" (the name '{topic.name}' is taken by {words})"
                confirm(f"added {entry.name}{renamed}: {topic.definition.describe()}")
            except ValueError as error:
                skipped += 1
                print(f"feedtui: {source}: skipped topic '{topic.name}': {error}", file=sys.stderr)
    if args.follow:
        for name in added + merged:
            engine.follow(name)
    if added or merged:
        engine.retag(added + merged)
    duplicates = f"; {result.duplicates} duplicate feed(s) merged" if result.duplicates else ""
    not_feeds = f"; {result.skipped} outline(s) that are not http(s) feeds skipped" if result.skipped else ""
    confirm(
        f"imported {source}: {len(added)} topic(s) added, {len(merged)} merged into existing topics, "
        f"{already} already here, {skipped} topic(s) skipped{duplicates}{not_feeds}"
    )
    return EXIT_FAILED if skipped else EXIT_OK


def _import_json(engine, args) -> int:
    from feedtui.export.state_json import StateImportError, import_state

    data, source = _read_input(args.file)
    if data is None:
        return EXIT_FAILED
    if not data.strip():
        print(f"feedtui: {source}: the file is empty (expected JSON from `feedtui export json`)", file=sys.stderr)
        return EXIT_FAILED
    try:
        document = json.loads(data)
    except UnicodeDecodeError:
        print(f"feedtui: {source}: not a text file (expected JSON from `feedtui export json`)", file=sys.stderr)
        return EXIT_FAILED
    except json.JSONDecodeError as error:
        print(f"feedtui: {source}: not JSON ({error.msg} at line {error.lineno}, column {error.colno})", file=sys.stderr)
        return EXIT_FAILED
    try:
        summary = import_state(engine, document, source=source)
    except StateImportError as error:
        print(f"feedtui: {error}", file=sys.stderr)
        return EXIT_FAILED
    if summary.topics_added:
        engine.retag(summary.topics_added)
    confirm(f"imported {source}:")
    for line in summary.lines():
        confirm(f"  {line}")
    return EXIT_FAILED if summary.skipped else EXIT_OK
