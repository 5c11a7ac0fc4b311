"""The `feedtui` command: the TUI by default, and subcommands for scripts.

Exit codes: 0 success, also when the reader of stdout left early (`| head`);
1 when some sources failed (refresh) or nothing could be done; 2 for usage
errors (bad arguments, unknown topics, bad queries, the reader without a
terminal).
Global options (--data-dir, --config, --demo) go before or after the
subcommand.
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import sys
from collections.abc import Callable
from dataclasses import replace
from datetime import datetime

from feedtui import __version__
from feedtui.config import config_named_by, config_path, data_dir, default_config_text, load_config
from feedtui.launch_checks import data_dir_problem
from feedtui.memory import gc_paused
from feedtui.model import UTC, Paper, TopicDefinition, shown_title, split_arxiv_id
from feedtui.output import OutputError, discard_output, guarded_stdout, takes_any_character
from feedtui.text.sanitize import clean_line
from feedtui.topics.names import fit_name

EXIT_OK, EXIT_FAILED, EXIT_USAGE = 0, 1, 2
# How a starred arXiv paper the cache lacks comes back (see Engine.starred_arxiv_not_cached).
_STARRED_FETCH = "feedtui refresh fetches it"
# How many of the topics `export opml` leaves out it names.
OPML_LEFT_OUT_SHOWN = 5
# Without a terminal, `refresh` says nothing while it works, except a wait this long (cron's log says why it took so long).
LONG_WAIT_S = 30.0

EPILOG = """\
examples:
  feedtui --demo                          the reader, on bundled invented papers
  feedtui follow "Edge Inference"         follow a catalogue topic
  feedtui refresh                         fetch every followed topic
  feedtui papers "Edge Inference" --unread --json --limit 20
  feedtui read 2609.01234v2 2609.01240    mark papers read (versions ignored)
  feedtui topic add "Sparse Attention" --query 'abs:"sparse attention" AND cat:cs.LG'
  feedtui topic add "Lab blog" --feed https://example.org/feed.xml --query 'abs:robot*'
  feedtui --demo topics --sort trending   the demo's topics, rising first
  feedtui config --check                  what is wrong in your config file, with line numbers
