"""The `feedtui` command line: every command, option and example, as argparse reads them."""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence

from feedtui import __version__
from feedtui.cli.completion import SHELLS, completes_topics
from feedtui.cli.status import EXIT_USAGE

EPILOG = """\
examples:
  feedtui --demo                          the reader, on bundled invented papers
  feedtui follow "Edge Inference"         follow a catalogue topic
  feedtui refresh                         fetch every followed topic
  feedtui papers "Edge Inference" --unread --json --limit 20
  feedtui read 2609.01234v2 2609.01240    mark papers read (versions ignored)
  feedtui ask "how do phones offload layers to the edge?"
  feedtui topic add "Sparse Attention" --query 'abs:"sparse attention" AND cat:cs.LG'
  feedtui topic add "Lab blog" --feed https://example.org/feed.xml --query 'abs:robot*'
  feedtui --demo topics --sort trending   the demo's topics, rising first
  feedtui config --check                  what is wrong in your config file, with line numbers
"""


class _Parser(argparse.ArgumentParser):
    def error(self, message: str):  # argparse exits 2 itself; keep its wording
        self.print_usage(sys.stderr)
        self.exit(EXIT_USAGE, f"{self.prog}: error: {message}\n")


# The options a bare start of the reader may carry, each to the name argparse gives it.
READER_OPTIONS = {"--data-dir": "data_dir", "--config": "config"}


def reader_args(argv: Sequence[str]) -> argparse.Namespace | None:
    """What `build_parser().parse_args(argv)` gives when `argv` only starts
    the reader (nothing, --data-dir DIR, --config FILE, --demo), read without
    building the parser: its sub-parsers, with argparse's message lookups,
    are work on the way to the reader's first paint. None for anything else
    (a command, --help, a bad option, a value that looks like an option),
    which the parser reads and answers as ever."""
    values: dict[str, object] = {"command": None}
    index = 0
    while index < len(argv):
        token = argv[index]
        name, equals, value = token.partition("=")
        if token == "--demo":
            values["demo"] = True
        elif token in READER_OPTIONS and index + 1 < len(argv) and not argv[index + 1].startswith("-"):
            index += 1
            values[READER_OPTIONS[token]] = argv[index]
        elif equals and name in READER_OPTIONS:
            values[READER_OPTIONS[name]] = value
        else:
            return None
        index += 1
    return argparse.Namespace(**values)


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
    completes_topics(p.add_argument("topics", nargs="*", metavar="TOPIC"))
    p.add_argument("--force", action="store_true", help="ask arXiv again even if it answered today")

    p = command(
        "topics", "list every topic: following, papers, unread, momentum",
        "examples:\n  feedtui topics --sort trending --json\n  feedtui topics --names",
    )
    form = p.add_mutually_exclusive_group()
    form.add_argument("--json", action="store_true", help="print JSON (with the weekly counts) for scripts")
    form.add_argument("--names", action="store_true", help="only the names, one a line, A to Z (quick: no paper is read; shell completion uses it)")
    p.add_argument("--as-of", metavar="ISO-TIME", help="momentum as of this time (default: now)")
    p.add_argument(
        "--sort", choices=["name", "unread", "trending", "followed"], default="followed",
        help="followed first (default), name, most unread, or trending (rising momentum)",
    )

    p = command(
        "papers", "list a topic's papers, or the reading list's (Starred), newest first",
        "examples:\n  feedtui papers 'Visual SLAM' --unread --limit 5\n  feedtui papers Starred --json",
    )
    completes_topics(p.add_argument("topic", metavar="TOPIC", help="a topic, or Starred for the papers you starred"))
    p.add_argument("--unread", action="store_true", help="only unread papers")
    p.add_argument("--json", action="store_true", help="print JSON for scripts")
    p.add_argument("--limit", type=int, metavar="N", help="at most the N newest papers (0 lists none; without --limit, all)")

    p = command(
        "ask", "ask a question of every cached paper (or one topic's): the best papers, and the sentences that answer",
        "examples:\n  feedtui ask 'how do phones offload layers to the edge?'\n"
        "  feedtui ask 'sparse attention kernels' --topic 'Sparse Attention' --limit 5 --json",
    )
    p.add_argument("question", metavar="QUESTION")
    completes_topics(p.add_argument("--topic", metavar="NAME", help="ask only this topic's papers (default: the whole cache)"))
    p.add_argument("--limit", type=int, default=20, metavar="N", help="at most N papers (default 20)")
    p.add_argument("--json", action="store_true", help="print JSON for scripts (with each paper's score and quoted sentences)")

    p = command("related", "list the cached papers most related to one (meaning, authors, categories)", "example:\n  feedtui related 2609.01234 --json")
    p.add_argument("id", metavar="ID")
    p.add_argument("--limit", type=int, default=10, metavar="N", help="at most N papers (default 10)")
    p.add_argument("--json", action="store_true", help="print JSON for scripts (with each paper's score)")

    p = command(
        "foryou", "list unread papers of the last four weeks ranked by your stars and likes",
        "example:\n  feedtui foryou --limit 10",
    )
    p.add_argument("--limit", type=int, default=20, metavar="N", help="at most N papers (default 20)")
    p.add_argument("--json", action="store_true", help="print JSON for scripts (with each paper's score and why)")

    for name, text in (("follow", "follow a topic"), ("unfollow", "stop following a topic")):
        p = command(name, text, f"example:\n  feedtui {name} 'Federated Learning'")
        completes_topics(p.add_argument("topic", metavar="TOPIC"))

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
    completes_topics(rm.add_argument("name", metavar="NAME"))
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
    completes_topics(show.add_argument("name", metavar="NAME"))
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
    completes_topics(edit.add_argument("name", metavar="NAME"))
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

    p = command(
        "completion", "print the shell completion script for bash, zsh or fish (commands, options, topic names)",
        "examples:\n  feedtui completion bash > ~/.local/share/bash-completion/completions/feedtui\n"
        "  feedtui completion zsh > ~/.zfunc/_feedtui        (with fpath+=(~/.zfunc) before compinit)\n"
        "  feedtui completion fish > ~/.config/fish/completions/feedtui.fish",
    )
    p.add_argument("shell", choices=SHELLS, help="the shell: bash, zsh or fish")
    return parser


