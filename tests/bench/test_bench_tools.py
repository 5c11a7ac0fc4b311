"""The bench tools themselves: generator, server, timers, helpers — real files, sockets, tmux."""

from __future__ import annotations

import concurrent.futures
import email.utils
import gzip
import http.client
import json
import os
import re
import shutil
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
from datetime import UTC, datetime, timedelta
from pathlib import Path

import feedparser
import pytest

from bench import common, feeds, newsboat, run
from bench.feedtui_app import PAPER_CACHE, DirWatcher, Launcher, Sandbox
from bench.repaint import RepaintProbe
from bench.server import FeedServer, NotLoopback
from bench.tui_start import TerminalProgram, time_start
from feedtui.store.files import atomic_write

REPO = Path(__file__).resolve().parents[2]
ATOM = "{http://www.w3.org/2005/Atom}"
ARXIV = "{http://arxiv.org/schemas/atom}"
OPENSEARCH = "{http://a9.com/-/spec/opensearch/1.1/}"
NOW = datetime(2026, 11, 29, tzinfo=UTC)
needs_tmux = pytest.mark.skipif(not shutil.which("tmux") or not Path("/usr/bin/time").exists(), reason="needs tmux and /usr/bin/time")


def generate(out: Path, *extra: str) -> subprocess.CompletedProcess:
    return subprocess.run(
        [sys.executable, str(REPO / "bench" / "feeds.py"), str(out), *extra],
        capture_output=True, text=True, timeout=120,
    )