"""


class UsageError(Exception):
    pass


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse exits 2 itself; keep its wording
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


def build_parser() -> argparse.ArgumentParser:
    common = argparse.ArgumentParser(add_help=False)
    common.add_argument("--data-dir", metavar="DIR", default=argparse.SUPPRESS, help="where feedtui keeps its database (env FEEDTUI_DATA_DIR)")
    common.add_argument("--config", metavar="FILE", default=argparse.SUPPRESS, help="the config file (env FEEDTUI_CONFIG)")
    common.add_argument("--demo", action="store_true", default=argparse.SUPPRESS, help="use the bundled demo papers in a separate data directory; no network")

    parser = _Parser(
        prog="feedtui",
        description="A fast, keyboard-driven terminal reader for research-paper feeds.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        parents=[common],
    )
    parser.add_argument("--version", action="version", version=f"feedtui {__version__}")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    def command(name: str, help_text: str, epilog: str = "") -> argparse.ArgumentParser:
        return sub.add_parser(
            name, help=help_text, description=help_text, parents=[common], epilog=epilog,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )

    p = command("refresh", "fetch followed topics, or the named ones", "example:\n  feedtui refresh 'Edge Inference' --force")
    p.add_argument("topics", nargs="*", metavar="TOPIC")
    p.add_argument("--force", action="store_true", help="ask arXiv again even if it answered today")

    p = command("topics", "list every topic: following, papers, unread, momentum", "example:\n  feedtui topics --sort trending --json")
    p.add_argument("--json", action="store_true", help="print JSON (with the weekly counts) for scripts")
    p.add_argument("--as-of", metavar="ISO-TIME", help="momentum as of this time (default: now)")
    p.add_argument(
        "--sort", choices=["name", "unread", "trending", "followed"], default="followed",
        help="followed first (default), name, most unread, or trending (rising momentum)",
    )

    p = command(
        "papers", "list a topic's papers, or the reading list's (Starred), newest first",
        "examples:\n  feedtui papers 'Visual SLAM' --unread --limit 5\n  feedtui papers Starred --json",
    )
    p.add_argument("topic", metavar="TOPIC", help="a topic, or Starred for the papers you starred")
    p.add_argument("--unread", action="store_true", help="only unread papers")
    p.add_argument("--json", action="store_true", help="print JSON for scripts")
    p.add_argument("--limit", type=int, metavar="N", help="at most the N newest papers (0 lists none; without --limit, all)")

    for name, text in (("follow", "follow a topic"), ("unfollow", "stop following a topic")):
        p = command(name, text, f"example:\n  feedtui {name} 'Federated Learning'")
        p.add_argument("topic", metavar="TOPIC")

    for name, text in (
        ("read", "mark papers read"),
        ("unread", "mark papers unread"),
        ("star", "star papers for your reading list"),
        ("unstar", "unstar papers"),
    ):
        p = command(
            name, text + " (arXiv ids, with or without version, or web: ids as papers lists them)",
            f"example:\n  feedtui {name} 2609.01234 2609.01240v2",
        )
        p.add_argument("ids", nargs="+", metavar="ID")

    topic = command(
        "topic", "add, edit, remove or show a topic",
        "examples:\n  feedtui topic show 'Edge Inference'\n"
        "  feedtui topic add 'Sparse Attention' --query 'abs:\"sparse attention\"'\n"
        "  feedtui topic edit 'Sparse Attention' --query 'abs:\"sparse attention\" AND cat:cs.LG'\n"
        "  feedtui topic rm 'Sparse Attention'\n"
        "Query syntax: docs/queries.md (arXiv API syntax: ti: abs: au: cat: AND OR ANDNOT).",
    )
    topic_sub = topic.add_subparsers(dest="topic_command", metavar="ACTION", parser_class=_Parser, required=True)
    add = topic_sub.add_parser(
        "add", help="add a topic", parents=[common],
        epilog="examples:\n  feedtui topic add 'Sparse Attention' --query 'abs:\"sparse attention\"'\n"
        "  feedtui topic add 'Distributed systems' --category cs.DC\n"
        "  feedtui topic add 'Lab blog' --feed https://example.org/atom.xml",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    add.add_argument("name", metavar="NAME")
    add.add_argument("--query", metavar="Q", help="arXiv API query (narrows feeds/categories when given with them)")
    add.add_argument("--category", action="append", default=[], metavar="CAT", help="arXiv category (repeatable)")
    add.add_argument("--feed", action="append", default=[], metavar="URL", help="RSS/Atom feed URL (repeatable)")
    add.add_argument("--description", default="", metavar="TEXT", help="what the topic is about, shown in its topic view")
    rm = topic_sub.add_parser(
        "rm", help="remove a topic (a catalogue topic is hidden; an edited config topic goes back to its [[topic]] table)", parents=[common],
        epilog="example:\n  feedtui topic rm 'Lab blog'", formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    rm.add_argument("name", metavar="NAME")
    restore = topic_sub.add_parser(
        "restore", help="bring back a catalogue topic you removed (followed again if it was)", parents=[common],
        epilog="example:\n  feedtui topic restore 'Edge Inference'", formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    restore.add_argument("name", metavar="NAME")
    show = topic_sub.add_parser(
        "show", help="definition, momentum and a weekly chart", parents=[common],
        epilog="examples:\n  feedtui topic show 'Edge Inference'\n  feedtui topic show 'LLM Inference' --as-of 2026-09-30T12:00:00Z",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    show.add_argument("name", metavar="NAME")
    show.add_argument("--as-of", metavar="ISO-TIME", help="momentum as of this time (default: now)")
    edit = topic_sub.add_parser(
        "edit", help="change a topic's query, categories, feeds or description", parents=[common],
        epilog="Each option given replaces that part of the topic; what is not given stays.\n"
        "examples:\n  feedtui topic edit 'Sparse Attention' --query 'abs:\"sparse attention\" ANDNOT ti:survey'\n"
        "  feedtui topic edit 'Distributed systems' --category cs.DC --category cs.OS\n"
        "  feedtui topic edit 'Lab blog' --feed https://example.org/atom.xml --query ''\n"
        "  feedtui topic edit 'Lab blog' --name 'Lab news'",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    edit.add_argument("name", metavar="NAME")
    edit.add_argument("--query", metavar="Q", help="the new query ('' removes it)")
    edit.add_argument(
        "--category", action="append", metavar="CAT",
        help="the topic's categories become those given (repeatable; --category '' removes them all)",
    )
    edit.add_argument(
        "--feed", action="append", metavar="URL",
        help="the topic's feeds become those given (repeatable; --feed '' removes them all)",
    )
    edit.add_argument("--description", metavar="TEXT", help="the new description (\"\" removes it)")
    edit.add_argument(
        "--name", dest="new_name", metavar="NEW",
        help="rename it, its follow going with it (a topic of your own: config and catalogue topics keep theirs)",
    )

    _add_export_commands(command, common)

    p = command(
        "config", "where the config file is, a commented default one, or what is wrong in yours",
        "examples:\n  feedtui config --path\n"
        "  mkdir -p ~/.config/feedtui && feedtui config --default > ~/.config/feedtui/config.toml\n"
        "  feedtui config --check                                   exits 1 if a key or value is wrong\n"
        "  feedtui config --check --config ci.toml                  exits 1 too if ci.toml does not exist",
    )
    group = p.add_mutually_exclusive_group(required=True)
    group.add_argument("--path", action="store_true", help="print the config file's path")
    group.add_argument("--default", action="store_true", help="print a commented default config")
    group.add_argument("--check", action="store_true", help="report every problem in the config file (file:line: what)")
    return parser


EXPORT_EPILOG = """\
examples:
  feedtui export bibtex --starred -o reading-list.bib
  feedtui export bibtex --topic 'Edge Inference'
  feedtui export bibtex 2609.01234 2609.01240v2
  feedtui export opml -o feedtui-feeds.opml
  feedtui export json -o feedtui-state.json     everything you set, to move machines
