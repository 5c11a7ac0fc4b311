"""The arXiv lane's turn and pause, shared through a file between processes."""

from __future__ import annotations

import asyncio
import json
import subprocess
import sys
import time

import pytest

from feedtui.sources.pace import SharedPace


def lock_holder(path, seconds: float) -> subprocess.Popen:
    """Another process that holds the pace file's lock for `seconds` (returned
    once it holds it), as a refresh in another feedtui holds its turn."""
    holder = subprocess.Popen(
        [
            sys.executable, "-c",
            "import fcntl, os, time\n"
            f"fd = os.open({str(path)!r}, os.O_RDWR | os.O_CREAT)\n"
            "fcntl.flock(fd, fcntl.LOCK_EX)\n"
            "print('held', flush=True)\n"
            f"time.sleep({seconds})\n",
        ],
        stdout=subprocess.PIPE,
    )
    assert holder.stdout.readline().strip() == b"held"
    return holder


async def test_a_new_process_waits_out_the_recorded_pause(tmp_path):
    path = tmp_path / "arxiv-pace.json"
    first = SharedPace(path)
    assert await first.take_turn(3.0) == 0.0  # nothing recorded yet
    first.record(time.time() + 2.0)
    first.end_turn()
    wait = await SharedPace(path).take_turn(3.0)
    assert 1.8 < wait <= 2.0


async def test_a_record_from_the_future_means_the_clock_went_back(tmp_path):
    path = tmp_path / "arxiv-pace.json"
    path.write_text(json.dumps({"written": time.time() + 86_400, "not_before": time.time() + 86_400 + 3}))
    assert await SharedPace(path).take_turn(3.0) == 3.0


async def test_a_garbled_record_waits_one_interval(tmp_path):
    path = tmp_path / "arxiv-pace.json"
    path.write_bytes(b'{"written": 17')
    assert await SharedPace(path).take_turn(0.7) == 0.7


async def test_a_pause_in_the_past_costs_nothing(tmp_path):
    path = tmp_path / "arxiv-pace.json"
    path.write_text(json.dumps({"written": time.time() - 10, "not_before": time.time() - 7}))
    assert await SharedPace(path).take_turn(3.0) == 0.0


async def test_one_turn_at_a_time_across_processes(tmp_path):
    path = tmp_path / "arxiv-pace.json"
    holder = lock_holder(path, 0.6)
    try:
        started = time.monotonic()
        await SharedPace(path).take_turn(3.0)
        waited = time.monotonic() - started
    finally:
        holder.kill()
        holder.wait()
    assert waited >= 0.4  # it had to wait for the other process's request to end


async def test_the_turn_of_a_killed_process_is_free_at_once(tmp_path):
    path = tmp_path / "arxiv-pace.json"
    holder = lock_holder(path, 60)
    holder.kill()
    holder.wait()
    assert await asyncio.wait_for(SharedPace(path).take_turn(3.0), timeout=2) == 0.0


async def test_a_record_outside_a_turn_only_ever_extends_the_pause(tmp_path):
    path = tmp_path / "arxiv-pace.json"
    pace = SharedPace(path)
    pace.record(time.time() + 5)
    pace.record(time.time() + 1)  # an earlier moment does not shorten it
    assert json.loads(path.read_text())["not_before"] > time.time() + 4


@pytest.mark.parametrize("unusable", ["missing-dir/arxiv-pace.json", "a-directory"])
async def test_an_unusable_file_never_stops_fetching(tmp_path, unusable):
    (tmp_path / "a-directory").mkdir()
    pace = SharedPace(tmp_path / unusable)
    assert await pace.take_turn(3.0) == 0.0
    pace.record(time.time() + 3)
    pace.end_turn()


async def test_a_hold_does_not_wait_for_another_process_s_turn_and_is_not_lost(tmp_path):
    """That process may hold its turn for minutes, and would end it writing its
    own pause, knowing nothing of the hold: the hold goes aside, for the next turn."""
    path = tmp_path / "arxiv-pace.json"
    holder = lock_holder(path, 60)
    try:
        await asyncio.wait_for(SharedPace(path).hold(time.time() + 200, time.time() + 200), timeout=5)
    finally:
        holder.kill()
        holder.wait()
    later = SharedPace(path)
    assert await later.take_turn(3.0) > 190
    assert later.held_until > time.time() + 190


async def test_a_hold_made_during_another_s_turn_outlives_that_turn_s_own_record(tmp_path):
    """Two lanes on one file: the one in its turn records its pause and ends it;
    the one that was held never takes another turn; a third finds the hold."""
    path = tmp_path / "arxiv-pace.json"
    in_turn, held = SharedPace(path), SharedPace(path)
    assert await in_turn.take_turn(3.0) == 0.0
    await asyncio.wait_for(held.hold(time.time() + 200, time.time() + 200), timeout=5)
    in_turn.record(time.time() + 3.0)
    in_turn.end_turn()

    third = SharedPace(path)
    assert await third.take_turn(3.0) > 190
    assert third.held_until > time.time() + 190
    third.record(time.time() + 3.0)  # the turn's own record keeps the hold
    third.end_turn()
    assert json.loads(path.read_text())["held_until"] > time.time() + 190
    assert held.holds_path.read_bytes() == b""  # taken in: the next turn does not read it again


async def test_a_hold_outside_any_turn_goes_straight_into_the_record(tmp_path):
    path = tmp_path / "arxiv-pace.json"
    path.write_text(json.dumps({"written": time.time(), "not_before": time.time() + 300}))
    await SharedPace(path).hold(time.time() + 100, time.time() + 100)
    record = json.loads(path.read_text())
    assert record["not_before"] > time.time() + 290  # a later pause already there is kept
    assert record["held_until"] > time.time() + 90
    assert not SharedPace(path).holds_path.exists()
