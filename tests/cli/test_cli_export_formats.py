"""`feedtui export ris / csljson / zotero`: the same selection as `export
bibtex`, and Zotero through a loopback stand-in for its connector."""

from __future__ import annotations

import json
import re

import pytest

from tests.cli.test_cli_export import PAPERS, make_env
from tests.clipboard_tools import fake_clipboard_tool
from tests.zotero_standin import ZoteroStandIn, closed_port_url


@pytest.fixture
def env(tmp_path, capsys):
    env = make_env(tmp_path, "data", papers=PAPERS)
    assert env.run("topic", "add", "Widgets", "--query", "abs:widgets") == 0
    capsys.readouterr()
    return env


@pytest.fixture
def zotero():
    stand_in = ZoteroStandIn().start()
    yield stand_in
    stand_in.stop()


def with_zotero(env, url: str) -> None:
    config = env.tmp / "data-config.toml"
    config.write_text(f'[zotero]\nconnector_url = "{url}"\n')


def ris_ids(text: str) -> list[str]:
    return re.findall(r"^AN  - arXiv:(\S+)$", text, re.M)


def csl_numbers(text: str) -> list[str]:
    return [item["number"].removeprefix("arXiv:") for item in json.loads(text)]


READERS = {"ris": ris_ids, "csljson": csl_numbers}


@pytest.mark.parametrize("fmt", ["ris", "csljson"])
def test_ids_topic_and_starred_select_as_for_bibtex(env, capsys, fmt):
    read = READERS[fmt]
    assert env.run("export", fmt, "arXiv:2609.01240v2", "2609.01234") == 0
    assert read(capsys.readouterr().out) == ["2609.01240v2", "2609.01234v1"]
    assert env.run("export", fmt, "--topic", "widgets") == 0
    assert read(capsys.readouterr().out) == ["2609.01240v2", "2609.01234v1"]
    assert env.run("star", "2609.05555", "2609.01234") == 0
    capsys.readouterr()
    assert env.run("export", fmt, "--starred") == 0
    assert read(capsys.readouterr().out) == ["2609.01234v1", "2609.05555v1"]


@pytest.mark.parametrize("fmt", ["ris", "csljson"])
def test_unknown_ids_are_named_and_exit_1_the_rest_still_written(env, capsys, fmt):
    assert env.run("export", fmt, "2609.01234", "2601.99999") == 1
    captured = capsys.readouterr()
    assert READERS[fmt](captured.out) == ["2609.01234v1"]
    assert "feedtui: 2601.99999: not in the cache (refresh first, or check the id)" in captured.err


@pytest.mark.parametrize("fmt", ["ris", "csljson", "zotero"])
def test_exactly_one_selection_is_needed(env, capsys, fmt):
    assert env.run("export", fmt, "--starred", "2609.01234") == 2
    assert f"export {fmt}: give one of --starred, --topic T or paper ids" in capsys.readouterr().err


@pytest.mark.parametrize(("fmt", "what"), [("ris", "2 RIS records"), ("csljson", "2 CSL-JSON items")])
def test_output_to_a_file(env, capsys, fmt, what):
    target = env.tmp / f"refs.{fmt}"
    assert env.run("export", fmt, "--topic", "Widgets", "-o", str(target)) == 0
    captured = capsys.readouterr()
    assert captured.out == "" and f"wrote {what} to {target}" in captured.err
    assert READERS[fmt](target.read_text()) == ["2609.01240v2", "2609.01234v1"]


def test_export_zotero_sends_every_field_to_the_connector(env, capsys, zotero, monkeypatch):
    for proxy in ("http_proxy", "HTTP_PROXY", "all_proxy"):  # Zotero is on this machine: never through a proxy
        monkeypatch.setenv(proxy, closed_port_url())
    with_zotero(env, zotero.url)
    assert env.run("export", "zotero", "2609.01240", "2609.01234") == 0
    assert f"sent 2 papers to Zotero at {zotero.url}" in capsys.readouterr().err
    assert [(r.method, r.path) for r in zotero.received] == [("GET", "/connector/ping"), ("POST", "/connector/saveItems")]
    save = zotero.received[1]
    assert save.headers["content-type"] == "application/json"
    assert save.headers["x-zotero-connector-api-version"] == "3"
    assert save.headers["zotero-allowed-request"] == "1"
    assert not save.headers["user-agent"].startswith("Mozilla/")  # Zotero turns browsers away
    assert save.body["sessionID"]
    cheaper, quantum = save.body["items"]
    assert cheaper["itemType"] == "preprint" and cheaper["title"] == "Cheaper widgets"
    assert cheaper["archiveID"] == "arXiv:2609.01240v2" and cheaper["repository"] == "arXiv"
    assert cheaper["DOI"] == "10.99999/invented.7" and cheaper["date"] == "2026-09-25"
    assert cheaper["url"] == "https://arxiv.org/abs/2609.01240v2"
    assert cheaper["abstractNote"] == "Classical widgets, again."
    assert cheaper["attachments"] == [
        {"title": "Full Text PDF", "url": "https://arxiv.org/pdf/2609.01240v2", "mimeType": "application/pdf", "snapshot": False}
    ]
    assert "https://arxiv.org/pdf/2609.01240v2" in cheaper["notes"][0]["note"]
    assert quantum["creators"] == [
        {"creatorType": "author", "firstName": "Zoë", "lastName": "Ångström"},
        {"creatorType": "author", "firstName": "Bo", "lastName": "Marsh"},
    ]