"""

IMPORT_EPILOG = """\
examples:
  newsboat -e > feeds.opml && feedtui import opml feeds.opml --follow
  feedtui import json feedtui-state.json        on the new machine
Importing adds and merges; it never removes or overwrites what is already here.
"""


def _add_export_commands(command, common: argparse.ArgumentParser) -> None:
    def action(parent, name: str, help_text: str, epilog: str) -> argparse.ArgumentParser:
        return parent.add_parser(
            name, help=help_text, description=help_text, parents=[common], epilog=epilog,
            formatter_class=argparse.RawDescriptionHelpFormatter,
        )

    export = command("export", "write BibTeX, OPML or your whole state (JSON), to stdout or a file", EXPORT_EPILOG)
    formats = export.add_subparsers(dest="export_format", metavar="FORMAT", parser_class=_Parser, required=True)
    bib = action(
        formats, "bibtex", "BibTeX @misc entries for starred papers, a topic's papers or the papers named",
        "examples:\n  feedtui export bibtex --starred -o reading-list.bib\n"
        "  feedtui export bibtex --topic 'Edge Inference' > edge.bib\n"
        "  feedtui export bibtex 2609.01234 arXiv:2609.01240v2\n"
        "Exits 1 when a paper is not in the cache (the others are still written), or there is none to export.",
    )
    which = bib.add_mutually_exclusive_group()
    which.add_argument("--starred", action="store_true", help="the starred papers (the reading list)")
    which.add_argument("--topic", metavar="T", help="every cached paper of topic T, newest first (Starred: as --starred)")
    bib.add_argument("ids", nargs="*", metavar="ID", help="arXiv ids, with or without version, or web: ids")
    opml = action(
        formats, "opml", "OPML 2.0 of every topic with feed URLs, for other feed readers",
        "example:\n  feedtui export opml -o feedtui-feeds.opml\n"
        "A topic with several feeds is a folder; its query is kept in a feedtui:query attribute.\n"
        "Topics without feed URLs (arXiv queries and categories) are left out, and named on stderr.",
    )
    state = action(
        formats, "json", "your whole state: follows, read marks, stars, your topics, hidden topics, preferences",
        "example:\n  feedtui export json -o feedtui-state.json\n"
        "then on the other machine: feedtui import json feedtui-state.json",
    )
    for p in (bib, opml, state):
        p.add_argument("-o", "--output", metavar="FILE", help="write to FILE (atomically) instead of stdout")

    imports = command("import", "add topics from another reader's OPML, or state from `feedtui export json`", IMPORT_EPILOG)
    sources = imports.add_subparsers(dest="import_format", metavar="FORMAT", parser_class=_Parser, required=True)
    opml_in = action(
        sources, "opml", "add another reader's feeds (newsboat, nom, Thunderbird, …) as topics",
        "examples:\n  feedtui import opml ~/feeds.opml\n  newsboat -e | feedtui import opml - --follow\n"
        "Each folder becomes a topic holding its feeds; a feed outside folders is a topic of its own.\n"
        "A topic of the same name (case aside) that has feeds gains the new ones; a name taken by a topic\n"
        "without feeds, or the reading list's, gets ' (feeds)' added. Exits 1 if a topic could not be added.\n"
        "A newsboat urls file (URL \"tag\" \"~Title\" a line) is read too: each tag a topic of its feeds.",
    )
    opml_in.add_argument("file", metavar="FILE", help="the OPML file (- for stdin)")
    opml_in.add_argument("--follow", action="store_true", help="also follow every topic imported")
    state_in = action(
        sources, "json", "merge a state exported with `feedtui export json` into this one",
        "example:\n  feedtui import json feedtui-state.json\n"
        "What is already here is kept (differences are reported); everything new is added.\n"
        "Exits 1 if the file is not a feedtui export, or some entries were invalid (they are named).",
    )
    state_in.add_argument("file", metavar="FILE", help="the JSON file (- for stdin)")


def main(argv: list[str] | None = None, *, exits_after: bool = False) -> int:
    """Run the command in `argv`. `exits_after`: the process ends when this
    returns (the `feedtui` command itself, see `launch`), so what a one-shot
    command built can be left to the exit instead of collected."""
    parser = build_parser()
    args = parser.parse_args(argv)
    _settled.clear()
    try:
        with guarded_stdout():
            status = _settle(_dispatch(args, parser, exits_after=exits_after))
            # What is still buffered goes now, while a reader that left can be
            # told from a failure, not in the interpreter's flush at exit.
            sys.stdout.flush()
        return status
    except UsageError as error:
        print(f"feedtui: {error}", file=sys.stderr)
        return EXIT_USAGE
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return _reader_left()
    except OutputError as error:
        return _output_failed(error)


def _reader_left() -> int:
    """`feedtui papers … | head`: the reader had what it wanted and closed the
    pipe. That is no failure, so the exit is the status the command had
    settled on, or 0, as for a command that wrote everything (a reader that
    failed says so in its own status); nothing more is said, and what is
    still buffered goes nowhere."""
    discard_output()
    return _settled[-1] if _settled else EXIT_OK


def _output_failed(error: OutputError) -> int:
    """`feedtui topics > /dev/full`: the output is lost, and the command failed."""
    from feedtui.store.files import describe_os_error

    discard_output()
    print(f"feedtui: cannot write the output: {describe_os_error(error)}", file=sys.stderr)
    return EXIT_FAILED


# The exit status a command settled on before it wrote its report: `feedtui
# refresh 2>&1 | head -1` still exits 1 when sources failed.
_settled: list[int] = []


def _settle(status: int) -> int:
    _settled.append(status)
    return status


def _dispatch(args: argparse.Namespace, parser: argparse.ArgumentParser, *, exits_after: bool = False) -> int:
    command = args.command
    if command == "config":
        if args.path:
            print(config_path(getattr(args, "config", None)))
        elif args.check:
            named = getattr(args, "config", None)
            return _check_config(config_path(named), config_named_by(named))
        else:
            print(default_config_text())
        return EXIT_OK
    if command is None and (refusal := _reader_cannot_start()):
        status, problem = refusal
        print(f"feedtui: {problem}", file=sys.stderr)
        return status
    named = getattr(args, "config", None)
    config = load_config(config_path(named), named_by=config_named_by(named))
    demo = bool(getattr(args, "demo", False))
    directory = data_dir(getattr(args, "data_dir", None), demo=demo)
    if command is None:
        from feedtui.ui.run import run_tui

        return run_tui(config, directory, demo=demo)
    # A one-shot command: the thousands of rows, documents and papers it reads
    # or receives would set off hundreds of collections (2.3 s of a 5.8 s
    # `papers --json` on a 10,000-paper topic; 0.1–0.2 s of a cold refresh)
    # that find almost no cycles to free, so the collector waits until exit.
    # When the process ends next, what the command built is frozen before the
    # collector comes back on: the first collection would otherwise walk all
    # of it (20–35 ms of a refresh, cold or all 304s, measured).
    with gc_paused():
        status = _run_command(command, args, config, directory, demo)
        if exits_after:
            gc.freeze()
        return status


def _reader_cannot_start() -> tuple[int, str] | None:
    """(the exit status, why) when the reader cannot start here: `feedtui`
    from cron, or in a locale that is not UTF-8."""
    from feedtui.launch_checks import encoding_problem, terminal_problem

    if problem := terminal_problem():
        return EXIT_USAGE, problem
    if problem := encoding_problem():
        return EXIT_FAILED, problem
    return None


def _run_command(command: str, args: argparse.Namespace, config, directory, demo: bool) -> int:
    from feedtui.engine import open_engine
    from feedtui.store.files import StoreError

    try:
        engine = open_engine(config, directory, demo=demo)
    except StoreError as error:
        print(f"feedtui: {error}", file=sys.stderr)
        return EXIT_FAILED
    except OSError as error:
        print(f"feedtui: {data_dir_problem(directory, error)}", file=sys.stderr)
        return EXIT_FAILED
    reported = _report_problems(engine, 0)
    _confirmations.clear()
    failure = ""
    try:
        status = _run_handler(engine, command, args)
    except StoreError as error:  # a full disk, a read-only directory: tags.json, say, not written
        failure = str(error)
    except BrokenPipeError:  # what the command changed is still saved, and a failed save still counts
        status = _reader_left()
    except OutputError as error:  # likewise; the command failed
        status = _output_failed(error)
    except OSError as error:  # a file of the data directory that cannot be read
        failure = data_dir_problem(directory, error)
    finally:
        # What reading the cache found on the way (a damaged file set aside, say).
        reported = _report_problems(engine, reported)
        # What the command changed is saved now; if that fails, the command failed
        # and what it would have changed goes unsaid.
        saved = _close(engine)
        # What the save said: why it failed, or state.json found damaged and replaced.
        _report_problems(engine, reported)
    if failure and saved:
        # Said only when the state was saved: otherwise that message says why, once.
        print(f"feedtui: {failure}", file=sys.stderr)
    if failure or not saved:
        return EXIT_FAILED
    for line in _confirmations:
        print(line, file=sys.stderr)
    return status


def _run_handler(engine, command: str, args: argparse.Namespace) -> int:
    """The command's handler; what it refuses (an unknown topic, a bad query) is a UsageError."""
    from feedtui.engine import TopicNotFound
    from feedtui.topics.query import QueryError

    key = command if command != "topic" else f"topic {args.topic_command}"
    try:
        if key in _READS_TAGS:
            engine.ensure_tagged()
        return _HANDLERS[key](engine, args)
    except TopicNotFound as error:
        raise UsageError(str(error)) from None
    except QueryError as error:
        raise UsageError(f"bad query: {error}\n{error.caret_line(indent='  ')}") from None
    except ValueError as error:
        raise UsageError(str(error)) from None