EXPORT_EPILOG = """\
examples:
  feedtui export bibtex --starred -o reading-list.bib
  feedtui export bibtex --topic 'Edge Inference'
  feedtui export bibtex 2609.01234 2609.01240v2
  feedtui export ris --starred -o reading-list.ris
  feedtui export csljson --topic 'Edge Inference' -o edge.json
  feedtui export zotero 2609.01234               into the running Zotero app
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

    export = command(
        "export", "write BibTeX, RIS, CSL-JSON, OPML or your whole state (JSON), or send papers to Zotero", EXPORT_EPILOG,
    )
    formats = export.add_subparsers(dest="export_format", metavar="FORMAT", parser_class=_Parser, required=True)
    bib = action(
        formats, "bibtex", "BibTeX @misc entries for starred papers, a topic's papers or the papers named",
        "examples:\n  feedtui export bibtex --starred -o reading-list.bib\n"
        "  feedtui export bibtex --topic 'Edge Inference' > edge.bib\n"
        "  feedtui export bibtex 2609.01234 arXiv:2609.01240v2\n"
        "Exits 1 when a paper is not in the cache (the others are still written), or there is none to export.",
    )
    ris = action(
        formats, "ris", "RIS records (EndNote, Zotero, Mendeley) for starred papers, a topic's papers or the papers named",
        "examples:\n  feedtui export ris --starred -o reading-list.ris\n  feedtui export ris 2609.01234\n"
        "Exits 1 when a paper is not in the cache (the others are still written), or there is none to export.",
    )
    csl = action(
        formats, "csljson", "CSL-JSON (pandoc, CSL processors) for starred papers, a topic's papers or the papers named",
        "examples:\n  feedtui export csljson --starred -o reading-list.json\n  feedtui export csljson --topic 'Edge Inference'\n"
        "Item ids are the citation keys `export bibtex` writes.\n"
        "Exits 1 when a paper is not in the cache (the others are still written), or there is none to export.",
    )
    zotero = action(
        formats, "zotero", "send starred papers, a topic's papers or the papers named to the Zotero desktop app",
        "examples:\n  feedtui export zotero 2609.01234\n  feedtui export zotero --starred\n"
        "Through Zotero's connector ([zotero] connector_url, default http://127.0.0.1:23119): Zotero must be running.\n"
        "When it is not, the BibTeX is copied to the clipboard instead (or printed, with no clipboard tool), and it exits 1.",
    )
    for chooser in (bib, ris, csl, zotero):
        which = chooser.add_mutually_exclusive_group()
        which.add_argument("--starred", action="store_true", help="the starred papers (the reading list)")
        completes_topics(which.add_argument("--topic", metavar="T", help="every cached paper of topic T, newest first (Starred: as --starred)"))
        chooser.add_argument("ids", nargs="*", metavar="ID", help="arXiv ids, with or without version, or web: ids")
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
    for p in (bib, ris, csl, opml, state):
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