def test_export_zotero_starred_and_topic(env, capsys, zotero):
    with_zotero(env, zotero.url)
    assert env.run("star", "2609.05555") == 0
    assert env.run("export", "zotero", "--starred") == 0
    assert env.run("export", "zotero", "--topic", "Widgets") == 0
    assert [item["archiveID"] for item in zotero.saved_items()] == ["arXiv:2609.05555v1", "arXiv:2609.01240v2", "arXiv:2609.01234v1"]


def test_export_zotero_when_zotero_is_not_running_copies_the_bibtex(env, capsys, tmp_path, monkeypatch):
    with_zotero(env, closed_port_url())
    got = fake_clipboard_tool(tmp_path / "bin")
    monkeypatch.setenv("PATH", f"{tmp_path / 'bin'}")
    monkeypatch.setenv("DISPLAY", ":0")
    monkeypatch.delenv("SSH_CONNECTION", raising=False)
    monkeypatch.delenv("SSH_CLIENT", raising=False)
    monkeypatch.delenv("SSH_TTY", raising=False)
    assert env.run("export", "zotero", "2609.01234") == 1
    captured = capsys.readouterr()
    assert "feedtui: Zotero is not running: nothing answers at http://127.0.0.1:" in captured.err
    assert "copied 1 BibTeX entry to the clipboard with xclip instead" in captured.err
    assert captured.out == ""
    assert got.read_text().startswith("@misc{angstrom2026quantum,")
    assert (tmp_path / "bin" / "xclip.args").read_text().split() == ["-selection", "clipboard", "-in"]


def test_export_zotero_not_running_without_a_clipboard_tool_prints_the_bibtex(env, capsys, tmp_path, monkeypatch):
    with_zotero(env, closed_port_url())
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert env.run("export", "zotero", "2609.01234") == 1
    captured = capsys.readouterr()
    assert "Zotero is not running" in captured.err and "no clipboard tool here" in captured.err
    assert captured.out.startswith("@misc{angstrom2026quantum,")




def test_export_zotero_refused_says_why_and_falls_back(env, capsys, zotero, tmp_path, monkeypatch):
    zotero.save_status, zotero.save_answer = 500, {"libraryEditable": False}
    with_zotero(env, zotero.url)
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert env.run("export", "zotero", "2609.01234") == 1
    captured = capsys.readouterr()
    assert "Zotero's selected library is read-only" in captured.err
    assert captured.out.startswith("@misc{")


def test_something_else_at_the_address_is_not_taken_for_zotero(env, capsys, tmp_path, monkeypatch, httpserver):
    httpserver.expect_request("/connector/ping").respond_with_data("Not here", status=404)
    with_zotero(env, httpserver.url_for("").rstrip("/"))
    monkeypatch.setenv("PATH", str(tmp_path / "empty"))
    assert env.run("export", "zotero", "2609.01234") == 1
    assert "answered HTTP 404 to a ping, not as Zotero does" in capsys.readouterr().err


def test_export_zotero_works_in_the_demo(tmp_path, capsys, zotero):
    """The demo never reaches the network; Zotero is a program on this machine."""
    from feedtui.cli import main

    config = tmp_path / "config.toml"
    config.write_text(f'[zotero]\nconnector_url = "{zotero.url}"\n')
    where = ["--demo", "--data-dir", str(tmp_path / "data"), "--config", str(config)]
    assert main(["papers", "Edge Inference", "--json", "--limit", "2", *where]) == 0
    ids = [paper["id"] for paper in json.loads(capsys.readouterr().out)]
    assert main(["export", "zotero", *ids, *where]) == 0
    assert "sent 2 papers to Zotero" in capsys.readouterr().err
    assert [item["archiveID"].rpartition("v")[0] for item in zotero.saved_items()] == [f"arXiv:{pid}" for pid in ids]