# Lines saying what a command changed (a follow, a mark, a topic added), held
# back until the change is on disk: one that could not be saved was not made.
_confirmations: list[str] = []


def _confirm(line: str) -> None:
    _confirmations.append(line)


def _report_problems(engine, already: int) -> int:
    """Print the engine's problems after the first `already`; returns how many there are."""
    messages = engine.problems.messages
    for message in messages[already:]:
        print(f"feedtui: {message}", file=sys.stderr)
    return len(messages)


def _close(engine) -> bool:
    """Save and close; False when the save failed (the engine's problems say why)."""
    from feedtui.store.files import StoreError

    try:
        engine.close()
    except StoreError:
        return False
    return True


def _check_config(path, named_by: str = "") -> int:
    """Everything the app would say about the file, including the theme and
    keymap checks. `named_by`: --config or $FEEDTUI_CONFIG named the file, so
    its absence is a problem (a typo), not a first run."""
    from textual.theme import BUILTIN_THEMES

    from feedtui.config import check_ui_settings, in_file_order
    from feedtui.ui.screens.help import keymap_scopes

    if named_by and not path.exists():
        print(f"{path}: no config file there ({named_by} names it)", file=sys.stderr)
        return EXIT_FAILED
    if not path.exists():
        print(f"{path}: no config file; feedtui uses the defaults (feedtui config --default writes a commented one)")
        return EXIT_OK
    config = load_config(path)
    check_ui_settings(config, themes=BUILTIN_THEMES, scopes=keymap_scopes())
    for problem in in_file_order(config.problems):
        print(problem, file=sys.stderr)
    if config.problems:
        return EXIT_FAILED
    print(f"{path}: no problems")
    return EXIT_OK


