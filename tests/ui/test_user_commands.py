"""[commands]: the user's own programs, bound through [keymap], listed in the
help and the palette, run on the paper under the cursor as real processes
(scripts in tmp_path that record their arguments)."""

from __future__ import annotations

import json
import os
import shlex
import time
from pathlib import Path

from feedtui.config import load_config
from feedtui.core.engine import Engine
from feedtui.ui.app import FeedtuiApp
from feedtui.ui.screens.help import HelpScreen
from feedtui.ui.widgets.paper_list import PaperList
from feedtui.ui.user_commands import first_line, run_argv

from tests.ui.conftest import NOW
from tests.ui.test_app import SIZE, open_detail, ready, told, until


def recorder(tmp_path: Path, name: str, then: str = "") -> tuple[Path, Path]:
    """A program that writes its arguments as JSON (one per item, as
    received) and a copy of any .bib file it is given, then runs `then`."""
    record = tmp_path / f"{name}.json"
    program = tmp_path / name
    program.write_text(
        "#!/usr/bin/env python3\n"
        "import json, sys, pathlib\n"
        f"out = pathlib.Path({str(record)!r})\n"
        "bib = [pathlib.Path(a).read_text() for a in sys.argv[1:] if a.endswith('.bib')]\n"
        "out.write_text(json.dumps({'argv': sys.argv[1:], 'bib': bib}))\n"
        f"{then}\n",
        encoding="utf-8",
    )
    program.chmod(0o755)
    return program, record


def start(tmp_path: Path, make_engine, config_text: str) -> FeedtuiApp:
    data = tmp_path / "data"
    make_engine(data_dir=data).close()
    path = tmp_path / "config.toml"
    path.write_text("[general]\nauto_refresh = false\n" + config_text, encoding="utf-8")
    engine = Engine(load_config(path), data, clock=lambda: NOW)
    engine.load_library()
    return FeedtuiApp(engine)


def toml_list(*items: str) -> str:
    return json.dumps(list(items))


async def test_a_command_bound_in_the_keymap_runs_on_the_paper_and_says_how_it_ended(tmp_path, make_engine):
    program, record = recorder(tmp_path, "keep", then="print('\\x1b[31mkept [b]it[/b]\\x1b[0m'); sys.exit(0)")
    app = start(
        tmp_path, make_engine,
        f"[commands]\nkeep = {toml_list(str(program), '--', '{id}', '{url}', '{bibtex_file}')}\n"
        '[keymap]\ncommand.keep = "P"\n',
    )
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.query_one(PaperList).focus()
        await pilot.press("P")
        await until(pilot, lambda: told(app, "keep: done"), tries=250)
        got = json.loads(record.read_text())
        assert got["argv"][:3] == ["--", "2611.00001", "https://arxiv.org/abs/2611.00001v1"]
        assert got["argv"][3].endswith(".bib") and not Path(got["argv"][3]).exists()  # removed once it ended
        assert got["bib"][0].startswith("@misc{quill2026widget,")
        message = next(n for n in app._notifications if n.message.startswith("keep:"))
        # The escape sequence is gone, and the brackets are text, not markup.
        assert message.message == "keep: done (exit status 0): kept [b]it[/b]"
        assert message.markup is False
        record.unlink()
        await open_detail(pilot, main)
        await pilot.press("P")
        await until(pilot, lambda: record.exists(), tries=250)
        assert json.loads(record.read_text())["argv"][1] == "2611.00001"


async def test_a_paper_without_the_field_is_told_and_the_command_is_not_run(tmp_path, make_engine):
    program, record = recorder(tmp_path, "doi")
    app = start(tmp_path, make_engine, f"[commands]\ndoi = {toml_list(str(program), '{doi}')}\n[keymap]\ncommand.doi = \"ctrl+t\"\n")
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.query_one(PaperList).focus()
        await pilot.press("ctrl+t")
        await until(pilot, lambda: told(app, "doi: this paper has no DOI for {doi}; not run"), tries=250)
        assert not record.exists()


async def test_a_failing_command_shows_its_status_and_first_line(tmp_path, make_engine):
    program, _ = recorder(tmp_path, "fails", then="print('', file=sys.stderr); print('no such library', file=sys.stderr); sys.exit(3)")
    app = start(tmp_path, make_engine, f"[commands]\nfails = {toml_list(str(program), '{id}')}\n")
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.query_one(PaperList).focus()
        await app.run_action("run_command('fails')")
        await until(pilot, lambda: told(app, "fails: failed (exit status 3): no such library"), tries=250)


async def test_the_help_and_the_palette_list_every_command_with_its_key(tmp_path, make_engine):
    app = start(
        tmp_path, make_engine,
        '[commands]\npapis = ["papis", "add", "{id}"]\nnotes = ["notes", "{url}"]\n[keymap]\ncommand.papis = "P"\n',
    )
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.query_one(PaperList).focus()
        await pilot.press("question_mark")
        await until(pilot, lambda: isinstance(app.screen, HelpScreen))
        rows = {b.id: (b.key, b.tooltip) for b in app.screen.shown_bindings()}
        assert rows["command.papis"] == ("P", "Run papis: papis add {id}")
        assert rows["command.notes"] == ("", "Run notes: notes {url}")
        await pilot.press("escape")
        await pilot.pause()
        commands = {c.title: c.help for c in app.get_system_commands(main)}
        assert commands["Run papis"] == "P · command.papis"
        assert commands["Run notes"] == " · command.notes"


def test_a_command_that_runs_too_long_is_stopped_with_what_it_started(tmp_path):
    marker = tmp_path / "child-alive"
    script = (
        f"(sleep 3; touch {shlex.quote(str(marker))}) & echo started; sleep 30"
    )
    began = time.monotonic()
    ran = run_argv(["sh", "-c", script], timeout=0.5)
    assert ran.timed_out and ran.first_line == "started"
    assert time.monotonic() - began < 10
    time.sleep(3.5)
    assert not marker.exists()  # the child it started was stopped too


def test_a_program_that_is_not_there_is_said_and_output_is_plain_text(tmp_path):
    ran = run_argv([str(tmp_path / "nothing-here")], timeout=5)
    assert ran.status is None and ran.not_started == "No such file or directory"
    assert first_line(b"\n\x1b]0;title\x07\xff  one  line \nsecond") == "\ufffd one line"


async def test_quitting_stops_a_command_still_running(tmp_path, make_engine):
    pid_file = tmp_path / "pid"
    program = tmp_path / "slow"
    program.write_text(f"#!/bin/sh\necho $$ > {shlex.quote(str(pid_file))}\nexec sleep 30\n", encoding="utf-8")
    program.chmod(0o755)
    app = start(tmp_path, make_engine, f"[commands]\nslow = {toml_list(str(program), '{id}')}\n")
    began = time.monotonic()
    async with app.run_test(size=SIZE) as pilot:
        main = await ready(pilot)
        main.query_one(PaperList).focus()
        await app.run_action("run_command('slow')")
        await until(pilot, lambda: pid_file.exists() and pid_file.read_text().strip(), tries=250)
        await pilot.press("q")
        await until(pilot, lambda: not app.is_running, tries=250, or_go_on=True)
    assert time.monotonic() - began < 20
    pid = int(pid_file.read_text())
    for _ in range(100):
        try:
            os.kill(pid, 0)
        except ProcessLookupError:
            break
        time.sleep(0.05)
    else:
        raise AssertionError("the command still runs after the app quit")
