from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

import feedtui.store.files as files
from feedtui.store.files import atomic_write, keep_aside, remove_stale_temporaries


def temp_name(target: str, pid: int) -> str:
    return f".{target}.{pid}.0badc0de.tmp"


def test_leftovers_of_dead_processes_are_removed_and_live_ones_kept(tmp_path):
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    dead_pid = int(finished.stdout)
    sleeper = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(30)"])
    try:
        dead = tmp_path / temp_name("state.json", dead_pid)
        live = tmp_path / temp_name("state.json", sleeper.pid)
        mine = tmp_path / temp_name("state.json", os.getpid())  # a reused pid: not being written
        for path in (dead, live, mine):
            path.write_bytes(b"half a file")
        remove_stale_temporaries(tmp_path)
        assert not dead.exists() and not mine.exists()
        assert live.exists()
    finally:
        sleeper.kill()
        sleeper.wait()


def test_a_write_in_progress_in_this_process_is_not_taken_for_a_leftover(tmp_path, monkeypatch):
    """Another engine opening the same directory cleans up while this one writes."""
    real_fsync = os.fsync

    def fsync_then_clean_up(fd):
        real_fsync(fd)
        remove_stale_temporaries(tmp_path)

    monkeypatch.setattr(files.os, "fsync", fsync_then_clean_up)
    atomic_write(tmp_path / "state.json", b'{"ok": {}}')
    assert (tmp_path / "state.json").read_bytes() == b'{"ok": {}}'
    assert list(tmp_path.glob(".*.tmp")) == []


@pytest.mark.parametrize("sync", [True, False])
def test_a_durable_write_syncs_the_new_file_before_the_rename_and_the_folder_after(tmp_path, monkeypatch, sync):
    """The order that makes a power loss leave the old file or the whole new
    one; without `sync` (files that check themselves when read), no fsync."""
    calls: list[tuple[str, str]] = []
    real_fsync, real_replace = os.fsync, os.replace

    def fsync(fd):
        calls.append(("fsync", os.readlink(f"/proc/self/fd/{fd}")))
        real_fsync(fd)

    def replace(source, target):
        calls.append(("replace", f"{Path(source).name} -> {Path(target).name}"))
        real_replace(source, target)

    monkeypatch.setattr(files.os, "fsync", fsync)
    monkeypatch.setattr(files.os, "replace", replace)
    target = tmp_path / "state.json"
    atomic_write(target, b'{"ok": {}}', sync=sync)
    assert target.read_bytes() == b'{"ok": {}}'
    if not sync:
        assert [kind for kind, _ in calls] == ["replace"]
        return
    [(first, temp), (second, renamed), (third, folder)] = calls
    assert (first, second, third) == ("fsync", "replace", "fsync")
    assert Path(temp).parent == tmp_path and Path(temp).name.startswith(".state.json.") and temp.endswith(".tmp")
    assert renamed == f"{Path(temp).name} -> state.json"
    assert folder == str(tmp_path)


def test_keep_aside_never_overwrites_an_earlier_copy(tmp_path):
    path = tmp_path / "state.json"
    kept = []
    for content in (b"first", b"second", b"third"):
        path.write_bytes(content)
        kept.append(keep_aside(path))
    assert [k.read_bytes() for k in kept] == [b"first", b"second", b"third"]
    assert len(set(kept)) == 3 and not path.exists()
    assert all(k.name.startswith("state.json.damaged-") for k in kept)


def test_batched_writes_sync_each_directory_once_when_the_block_ends(tmp_path, monkeypatch):
    synced: list = []
    monkeypatch.setattr(files, "fsync_directory", synced.append)
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    atomic_write(tmp_path / "a" / "alone.json", b"1")
    assert synced == [tmp_path / "a"]
    synced.clear()
    with files.directory_syncs_batched():
        for name in ("one", "two", "three"):
            atomic_write(tmp_path / "a" / f"{name}.json", b"1")
        with files.directory_syncs_batched():
            atomic_write(tmp_path / "b" / "four.json", b"1")
        assert synced == []
    assert sorted(synced) == [tmp_path / "a", tmp_path / "b"]
    assert (tmp_path / "a" / "three.json").read_bytes() == b"1"


def test_batched_writes_sync_what_was_written_before_an_error(tmp_path, monkeypatch):
    synced: list = []
    monkeypatch.setattr(files, "fsync_directory", synced.append)
    try:
        with files.directory_syncs_batched():
            atomic_write(tmp_path / "written.json", b"1")
            raise files.WriteFailedError(tmp_path / "next.json", OSError(28, "No space left on device"))
    except files.WriteFailedError:
        pass
    assert synced == [tmp_path]
    atomic_write(tmp_path / "after.json", b"1")
    assert synced == [tmp_path, tmp_path]


def test_a_file_written_in_chunks_is_whole_and_a_failed_one_leaves_the_old(tmp_path):
    target = tmp_path / "week.json"
    atomic_write(target, [b'{"a":', b"1", b"}"])
    assert target.read_bytes() == b'{"a":1}'

    def broken():
        yield b'{"a":'
        raise TypeError("not JSON serializable")

    with pytest.raises(TypeError):
        atomic_write(target, broken())
    assert target.read_bytes() == b'{"a":1}'
    assert [p.name for p in tmp_path.iterdir()] == ["week.json"]


def test_a_database_is_written_as_orjson_writes_it_in_chunks(tmp_path, monkeypatch):
    import orjson

    import feedtui.store.tinydb_io as tinydb_io
    from feedtui.store.codec import CardRow

    monkeypatch.setattr(tinydb_io, "CHUNK_BYTES", 64)  # many chunks
    row = CardRow._make(range(len(CardRow._fields)))
    data = {
        "papers": {f"2609.{n:05d}": {"title": f"Paper {n} \u00e9\"", "authors": ("A", "B")} for n in range(50)},
        "cards": {"2609.00001": row},
        "empty": {},
    }
    chunks = list(tinydb_io.json_chunks(data))
    assert len(chunks) > 10
    assert b"".join(chunks) == orjson.dumps(data, default=tinydb_io._tuple_as_list)
    db = tinydb_io.open_database(tmp_path / "db.json")
    db.table("papers").put_many(data["papers"])
    db.flush()
    assert orjson.loads((tmp_path / "db.json").read_bytes())["papers"]["2609.00007"]["authors"] == ["A", "B"]


def test_documents_encoded_many_at_a_time_give_the_bytes_orjson_writes():
    import orjson

    import feedtui.store.tinydb_io as tinydb_io
    from feedtui.store.codec import CardRow

    rows = {f"2609.{n:05d}": CardRow._make([n, *range(1, len(CardRow._fields))]) for n in range(300)}
    data = {
        "papers": {f"2609.{n:05d}": {"title": f"Paper {n} 𝒪(√T) \u00e9\"", "authors": [["A", ["B"]]] * (n % 7)} for n in range(500)},
        "cards": rows,
        "one": {"x": {}},
        "empty": {},
    }
    chunks = list(tinydb_io.json_chunks(data))
    assert b"".join(chunks) == orjson.dumps(data, default=tinydb_io._tuple_as_list)