def _cmd_refresh(engine, args) -> int:
    from feedtui.engine import RefreshProgress
    from feedtui.refresh import Waiting

    names = [engine.topic(n).name for n in args.topics]
    if not names and not engine.followed() and not engine.demo and not engine.starred_arxiv_not_cached():
        print("feedtui: no followed topics to refresh; follow one first (feedtui topics lists them)", file=sys.stderr)
        return EXIT_OK
    interactive = sys.stderr.isatty()
    # The last source ended, shown again once a wait or a query's paging is over.
    ended = [""]
    # Without a terminal: when each long wait said ends (by why), so that the
    # requests waiting in arXiv's lane behind the one told do not repeat it.
    waits_said: dict[str, float] = {}
    # The last activity told, drawn again each second while it is a wait.
    shown: list[RefreshProgress] = []

    def progress(p: RefreshProgress) -> None:
        if interactive:
            mark = "ok" if p.ok else "FAILED"
            ended[0] = f"[{p.done}/{p.total}] {mark} {p.label[:60]}"
            _progress_line(ended[0])
            if shown:
                shown[0] = replace(shown[0], done=p.done, total=p.total)

    def activity(p: RefreshProgress) -> None:
        if interactive:
            shown[:] = [p]
            count = f"[{p.done}/{p.total}]"
            _progress_line(f"{count} {p.activity.text(40)}" if p.activity else ended[0] or f"{count} refreshing…")
        elif isinstance(wait := p.activity, Waiting) and wait.seconds >= LONG_WAIT_S:
            # No progress line without a terminal, but a long silence is
            # explained, once: not again for a wait begun while it lasted.
            if wait.until - wait.seconds >= waits_said.get(wait.why, 0.0):
                waits_said[wait.why] = wait.until
                print(f"feedtui: {wait.text()}", file=sys.stderr)

    def count_down() -> None:
        if shown and isinstance(shown[0].activity, Waiting):
            activity(shown[0])

    try:
        refresh = engine.refresh(names or None, force=args.force, on_progress=progress, on_activity=activity)
        report = asyncio.run(_ticking(refresh, count_down) if interactive else refresh)
    except KeyboardInterrupt:
        _say_what_was_kept(engine.stopped_refresh, interactive)
        raise
    if engine.library_loaded:
        # Papers arrived: leave every topic's tags complete on disk, and the
        # cache within its limit (it only grows when papers are stored, so a
        # refresh of 304s loads nothing to find there is nothing to do).
        engine.ensure_tagged()
        pruned = engine.prune()
    else:
        pruned = 0
    status = _settle(EXIT_OK if report.ok else EXIT_FAILED)
    if pruned:
        print(f"feedtui: pruned the {pruned:,} oldest unstarred papers (cache_limit is {engine.settings.cache_limit:,})", file=sys.stderr)
    if interactive:
        sys.stderr.write("\r\x1b[K")
    for source in report.sources:
        if not source.ok:
            url = clean_line(source.url, html_allowed=False)
            # A feed's label shows its URL already: "Lab blog (https://…)".
            where = f" ({url})" if url and f"({url})" not in source.label else ""
            print(f"feedtui: failed: {source.label}{where}: {source.error}", file=sys.stderr)
        elif source.skipped:
            print(f"feedtui: skipped {source.label}: {source.skipped}", file=sys.stderr)
        for note in (source.warning, *source.reading_notes) if source.ok else ():
            if note:
                print(f"feedtui: note: {source.label}: {note}", file=sys.stderr)
    for note in report.notes:
        print(f"feedtui: {note}", file=sys.stderr)
    print(_refresh_summary(report), file=sys.stderr)
    return status


async def _ticking(work, tick: Callable[[], None], every_s: float = 1.0):
    """`await work`, calling `tick` every `every_s` seconds meanwhile."""

    async def ticks() -> None:
        while True:
            await asyncio.sleep(every_s)
            tick()

    ticker = asyncio.create_task(ticks())
    try:
        return await work
    finally:
        ticker.cancel()


