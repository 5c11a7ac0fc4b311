"""The `feedtui` command: the reader by default, or the subcommand named,
run against an engine opened for it and closed (saved) after it.

Exit codes: 0 success, also when the reader of stdout left early (`| head`);
1 when some sources failed (refresh) or nothing could be done; 2 for usage
errors (bad arguments, unknown topics, bad queries, the reader without a
terminal).
"""

from __future__ import annotations

import argparse
import gc
import importlib
import sys

from feedtui.cli.parser import build_parser, reader_args
from feedtui.cli.status import (
    EXIT_FAILED,
    EXIT_OK,
    EXIT_USAGE,
    UsageError,
    confirmations,
    output_failed,
    reader_left,
    settle,
    settled,
)
from feedtui.config import config_named_by, config_path, data_dir, default_config_text, load_config
from feedtui.launch_checks import data_dir_problem
from feedtui.memory import gc_paused, one_heap
from feedtui.output import OutputError, guarded_stdout


def main(argv: list[str] | None = None, *, exits_after: bool = False) -> int:
    """Run the command in `argv`. `exits_after`: the process ends when this
    returns (the `feedtui` command itself, see `launch`), so what a one-shot
    command built can be left to the exit instead of collected."""
    parser = None
    if (args := reader_args(sys.argv[1:] if argv is None else argv)) is None:
        parser = build_parser()
        args = parser.parse_args(argv)
    settled.clear()
    try:
        with guarded_stdout():
            status = settle(_dispatch(args, parser, exits_after=exits_after))
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
        return reader_left()
    except OutputError as error:
        return output_failed(error)


def _dispatch(args: argparse.Namespace, parser: argparse.ArgumentParser | None, *, exits_after: bool = False) -> int:
    command = args.command
    if command == "completion":
        from feedtui.cli.completion import completion_script

        print(completion_script(parser or build_parser(), args.shell), end="")
        return EXIT_OK
    if command == "config":
        if args.path:
            print(config_path(getattr(args, "config", None)))
        elif args.check:
            from feedtui.cli.commands.config import check_config

            named = getattr(args, "config", None)
            return check_config(config_path(named), config_named_by(named))
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
    # or receives would set off hundreds of collections, a large share of a
    # big listing's time, that find almost no cycles to free, so the collector
    # waits until exit. When the process ends next, what the command built is
    # frozen before the collector comes back on: the first collection would
    # otherwise walk all of it.
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
    from feedtui.core.engine import open_engine
    from feedtui.core.files import StoreError

    if command in _STORES_PAPERS:
        one_heap()  # before the engine's threads start (see feedtui.memory)
    try:
        engine = open_engine(config, directory, demo=demo)
    except StoreError as error:
        print(f"feedtui: {error}", file=sys.stderr)
        return EXIT_FAILED
    except OSError as error:
        print(f"feedtui: {data_dir_problem(directory, error)}", file=sys.stderr)
        return EXIT_FAILED
    reported = _report_problems(engine, 0)
    confirmations.clear()
    failure = ""
    try:
        status = _run_handler(engine, command, args)
    except StoreError as error:  # a full disk, a read-only directory: tags.json, say, not written
        failure = str(error)
    except BrokenPipeError:  # what the command changed is still saved, and a failed save still counts
        status = reader_left()
    except OutputError as error:  # likewise; the command failed
        status = output_failed(error)
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
    for line in confirmations:
        print(line, file=sys.stderr)
    return status


def _run_handler(engine, command: str, args: argparse.Namespace) -> int:
    """The command's handler; what it refuses (an unknown topic, a bad query) is a UsageError."""
    from feedtui.core.discovery import PaperNotFound
    from feedtui.core.topics import TopicNotFound
    from feedtui.topics.query import QueryError

    key = command if command != "topic" else f"topic {args.topic_command}"
    try:
        if key in _READS_TAGS and not getattr(args, "names", False):  # `topics --names` reads no paper
            engine.ensure_tagged()
        return handler_of(key)(engine, args)
    except (TopicNotFound, PaperNotFound) as error:
        raise UsageError(str(error)) from None
    except QueryError as error:
        raise UsageError(f"bad query: {error}\n{error.caret_line(indent='  ')}") from None
    except ValueError as error:
        raise UsageError(str(error)) from None


def _report_problems(engine, already: int) -> int:
    """Print the engine's problems after the first `already`; returns how many there are."""
    messages = engine.problems.messages
    for message in messages[already:]:
        print(f"feedtui: {message}", file=sys.stderr)
    return len(messages)


def _close(engine) -> bool:
    """Save and close; False when the save failed (the engine's problems say why)."""
    from feedtui.core.files import StoreError

    try:
        engine.close()
    except StoreError:
        return False
    return True


# Commands that store papers from several threads.
_STORES_PAPERS = {"refresh"}

# Commands whose answers depend on complete topic tags: stale ones (a changed
# catalogue, an interrupted retag) are recomputed first.
_READS_TAGS = {"topics", "papers", "topic show", "export", "ask", "foryou"}

# Each command's handler, as (module under cli/commands, name): a command
# imports only its own module, and the reader none of them.
_HANDLERS = {
    "refresh": ("refresh", "cmd_refresh"),
    "topics": ("topics", "cmd_topics"),
    "papers": ("papers", "cmd_papers"),
    "ask": ("discovery", "cmd_ask"),
    "related": ("discovery", "cmd_related"),
    "foryou": ("discovery", "cmd_foryou"),
    "follow": ("topics", "cmd_follow"),
    "unfollow": ("topics", "cmd_unfollow"),
    "read": ("papers", "mark_read"),
    "unread": ("papers", "mark_unread"),
    "star": ("papers", "star"),
    "unstar": ("papers", "unstar"),
    "topic add": ("topics", "cmd_topic_add"),
    "topic rm": ("topics", "cmd_topic_rm"),
    "topic restore": ("topics", "cmd_topic_restore"),
    "topic edit": ("topics", "cmd_topic_edit"),
    "topic show": ("topics", "cmd_topic_show"),
    "export": ("export", "cmd_export"),
    "import": ("imports", "cmd_import"),
}
# The mark commands share one handler, made for the engine method they call.
_MARKS = {"mark_read", "mark_unread", "star", "unstar"}


def handler_of(key: str):
    """The handler of a command (`topic add`, `refresh`, …), its module imported now."""
    module_name, name = _HANDLERS[key]
    module = importlib.import_module(f"feedtui.cli.commands.{module_name}")
    if name in _MARKS:
        return module.marks(name)
    return getattr(module, name)