@pytest.fixture(scope="module")
def api_set(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("api")
    feeds.write_feed_set(feeds.FeedSetSpec(feeds=3, entries=40, seed=5, now=NOW), out)
    return out


@pytest.fixture
def served(tmp_path):
    (tmp_path / "feed-000.xml").write_bytes(b"<feed xmlns='http://www.w3.org/2005/Atom'><title>zero</title></feed>\n")
    (tmp_path / "feed-001.xml").write_bytes(b"<rss version='2.0'><channel><title>one</title></channel></rss>\n" * 50)
    with FeedServer(tmp_path, latency_ms=50, gzip=True, log_path=tmp_path / "requests.jsonl") as server:
        yield server, tmp_path


def get(server: FeedServer, path: str, headers: dict | None = None, method: str = "GET"):
    connection = http.client.HTTPConnection("127.0.0.1", server.port, timeout=10)
    connection.request(method, path, headers=headers or {})
    response = connection.getresponse()
    body = response.read()
    connection.close()
    return response, body


def settled(server: FeedServer) -> FeedServer:
    """The server once every connection it took has been handled to the end.
    A handler counts its request after sending the answer, so a client that
    has its answer can ask for the counters (or reset them) before that
    request is counted: on a busy machine, as with the suite's parallel
    workers, it was counted after a reset, or missing from the stats."""
    deadline = time.monotonic() + 10
    while server.stats()["open_connections"] and time.monotonic() < deadline:
        time.sleep(0.005)
    return server


class SettledServer:
    """A FeedServer whose stats and reset wait until it has settled, for the
    bench's own functions that read them right after a client exits."""

    def __init__(self, server: FeedServer) -> None:
        self._server = server

    def __getattr__(self, name: str):
        return getattr(self._server, name)

    def stats(self) -> dict:
        return settled(self._server).stats()

    def reset(self) -> None:
        settled(self._server).reset()


# --- feeds.py ------------------------------------------------------------

def test_same_arguments_give_byte_identical_files_and_another_seed_does_not(tmp_path):
    args = ["--feeds", "3", "--entries", "12", "--seed", "4", "--now", "2026-11-29"]
    assert generate(tmp_path / "one", *args).returncode == 0
    assert generate(tmp_path / "two", *args).returncode == 0
    assert generate(tmp_path / "other", *args[:-3], "5", "--now", "2026-11-29").returncode == 0
    names = sorted(p.name for p in (tmp_path / "one").iterdir())
    assert names == ["feed-000.xml", "feed-001.xml", "feed-002.xml", "manifest.json"]
    for name in names:
        assert (tmp_path / "one" / name).read_bytes() == (tmp_path / "two" / name).read_bytes()
    assert (tmp_path / "one" / "feed-000.xml").read_bytes() != (tmp_path / "other" / "feed-000.xml").read_bytes()


def test_a_feed_does_not_depend_on_how_many_feeds_the_set_has():
    small = feeds.FeedSetSpec(feeds=2, entries=10, seed=9, now=NOW)
    large = feeds.FeedSetSpec(feeds=7, entries=10, seed=9, now=NOW)
    assert feeds.render_feed(small, 1) == feeds.render_feed(large, 1)


def test_api_feeds_parse_and_have_the_arxiv_api_layout(api_set):
    manifest = json.loads((api_set / "manifest.json").read_text())
    assert manifest["entries"] == 120 and len(manifest["files"]) == 3
    ids, authors_per_entry, summaries = [], [], []
    for index in range(3):
        root = ET.parse(api_set / f"feed-{index:03d}.xml").getroot()
        assert root.tag == f"{ATOM}feed"
        assert root.findtext(f"{OPENSEARCH}totalResults") == "40"
        assert root.findtext(f"{OPENSEARCH}itemsPerPage") == "40"
        category = feeds.CATEGORIES[index]
        assert f"cat:{category}" in root.findtext(f"{ATOM}title")
        entries = root.findall(f"{ATOM}entry")
        assert len(entries) == 40
        published = [datetime.fromisoformat(e.findtext(f"{ATOM}published").replace("Z", "+00:00")) for e in entries]
        assert published == sorted(published, reverse=True)
        for entry, when in zip(entries, published):
            match = re.fullmatch(r"http://arxiv\.org/abs/(\d{4})\.(\d{5})v(\d)", entry.findtext(f"{ATOM}id"))
            assert match, entry.findtext(f"{ATOM}id")
            assert match.group(1) == when.strftime("%y%m")
            assert NOW - timedelta(weeks=16) <= when < NOW
            updated = datetime.fromisoformat(entry.findtext(f"{ATOM}updated").replace("Z", "+00:00"))
            assert (updated == when) == (match.group(3) == "1")
            ids.append(match.group(1) + "." + match.group(2))
            assert entry.find(f"{ARXIV}primary_category").get("term") == category
            terms = [c.get("term") for c in entry.findall(f"{ATOM}category")]
            assert terms[0] == category and len(terms) == len(set(terms))
            links = {(l.get("rel"), l.get("title")): l.get("href") for l in entry.findall(f"{ATOM}link")}
            assert links[("alternate", None)].startswith("http://arxiv.org/abs/")
            assert links[("related", "pdf")].startswith("http://arxiv.org/pdf/")
            names = [a.findtext(f"{ATOM}name") for a in entry.findall(f"{ATOM}author")]
            assert names and all(names)
            authors_per_entry.append(len(names))
            summaries.append(entry.findtext(f"{ATOM}summary"))
            assert entry.findtext(f"{ATOM}title").strip()
    assert len(set(ids)) == len(ids) == 120
    assert max(authors_per_entry) >= 20
    for summary in summaries:
        assert summary.startswith("  ") and summary.endswith("\n")
        lines = summary.strip("\n").split("\n")
        assert len(lines) > 8 and all(len(line) <= 80 or " " not in line.strip() for line in lines)
        assert 1000 <= len(" ".join(line.strip() for line in lines)) <= 1800
    text = "".join(summaries)
    assert "\\times$" in text and "$O(" in text and "\\emph{" in text


def test_api_feeds_sometimes_carry_comment_journal_ref_doi_and_several_affiliations(api_set):
    root = ET.parse(api_set / "feed-000.xml").getroot()
    entries = root.findall(f"{ATOM}entry")
    assert any(e.find(f"{ARXIV}comment") is not None for e in entries)
    assert any(e.find(f"{ARXIV}comment") is None for e in entries)
    assert any(e.find(f"{ARXIV}journal_ref") is not None for e in feeds_entries(api_set))
    assert any(e.find(f"{ARXIV}doi") is not None for e in feeds_entries(api_set))
    assert any(len(a.findall(f"{ARXIV}affiliation")) >= 2 for e in entries for a in e.findall(f"{ATOM}author"))


def feeds_entries(folder: Path):
    for path in sorted(folder.glob("feed-*.xml")):
        yield from ET.parse(path).getroot().findall(f"{ATOM}entry")


def test_feedparser_reads_the_api_feeds_without_complaint(api_set):
    parsed = feedparser.parse((api_set / "feed-001.xml").read_bytes())
    assert not parsed.bozo
    assert len(parsed.entries) == 40
    entry = parsed.entries[0]
    assert entry.arxiv_primary_category["term"] == feeds.CATEGORIES[1]
    assert entry.authors and entry.summary and entry.title


def test_rss_style_has_the_category_feed_layout(tmp_path):
    spec = feeds.FeedSetSpec(feeds=2, entries=30, seed=3, now=NOW, style="rss")
    feeds.write_feed_set(spec, tmp_path)
    root = ET.parse(tmp_path / "feed-001.xml").getroot()
    assert root.tag == "rss" and root.get("version") == "2.0"
    items = root.findall("channel/item")
    assert len(items) == 30
    kinds = set()
    for item in items:
        description = item.findtext("description")
        match = re.match(r"arXiv:(\d{4}\.\d{5})v(\d) Announce Type: (\S+) \nAbstract: \S", description)
        assert match, description[:80]
        kinds.add(match.group(3))
        assert item.findtext(f"{ARXIV}announce_type") == match.group(3)
        assert item.findtext("guid") == f"oai:arXiv.org:{match.group(1)}v{match.group(2)}"
        assert item.findtext("link") == f"https://arxiv.org/abs/{match.group(1)}"
        creators = item.findall("{http://purl.org/dc/elements/1.1/}creator")
        assert len(creators) == 1 and creators[0].text.strip()
        assert email.utils.parsedate_to_datetime(item.findtext("pubDate")).weekday() < 5
    assert {"new", "cross"} <= kinds
    assert not feedparser.parse((tmp_path / "feed-001.xml").read_bytes()).bozo


def test_bad_arguments_get_a_clear_message(tmp_path):
    done = generate(tmp_path / "x", "--feeds", "0")
    assert done.returncode == 2 and "at least 1" in done.stderr
    done = generate(tmp_path / "x", "--feeds", "1000", "--entries", "100")
    assert done.returncode == 2 and "five digits" in done.stderr
    done = generate(tmp_path / "x", "--now", "yesterday")
    assert done.returncode == 2 and "not a date" in done.stderr


# --- server.py -----------------------------------------------------------

def test_etag_turns_the_second_request_into_a_304(served):
    server, folder = served
    first, body = get(server, "/feed-000.xml")
    assert first.status == 200 and body == (folder / "feed-000.xml").read_bytes()
    assert first.headers["Content-Type"].startswith("application/atom+xml")
    etag = first.headers["ETag"]
    assert re.fullmatch(r'"[0-9a-f]+"', etag)
    second, body = get(server, "/feed-000.xml", {"If-None-Match": etag})
    assert second.status == 304 and body == b"" and second.headers["ETag"] == etag
    changed, _ = get(server, "/feed-000.xml", {"If-None-Match": '"something-else"'})
    assert changed.status == 200


def test_httpx_floor_makes_the_conditional_gets_and_fails_on_any_other_answer(served, tmp_path):
    server, _ = served
    names = ("/feed-000.xml", "/feed-001.xml")
    # httpx asks for gzip, and a gzipped answer has its own ETag.
    validators = {server.url(name.lstrip("/")): get(server, name, {"Accept-Encoding": "gzip"})[0].headers["ETag"] for name in names}
    script = [sys.executable, str(REPO / "bench" / "httpx_floor.py")]

    def floor(validators: dict[str, str]) -> subprocess.CompletedProcess:
        path = tmp_path / "validators.json"
        path.write_text(json.dumps(validators), encoding="utf-8")
        return subprocess.run([*script, str(path)], capture_output=True, text=True, timeout=60, env=common.bare_env(tmp_path))

    settled(server).reset()
    answered = floor(validators)
    assert answered.returncode == 0, answered.stderr
    figures = json.loads(answered.stdout)
    assert figures["statuses"] == [304] and figures["imports_s"] > 0
    # Both requests waited out the server's 50 ms, together.
    assert figures["requests_s"] >= 0.05
    assert settled(server).stats()["by_status"] == {"304": 2}
    stale = floor({**validators, server.url("feed-001.xml"): '"not-its-etag"'})
    assert stale.returncode == 1 and json.loads(stale.stdout)["statuses"] == [200, 304]


def test_last_modified_gives_304_until_the_file_changes(served):
    server, folder = served
    first, _ = get(server, "/feed-001.xml")
    stamp = first.headers["Last-Modified"]
    assert get(server, "/feed-001.xml", {"If-Modified-Since": stamp})[0].status == 304
    earlier = email.utils.format_datetime(email.utils.parsedate_to_datetime(stamp) - timedelta(hours=1), usegmt=True)
    assert get(server, "/feed-001.xml", {"If-Modified-Since": earlier})[0].status == 200
    path = folder / "feed-001.xml"
    path.write_bytes(path.read_bytes() + b"<!-- new -->\n")
    later = time.time() + 3600
    os.utime(path, (later, later))
    response, body = get(server, "/feed-001.xml", {"If-Modified-Since": stamp, "If-None-Match": first.headers["ETag"]})
    assert response.status == 200 and body.endswith(b"<!-- new -->\n")


def test_latency_is_honoured_and_requests_overlap(served):
    server, _ = served
    started = time.perf_counter()
    assert get(server, "/feed-000.xml")[0].status == 200
    assert time.perf_counter() - started >= 0.05
    server.reset()
    with concurrent.futures.ThreadPoolExecutor(6) as pool:
        statuses = list(pool.map(lambda _: get(server, "/feed-000.xml")[0].status, range(6)))
    assert statuses == [200] * 6
    assert server.stats()["max_in_flight"] >= 2


def test_stats_count_requests_and_reset_zeroes_them(served):
    server, folder = served
    get(server, "/__reset")
    etag = get(server, "/feed-000.xml")[0].headers["ETag"]
    get(server, "/feed-000.xml", {"If-None-Match": etag})
    get(server, "/feed-001.xml")
    get(server, "/missing.xml")
    stats = json.loads(get(settled(server), "/__stats")[1])
    assert stats["requests"] == 4
    assert stats["by_status"] == {"200": 2, "304": 1, "404": 1}
    assert stats["by_path"] == {"/feed-000.xml": 2, "/feed-001.xml": 1, "/missing.xml": 1}
    assert stats["conditional_requests"] == 1
    expected = (folder / "feed-000.xml").stat().st_size + (folder / "feed-001.xml").stat().st_size + len(b"not found\n")
    assert stats["body_bytes"] == expected
    assert stats["max_connections"] >= 1
    after = json.loads(get(server, "/__reset")[1])
    assert after["requests"] == 0 and after["by_status"] == {}
    lines = [json.loads(l) for l in (folder / "requests.jsonl").read_text().splitlines()]
    assert [l["status"] for l in lines[-4:]] == [200, 304, 200, 404]
    assert all(l["arrived"] > 1e9 and l["ms"] >= 50 for l in lines[-4:])


def test_gzip_only_for_clients_that_ask_and_with_its_own_etag(served, tmp_path):
    server, folder = served
    plain, plain_body = get(server, "/feed-001.xml")
    packed, packed_body = get(server, "/feed-001.xml", {"Accept-Encoding": "gzip, deflate"})
    assert "Content-Encoding" not in plain.headers
    assert packed.headers["Content-Encoding"] == "gzip"
    assert gzip.decompress(packed_body) == plain_body == (folder / "feed-001.xml").read_bytes()
    assert len(packed_body) < len(plain_body)
    assert packed.headers["ETag"] != plain.headers["ETag"]
    assert get(server, "/feed-001.xml", {"Accept-Encoding": "gzip", "If-None-Match": packed.headers["ETag"]})[0].status == 304
    (tmp_path / "other").mkdir()
    shutil.copy(folder / "feed-001.xml", tmp_path / "other" / "f.xml")
    with FeedServer(tmp_path / "other") as no_gzip:
        response, _ = get(no_gzip, "/f.xml", {"Accept-Encoding": "gzip"})
        assert "Content-Encoding" not in response.headers


def test_query_strings_are_ignored_and_nothing_outside_the_folder_is_served(served):
    server, folder = served
    response, body = get(server, "/feed-001.xml?search_query=cat:cs.DC&start=100&max_results=50")
    assert response.status == 200 and body == (folder / "feed-001.xml").read_bytes()
    assert get(server, "/%2e%2e/%2e%2e/etc/passwd")[0].status == 404
    assert get(server, "/")[0].status == 404
    head, body = get(server, "/feed-001.xml", method="HEAD")
    assert head.status == 200 and body == b"" and int(head.headers["Content-Length"]) > 0


def test_only_loopback_addresses_are_accepted(tmp_path):
    for host in ("0.0.0.0", "192.168.1.10", "::", "example.org"):
        with pytest.raises(NotLoopback):
            FeedServer(tmp_path, host=host)
    (tmp_path / "a.xml").write_text("<feed/>")
    with FeedServer(tmp_path, host="127.0.0.2") as other:
        assert other.base_url.startswith("http://127.0.0.2:")
        connection = http.client.HTTPConnection("127.0.0.2", other.port, timeout=10)
        connection.request("GET", "/a.xml")
        assert connection.getresponse().status == 200
    done = subprocess.run(
        [sys.executable, str(REPO / "bench" / "server.py"), str(tmp_path), "--host", "0.0.0.0"],
        capture_output=True, text=True, timeout=30,
    )
    assert done.returncode == 2 and "loopback" in done.stderr


def test_command_line_server_writes_its_port_and_stops_by_itself(tmp_path):
    (tmp_path / "feed.xml").write_text("<feed/>")
    port_file = tmp_path / "port"
    process = subprocess.Popen(
        [sys.executable, str(REPO / "bench" / "server.py"), str(tmp_path), "--port", "0", "--port-file", str(port_file),
         "--max-seconds", "1", "--latency-ms", "10"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
    )
    try:
        deadline = time.monotonic() + 10
        while not port_file.exists() and time.monotonic() < deadline:
            time.sleep(0.02)
        port = int(port_file.read_text())
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        connection.request("GET", "/feed.xml?x=1")
        assert connection.getresponse().read() == b"<feed/>"
        assert process.wait(timeout=15) == 0
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()


# --- tui_start.py and repaint.py ----------------------------------------------

@needs_tmux
def test_tui_start_times_a_program_until_its_screen_matches():
    timing = time_start(["bash", "-c", "sleep 0.3; echo READY; echo second line; sleep 30"], ["^READY$", "second"], quit_keys=["C-c"])
    assert timing.ready_s is not None and 0.3 <= timing.ready_s < 5
    assert timing.launch_s >= timing.ready_s
    assert "READY" in timing.screen
    assert timing.quit_s is not None and timing.max_rss_kb and timing.max_rss_kb > 0
    assert not timing.timed_out and not timing.exited_early


@needs_tmux
def test_tui_start_reports_a_timeout_and_an_early_exit():
    never = time_start(["bash", "-c", "echo nothing to see; sleep 30"], ["READY"], timeout=0.5)
    assert never.timed_out and never.ready_s is None and "nothing to see" in never.screen
    assert never.max_rss_kb and never.max_rss_kb > 0  # killed with SIGTERM, so /usr/bin/time still reported
    gone = time_start(["bash", "-c", "echo bye; sleep 0.2"], ["READY"], timeout=10)
    assert gone.exited_early and not gone.timed_out and gone.exit_status == 0 and "bye" in gone.screen


@needs_tmux
def test_tui_start_command_line_prints_json(tmp_path):
    done = subprocess.run(
        [sys.executable, str(REPO / "bench" / "tui_start.py"), "--ready", "READY", "--quit", "C-c", "--screen-file", str(tmp_path / "s"),
         "--", "sh", "-c", "echo READY; sleep 30"],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["ready_s"] is not None and data["ready_s"] < 5 and data["polls"] >= 1
    assert "READY" in (tmp_path / "s").read_text()


@needs_tmux
def test_textual_floor_paints_the_lines_the_start_figures_wait_for_and_quits_on_q(tmp_path):
    from bench.feedtui_app import LIST_TITLE

    cmd = [sys.executable, str(REPO / "bench" / "textual_floor.py"), "Topic [x] 7", "12345"]
    # In a bare environment, as the suite runs it and feedtui (given all of
    # pytest's, the tmux pane stayed blank here).
    env = common.bare_env(tmp_path)
    timing = time_start(cmd, [re.escape("Topic [x] 7"), LIST_TITLE], quit_keys=["q"], cols=100, rows=20, timeout=30, env=env)
    assert timing.ready_s is not None, timing.screen
    # The count as feedtui shows it, and the name as given (not read as markup).
    assert "Latest papers (12,345)" in timing.screen and "Topic [x] 7" in timing.screen
    assert timing.quit_s is not None and timing.exit_status == 0


@needs_tmux
def test_textual_floor_card_list_repaints_for_every_j_and_scrolls_at_the_bottom(tmp_path):
    cmd = [sys.executable, str(REPO / "bench" / "textual_floor.py"), "--cards", "40"]
    with TerminalProgram(cmd, cols=80, rows=12, env=common.bare_env(tmp_path)) as program:
        matched, screen, _, _ = program.wait_for([re.compile(r"Latest papers \(40\)")], poll_s=0.02, timeout=30)
        assert matched is not None, screen
        assert "Invented line 0 of a card" in screen and "Invented line 12 of" not in screen
        with RepaintProbe(program, quiet_s=0.05) as probe:
            probe.settle()
            timings = probe.time_keys(["j"] * 12)
        assert timings.unanswered == 0 and len(timings.latencies_s) == 12
        # Eleven rows under the title hold three cards and a line; the
        # cursor's card (the 13th, lines 36-38) is now the last one shown.
        screen = program.screen()
        assert "Invented line 38 of a card" in screen and "Invented line 0 of" not in screen
        program.quit(["q"], 10)


@needs_tmux
def test_repaint_probe_times_echoed_keys_and_notices_silence():
    with TerminalProgram(["cat"], cols=80, rows=24) as program, RepaintProbe(program, quiet_s=0.03) as probe:
        timings = probe.time_keys(["a", "b", "c", "Enter"])
        assert len(timings.latencies_s) == 4 and timings.unanswered == 0
        assert all(0 < t < 2 for t in timings.latencies_s)
        assert "abc" in program.screen()
    with TerminalProgram(["sh", "-c", "stty -echo; echo quiet; sleep 30"], cols=80, rows=24) as program:
        program.wait_for([re.compile("quiet")], poll_s=0.01, timeout=10)
        with RepaintProbe(program, quiet_s=0.03, answer_timeout_s=0.3) as probe:
            timings = probe.time_keys(["x", "y"])
        assert timings.unanswered == 2 and not timings.latencies_s


# --- common.py, feedtui_app.py, run.py ----------------------------------------------

def test_run_measured_reports_time_cpu_and_memory():
    sample = common.run_measured([sys.executable, "-c", "b = bytearray(60_000_000); print(len(b)); sum(range(3_000_000))"])
    assert sample.stdout.strip() == "60000000"
    assert sample.max_rss_kb > 50_000
    assert sample.cpu_s > 0 and sample.wall_s >= sample.cpu_s * 0.5
    with pytest.raises(common.MeasureError, match="exit status 3"):
        common.run_measured([sys.executable, "-c", "import sys; sys.exit(3)"])
    with pytest.raises(common.MeasureError, match="killed"):
        common.run_measured(["sleep", "10"], timeout=0.3)


def test_a_measured_programs_peak_rss_is_its_own_not_the_runners():
    # Linux keeps a process's peak RSS across exec: a program started straight
    # from a runner that once held 300 MB read as at least 300 MB.
    held = bytearray(300 * 1024 * 1024)
    held[:: 4096] = b"\1" * len(held[:: 4096])  # every page touched
    del held
    sample = common.run_measured([sys.executable, "-S", "-c", "pass"])
    assert sample.max_rss_kb < 100_000
    with pytest.raises(common.MeasureError, match="exit status -9"):
        common.run_measured([sys.executable, "-c", "import os, signal; os.kill(os.getpid(), signal.SIGKILL)"])


def test_stats_and_the_markdown_table():
    runs = common.stat([3.0, 1.0, 2.0, 10.0, 4.0])
    assert (runs.median, runs.low, runs.high, runs.percentile(95), runs.percentile(50)) == (3.0, 1.0, 10.0, 10.0, 3.0)
    table = common.markdown_table([
        common.Row("cold refresh", "s", common.stat([1.0, 1.2, 0.9]), common.stat([2.0, 2.1, 2.2]), "≤ 1.5 s", "a|b", met=True),
        common.Row("all-304", "s", common.stat([0.7]), None, "≤ 0.5 s", met=False),
        common.Row("memory", "MB", "failed: boom", None),
    ])
    lines = table.splitlines()
    assert lines[0] == "| figure | feedtui | newsboat | feedtui ÷ newsboat | target | met | notes |"
    assert lines[1].count("|") == lines[0].count("|")
    assert lines[2] == "| cold refresh | 1.00 s [0.900–1.20] | 2.10 s [2.00–2.20] | 0.48× | ≤ 1.5 s | yes | a\\|b |"
    assert lines[3] == "| all-304 | 0.700 s | – |  | ≤ 0.5 s | **no** |  |"
    assert lines[4] == "| memory | failed: boom | – |  |  |  |  |"


def test_each_target_is_judged_on_feedtuis_median():
    results = run.Results()
    results.put("refresh.cold", "feedtui", common.stat([1.4, 1.6, 1.5]))  # median 1.5: at the bound is met
    results.put("refresh.warm", "feedtui", common.stat([0.4, 0.6, 0.7]))  # median 0.6
    results.put("refresh.cold.cpu", "feedtui", common.stat([9.0]))  # a figure with no target
    results.put("start.5k", "feedtui", "failed: boom")
    results.put("start.5k", "newsboat", common.stat([0.1]))  # newsboat's figure is never judged
    results.put("marks.write", "feedtui", common.stat([6.0]))  # a target that is no number
    results.judge("marks.write", False)
    rows = {row.figure: row.met for row in results.rows()}

    def met(label_start: str) -> bool | None:
        (value,) = [value for label, value in rows.items() if label.startswith(label_start)]
        return value

    assert met("1. cold refresh, 50 feeds") is True
    assert met("2. all-304 refresh — wall") is False
    assert met("1. cold refresh — CPU") is None
    assert met("3. start → list painted, 5k") is None
    assert met("6. 1,000 mark-reads — bytes written") is False
    assert met("7. topic add") is None  # not measured
    assert results.to_json()["met"] == {"refresh.cold": True, "refresh.warm": False, "marks.write": False}


def test_each_limit_is_its_targets_number():
    for figure in run.FIGURES:
        if not figure.target.startswith("≤"):
            assert figure.limit is None, figure.key
            continue
        number, unit = figure.target.removeprefix("≤").split()
        assert (float(number), unit) == (figure.limit, figure.unit), figure.key


def test_machine_facts_name_the_versions():
    facts = common.machine_facts()
    assert facts["python"] == ".".join(map(str, sys.version_info[:3]))
    assert facts["textual"] and facts["feedparser"] and "cores" in facts


def test_dir_watcher_stamps_changes(tmp_path):
    watcher = DirWatcher(tmp_path, interval_s=0.005)
    watcher.start()
    try:
        (tmp_path / "state.json").write_text("{}")
        deadline = time.monotonic() + 5
        while not watcher.changes and time.monotonic() < deadline:
            time.sleep(0.01)
        assert len(watcher.changes) >= 1
    finally:
        watcher.stop()


def test_dir_watcher_keeps_the_paths_that_changed(tmp_path):
    (tmp_path / "cache" / "papers").mkdir(parents=True)
    week = tmp_path / "cache" / "papers" / "2026-W48.json"
    week.write_text("[]")
    (tmp_path / "cache-notes.txt").write_text("not the cache")
    watcher = DirWatcher(tmp_path, interval_s=0.005)
    watcher.start()
    try:
        (tmp_path / "state.json").write_text("{}")
        (tmp_path / "cache-notes.txt").write_text("still not the cache")
        deadline = time.monotonic() + 5
        while len(watcher.changed_paths) < 2 and time.monotonic() < deadline:
            time.sleep(0.01)
        assert watcher.changed_paths == {"state.json", "cache-notes.txt"}
        assert watcher.changed_under("cache") == set()
        week.write_text('[{"id": "2612.00001"}]')
        deadline = time.monotonic() + 5
        while "cache/papers/2026-W48.json" not in watcher.changed_under("cache") and time.monotonic() < deadline:
            time.sleep(0.01)
        assert watcher.changed_under("cache") == {"cache/papers/2026-W48.json"}
    finally:
        watcher.stop()


def test_dir_watcher_sees_a_same_size_atomic_rewrite_and_a_last_look(tmp_path):
    """feedtui writes its files as a temporary file renamed over the old one;
    a rewrite of the same size is still a new inode, and `observe` after the
    watch has stopped (the reader quitting) still counts."""
    week = tmp_path / "cache" / "papers" / "2026-W48.json"
    week.parent.mkdir(parents=True)
    atomic_write(week, b'{"a": 1}')
    watcher = DirWatcher(tmp_path, interval_s=0.005)
    watcher.start()
    try:
        atomic_write(week, b'{"a": 2}')
        deadline = time.monotonic() + 5
        while "cache/papers/2026-W48.json" not in watcher.changed_under("cache") and time.monotonic() < deadline:
            time.sleep(0.01)
        assert "cache/papers/2026-W48.json" in watcher.changed_under("cache")
    finally:
        watcher.stop()
    (tmp_path / "cache" / "tags.json").write_text("{}")
    assert watcher.observe() is True
    assert "cache/tags.json" in watcher.changed_under("cache")


def test_dir_watcher_lives_through_folders_that_vanish_while_it_looks(tmp_path):
    """A folder removed while the tree is listed raised out of the watch and
    ended it, so later writes went unseen and 'no rewrite' read as met."""
    watcher = DirWatcher(tmp_path, interval_s=0.0)
    watcher.start()
    try:
        for round_ in range(400):
            folder = tmp_path / "cache" / f"tmp-{round_}" / "deep"
            folder.mkdir(parents=True)
            shutil.rmtree(folder.parent)
        assert watcher.is_alive()
        (tmp_path / "cache" / "papers.json").write_text("[]")
        deadline = time.monotonic() + 5
        while "cache/papers.json" not in watcher.changed_paths and time.monotonic() < deadline:
            time.sleep(0.01)
        assert "cache/papers.json" in watcher.changed_paths
    finally:
        watcher.stop()


def test_a_failed_watch_fails_the_figure(tmp_path):
    watcher = DirWatcher(tmp_path, interval_s=0.005)
    watcher.observe = lambda: 1 / 0  # type: ignore[method-assign]
    watcher.start()
    watcher.join(timeout=5)
    with pytest.raises(common.MeasureError, match="ZeroDivisionError"):
        watcher.stop()


def test_the_paper_cache_folder_is_where_feedtui_keeps_its_papers(tmp_path):
    """The marks' 'no rewrite' verdict watches PAPER_CACHE: a name feedtui
    does not use would make it hold whatever the reader wrote."""
    sandbox = Sandbox.create(tmp_path / "sandbox", Launcher.from_checkout(sys.executable))
    sandbox.run("topics")
    cache = sandbox.data_dir / PAPER_CACHE
    assert (cache / "papers").is_dir() and (cache / "index").is_dir()
    assert not any(cache.rglob("state.json"))


def test_run_sections_are_parsed_and_checked():
    assert run.parse_sections("newsboat, selftest") == ["selftest", "newsboat"]
    with pytest.raises(Exception, match="unknown section"):
        run.parse_sections("warp")
    assert set(run.SECTION_FIGURES["newsboat"]) <= {f.key for f in run.FIGURES}


@pytest.mark.skipif(not newsboat.available(), reason="newsboat is not installed")
def test_newsboat_reloads_go_cold_then_all_304_on_the_third(tmp_path):
    folder = tmp_path / "feeds"
    feeds.write_feed_set(feeds.FeedSetSpec(feeds=2, entries=5, seed=1, now=datetime.now(UTC)), folder)
    with FeedServer(folder) as server:
        urls = [server.url(f"feed-00{i}.xml") for i in range(2)]
        stats = newsboat.reload_figures(urls, SettledServer(server), tmp_path / "nb", runs=1, threads=2)
    assert stats["cold.status_200"].median == 2 and stats["cold.articles"].median == 10
    assert stats["warm2.status_304"].median == 2 and stats["warm2.status_200"].median == 0


def test_bench_library_times_each_step_on_a_real_cache(tmp_path):
    from feedtui.config import load_config
    from feedtui.core.engine import open_engine
    from feedtui.model import TopicDefinition
    from tests.factories import make_paper

    (tmp_path / "config.toml").write_text("")
    engine = open_engine(load_config(tmp_path / "config.toml"), tmp_path / "data")
    papers = [make_paper(f"2611.{n:05d}", published=NOW - timedelta(days=n)) for n in range(40)]
    engine.cache.store(papers, {})
    engine.add_topic("Bench library", TopicDefinition(query="cat:cs.DC"))
    engine.ensure_tagged()
    engine.close()
    done = subprocess.run(
        [sys.executable, str(REPO / "bench" / "bench_library.py"), "--child", str(tmp_path)],
        env=dict(os.environ, PYTHONPATH=str(REPO / "src")), capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    run = json.loads(done.stdout)
    assert list(run["ms"]) == ["index", "tags", "library", "members", "momenta"]
    assert all(value >= 0 for value in run["ms"].values())
    assert (run["papers"], run["memberships"]) == (40, 40)


def test_key_path_splits_each_key_at_its_arrival_and_its_last_write():
    from bench.key_path import split_keys

    log = [
        "9.000000 key j",  # an earlier key, not the probe's
        "10.002000 key j",
        "10.002100 key j",  # the same key, forwarded: not a second one
        "10.009000 written 6600",
        "10.010000 written 40",
        "20.001000 key j",
        "20.001200 key j",
        "20.012000 written 6500",
    ]
    parts = split_keys([10.0, 20.0], [10.013, 20.015], log)
    assert [round(v * 1000, 3) for v in parts["input"]] == [2.0, 1.0]
    assert [round(v * 1000, 3) for v in parts["app"]] == [8.0, 11.0]
    assert [round(v * 1000, 3) for v in parts["terminal"]] == [3.0, 3.0]
    assert [round(v * 1000, 3) for v in parts["whole key"]] == [13.0, 15.0]
    # A key the probe saw no repaint for is left out.
    assert split_keys([10.0, 20.0], [None, 20.015], log)["whole key"] == [parts["whole key"][1]]