def _progress_line(text: str) -> None:
    """Draw the one progress line of `refresh` on the terminal, over the last."""
    try:
        columns = os.get_terminal_size(sys.stderr.fileno()).columns
    except OSError:
        columns = 0
    # A terminal that does not say its size (0 columns) is taken as 80 wide.
    sys.stderr.write(f"\r\x1b[K{text[: max(columns or 80, 21) - 1]}")
    sys.stderr.flush()


def _say_what_was_kept(stopped, interactive: bool) -> None:
    """Ctrl-C during a refresh: the papers stored before it ended are kept.
    Stopped by SIGHUP, stderr may be a terminal that has closed: the write
    fails (EIO), and that must not take the place of the stop."""
    new, updated = (stopped.new_papers, stopped.updated_papers) if stopped is not None else (0, 0)
    try:
        if interactive:
            sys.stderr.write("\r\x1b[K")
        print(f"feedtui: {new:,} new, {updated:,} updated papers stored before it stopped", file=sys.stderr)
    except OSError:
        pass


def _refresh_summary(report) -> str:
    """`2 new, 0 updated papers from 3 of 5 sources; 1 failed, 1 skipped`: the
    sources that answered, of all the refresh had, and what became of the rest."""
    total, answered, failed = len(report.sources), len(report.fetched), len(report.failed)
    skipped = total - answered - failed
    sources = f"{answered}" if answered == total else f"{answered} of {total}"
    rest = f"{failed} failed" + (f", {skipped} skipped" if skipped else "")
    return (
        f"{report.new_papers:,} new, {report.updated_papers:,} updated papers from {sources} "
        f"source{'' if total == 1 else 's'}; {rest}"
    )


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


def _cmd_topics(engine, args) -> int:
    as_of = _parse_as_of(args.as_of)
    library = engine.library
    following = engine.state.is_following
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
        _print_json(out)
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


def paper_json(engine, paper, tags) -> dict:
    from feedtui.text.links import safe_link

    return {
        "id": paper.id,
        "version": paper.version,
        "title": paper.readable_title,
        "abstract": paper.readable_abstract,
        "published": _iso(paper.published),
        "updated": _iso(paper.updated),
        "primary_category": paper.primary_category,
        "categories": list(paper.categories),
        "authors": [a.name for a in paper.authors],
        "authors_omitted": paper.authors_omitted,
        "affiliations": list(paper.affiliations),
        "tags": list(tags),
        "read": engine.state.is_read(paper.id),
        "starred": engine.state.is_starred(paper.id),
        "url": safe_link(paper.abs_url) or "",
        "pdf_url": safe_link(paper.pdf_url) or "",
        "doi": paper.doi,
        "journal_ref": paper.journal_ref,
        "comment": paper.comment,
        "date_estimated": paper.date_estimated,
    }


def json_text(value: object, *, ascii_only: bool = False) -> str:
    """JSON for people and scripts, indented. orjson writes it (10,000 papers
    in 0.1 s instead of about a second); text it refuses (a lone surrogate,
    which no output encoding takes) goes through the standard library, escaped,
    as does all text when `ascii_only`."""
    import orjson

    if not ascii_only:
        try:
            return orjson.dumps(value, option=orjson.OPT_INDENT_2).decode()
        except TypeError:
            pass
    return json.dumps(value, indent=2)


def _print_json(value: object) -> None:
    """JSON on stdout; in a locale that cannot write every character
    (ISO-8859-1, ASCII), with `\\u` escapes for all but ASCII: the same JSON."""
    print(json_text(value, ascii_only=not takes_any_character(sys.stdout)))


def _iso(moment: datetime) -> str:
    return moment.astimezone(UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def _cmd_papers(engine, args) -> int:
    from feedtui.topics.names import is_reading_list_name

    if args.limit is not None and args.limit < 0:
        raise UsageError("--limit must be 0 or more")
    if is_reading_list_name(args.topic):  # no topic can have its name
        positions = _starred_positions(engine)
        _tell_starred_not_cached(engine)
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
        _print_json([paper_json(engine, p, tags[p.id]) for p in papers])
        return EXIT_OK
    # Columns as wide as what they hold: a feed item's id takes 20, physics.comp-ph 15.
    width = max([16, *(len(paper.versioned_id) for paper in papers)])
    category_width = max([10, *(len(paper.primary_category) for paper in papers)])
    for paper in papers:
        mark = " " if engine.state.is_read(paper.id) else "●"
        star = "★" if engine.state.is_starred(paper.id) else " "
        category = f"{paper.primary_category:<{category_width}}"
        print(f"{mark}{star} {paper.versioned_id:<{width}} {paper.published:%Y-%m-%d} {category} {shown_title(paper.readable_title)}")
    return EXIT_OK


def _starred_positions(engine) -> list[int]:
    """The reading list's papers in the cache, newest first, as the reader lists them."""
    from feedtui.ui.presenter import starred_positions

    return starred_positions(engine.library, engine.state.starred_view())


def _tell_starred_not_cached(engine) -> None:
    from feedtui.ui.presenter import not_cached_note, starred_not_cached

    missing = starred_not_cached(engine.library, engine.state.starred_view())
    if missing:
        shown = ", ".join(missing[:10]) + (", …" if len(missing) > 10 else "")
        print(f"feedtui: {not_cached_note(missing, 'feedtui refresh', shown)}", file=sys.stderr)


def _cmd_follow(engine, args) -> int:
    entry = engine.topic(args.topic)
    already = engine.state.is_following(entry.name)
    engine.follow(entry.name)
    _confirm(f"already following {entry.name} (nothing changed)" if already else f"following {entry.name}")
    return EXIT_OK


def _cmd_unfollow(engine, args) -> int:
    if orphan := engine.drop_orphaned_follow(args.topic):
        _confirm(f"no longer following {orphan} (no topic is called that now)")
        return EXIT_OK
    entry = engine.topic(args.topic)
    following = engine.state.is_following(entry.name)
    engine.unfollow(entry.name)
    _confirm(f"no longer following {entry.name}" if following else f"not following {entry.name} (nothing changed)")
    return EXIT_OK


def _only_paper_ids(texts: list[str]) -> None:
    """Raise a UsageError naming what is not a paper id at all (`1234`, ""):
    "not in the cache (refresh first)" would send the user the wrong way."""
    from feedtui.sources.parse_ids import is_paper_id

    if wrong := [text for text in texts if not is_paper_id(text)]:
        named = ", ".join(repr(text) for text in dict.fromkeys(wrong))
        raise UsageError(
            f"not a paper id: {named} (an arXiv id such as 2609.01234, 2609.01234v2 or arXiv:2609.01234, "
            "or a web: id as feedtui papers lists it)"
        )


def _marks(action: str):
    def handler(engine, args) -> int:
        _only_paper_ids(args.ids)
        known, unknown = engine.resolve_ids(args.ids)
        for raw in unknown:
            print(f"feedtui: {raw}: not in the cache (refresh first, or check the id)", file=sys.stderr)
        count = len(getattr(engine, action)(known))
        _confirm(f"{action.replace('_', ' ')}: {count:,} changed, {len(known) - count:,} already so")
        return EXIT_OK if not unknown else EXIT_FAILED

    return handler


def _check_categories(categories) -> None:
    from feedtui.topics.query import category_query

    for category in categories:
        try:
            category_query(category)
        except ValueError:
            raise UsageError(f"--category: {category!r} is not an arXiv category (e.g. cs.DC, hep-lat, or cs.* for all of cs)") from None


def _cmd_topic_add(engine, args) -> int:
    from feedtui.engine import TopicNameTaken

    _check_categories(args.category)
    definition = TopicDefinition(query=args.query or "", categories=tuple(args.category), feeds=tuple(args.feed))
    if definition.is_empty:
        raise UsageError("a topic needs --query, --category or --feed")
    try:
        entry = engine.add_topic(args.name, definition, args.description)
    except TopicNameTaken as error:
        raise UsageError(f"{error}: feedtui topic edit '{error.taken}' changes it") from None
    engine.compute_tags([entry.name])  # written to disk; this process needs no library
    _confirm(f"added {entry.name}: {entry.topic.definition.describe()}")
    return EXIT_OK


def _cmd_topic_rm(engine, args) -> int:
    name = engine.topic(args.name).name
    followed = engine.state.is_following(name)
    copy_of = engine.config_copy_of(name)
    entry = engine.remove_topic(name)
    if copy_of:
        engine.compute_tags([entry.name])  # as its table defines it
        _confirm(f"dropped your edited copy of {entry.name}: its [[topic]] table in {copy_of} defines it again")
        return EXIT_OK
    if entry.name in engine.registry.catalogue_names:
        back = ", followed" if followed else ""
        _confirm(f"removed {entry.name} (feedtui topic restore '{entry.name}' brings it back{back})")
    else:
        _confirm(f"removed {entry.name}" + (" and stopped following it" if followed else ""))
    return EXIT_OK


def _cmd_topic_restore(engine, args) -> int:
    entry = engine.restore_topic(args.name)
    engine.compute_tags([entry.name])  # written to disk; this process needs no library
    followed = ", followed" if engine.state.is_following(entry.name) else ""
    _confirm(f"restored {entry.name}{followed}: {entry.topic.definition.describe()}")
    return EXIT_OK


def _replacing(values: list[str] | None) -> tuple[str, ...] | None:
    """A repeated option of `topic edit` as the list that replaces the
    topic's (None when not given: kept). An empty value adds nothing, so
    `--feed ''` empties the list."""
    return None if values is None else tuple(value for value in values if value.strip())


def _cmd_topic_edit(engine, args) -> int:
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
        _confirm(f"renamed {old} to {entry.name}" + (", still followed" if engine.state.is_following(entry.name) else ""))
    if any(value is not None for value in changes):
        _confirm(f"changed {entry.name}: {entry.topic.definition.describe()}")
    if note := engine.override_note(entry.name):
        _confirm(note)
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


def _cmd_topic_show(engine, args) -> int:
    from feedtui.topics.momentum import render_text_chart

    entry = engine.topic(args.name)
    library = engine.library
    momentum = engine.momentum(entry.name, _parse_as_of(args.as_of))
    following = "following" if engine.state.is_following(entry.name) else "not following"
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


def _cmd_export(engine, args) -> int:
    exporters = {"bibtex": _export_bibtex, "opml": _export_opml, "json": _export_json}
    return exporters[args.export_format](engine, args)


def _cmd_import(engine, args) -> int:
    importers = {"opml": _import_opml, "json": _import_json}
    return importers[args.import_format](engine, args)


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
        positions = _starred_positions(engine)
        missing = [
            f"{pid}: starred, but not in the cache ({_STARRED_FETCH if split_arxiv_id(pid) else 'refresh a topic it belongs to'})"
            for pid in sorted(engine.state.starred_ids())
            if pid not in library.pos
        ]
    else:
        _only_paper_ids(args.ids)
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
        if not entry.topic.definition.feeds and (entry.topic.origin != "catalogue" or engine.state.is_following(entry.name))
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

    from feedtui.store.files import StoreError, atomic_write

    if output is None or output == "-":
        try:
            if takes_any_character(sys.stdout):
                sys.stdout.write(text)
                sys.stdout.flush()
            else:  # the file's bytes, as -o FILE writes them, whatever the locale
                sys.stdout.write_bytes(text.encode("utf-8"))
        except BrokenPipeError:  # ids not found still make the export's exit 1
            return _reader_left()
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


def _read_input(name: str) -> tuple[bytes | None, str]:
    """(the bytes, a name for messages); None after telling the user why not."""
    from pathlib import Path

    from feedtui.store.files import describe_os_error

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
    added: list[str] = []
    merged: list[str] = []
    already = skipped = 0
    with engine.adding_topics():
        for topic in result.topics:
            taken = engine.name_taken(engine.topic_name(topic.name))
            existing = engine.registry.get(taken) if taken else None
            if taken and (existing is None or not existing.topic.definition.feeds):
                # Its feeds became "NAME (feeds)" at an earlier import (or
                # earlier in this file): they go there again, not to "NAME (feeds) 2".
                earlier = engine.registry.get(engine.name_taken(fit_name(topic.name, " (feeds)")) or "")
                if earlier is not None and earlier.topic.definition.feeds:
                    existing = earlier
            try:
                if existing is not None and existing.topic.definition.feeds:
                    current = existing.topic.definition
                    feeds = tuple(dict.fromkeys(current.feeds + topic.definition.feeds))
                    if feeds == current.feeds:
                        already += 1
                        continue
                    definition = TopicDefinition(query=current.query, categories=current.categories, feeds=feeds)
                    engine.add_topic(existing.name, definition, existing.topic.description, replace=True)
                    merged.append(existing.name)
                    _confirm(f"merged into {existing.name}: {len(feeds) - len(current.feeds)} more feed(s)")
                    continue
                name = _free_name(engine, topic.name, " (feeds)") if taken else topic.name
                entry = engine.add_topic(name, topic.definition, topic.description)
                added.append(entry.name)
                if existing is None:
                    holder = "the reading list"
                else:
                    holder = "a topic without feeds" if existing.name == topic.name else f"{existing.name}, a topic without feeds"
                renamed = f" (the name '{topic.name}' is taken by {holder})" if taken else ""
                _confirm(f"added {entry.name}{renamed}: {topic.definition.describe()}")
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
    _confirm(
        f"imported {source}: {len(added)} topic(s) added, {len(merged)} merged into existing topics, "
        f"{already} already here, {skipped} topic(s) skipped{duplicates}{not_feeds}"
    )
    return EXIT_FAILED if skipped else EXIT_OK


def _free_name(engine, name: str, suffix: str) -> str:
    """`NAME (feeds)`, else `NAME (feeds) 2`, `… 3`: the first not taken,
    with NAME cut short if need be to fit the topic-name limit."""
    candidate, n = fit_name(name, suffix), 2
    while engine.name_taken(candidate):
        candidate, n = fit_name(name, f"{suffix} {n}"), n + 1
    return candidate


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
    _confirm(f"imported {source}:")
    for line in summary.lines():
        _confirm(f"  {line}")
    return EXIT_FAILED if summary.skipped else EXIT_OK


# Commands whose answers depend on complete topic tags: stale ones (a changed
# catalogue, an interrupted retag) are recomputed first.
_READS_TAGS = {"topics", "papers", "topic show", "export"}

_HANDLERS = {
    "refresh": _cmd_refresh,
    "topics": _cmd_topics,
    "papers": _cmd_papers,
    "follow": _cmd_follow,
    "unfollow": _cmd_unfollow,
    "read": _marks("mark_read"),
    "unread": _marks("mark_unread"),
    "star": _marks("star"),
    "unstar": _marks("unstar"),
    "topic add": _cmd_topic_add,
    "topic rm": _cmd_topic_rm,
    "topic restore": _cmd_topic_restore,
    "topic edit": _cmd_topic_edit,
    "topic show": _cmd_topic_show,
    "export": _cmd_export,
    "import": _cmd_import,
}


if __name__ == "__main__":
    raise SystemExit(main())
