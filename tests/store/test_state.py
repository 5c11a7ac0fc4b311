from __future__ import annotations

import json

import pytest

from feedtui.store.lock import DataDirLock
from feedtui.store.state import StateStore


def open_state(data_dir, **kwargs) -> StateStore:
    kwargs.setdefault("background", False)
    return StateStore(data_dir / "state.json", DataDirLock(data_dir), **kwargs)


def test_changes_are_in_memory_at_once_and_on_disk_after_flush(data_dir):
    state = open_state(data_dir)
    state.follow("Edge Inference")
    state.mark_read(["2609.01234", "2609.00002"])
    state.star(["2609.01234"])
    assert state.is_following("Edge Inference")
    assert state.is_read("2609.01234")
    assert not (data_dir / "state.json").exists() or "2609.01234" not in (data_dir / "state.json").read_text()
    state.flush()
    on_disk = json.loads((data_dir / "state.json").read_text())
    assert set(on_disk["read"]) == {"2609.01234", "2609.00002"}
    assert set(on_disk["follows"]) == {"Edge Inference"}
    assert set(on_disk["starred"]) == {"2609.01234"}
    assert on_disk["meta"]["schema"]["version"] == 1
    reopened = open_state(data_dir)
    assert reopened.read_ids() == {"2609.01234", "2609.00002"}
    assert reopened.follows() == {"Edge Inference"}


def test_many_marks_are_one_rewrite(data_dir, monkeypatch):
    import feedtui.store.tinydb_io as tinydb_io

    writes = []
    real = tinydb_io.atomic_write
    monkeypatch.setattr(tinydb_io, "atomic_write", lambda path, data: (writes.append(path), real(path, data)))
    state = open_state(data_dir)
    for n in range(500):
        state.mark_read([f"2609.{n:05d}"])
    state.flush()
    assert writes == [data_dir / "state.json"]
    assert len(open_state(data_dir).read_ids()) == 500


def test_background_flush_makes_marks_durable(data_dir):
    state = open_state(data_dir, background=True, debounce=0.05, max_delay=0.2)
    state.mark_read([f"2609.{n:05d}" for n in range(50)])
    assert state.wait_durable(timeout=5)
    assert state.durable_sequence == state.sequence
    assert len(json.loads((data_dir / "state.json").read_text())["read"]) == 50
    state.close()


def test_two_processes_do_not_lose_each_others_writes(data_dir):
    first = open_state(data_dir)
    second = open_state(data_dir)
    first.mark_read(["2609.00001"])
    first.flush()
    second.mark_read(["2609.00002"])
    second.follow("Visual SLAM")
    second.flush()
    first.star(["2609.00003"])
    first.flush()
    final = open_state(data_dir)
    assert final.read_ids() == {"2609.00001", "2609.00002"}
    assert final.follows() == {"Visual SLAM"}
    assert final.starred_ids() == {"2609.00003"}
    # And the first process sees the second one's changes after its flush.
    assert first.follows() == {"Visual SLAM"}


def test_unread_then_read_again_in_one_batch(data_dir):
    state = open_state(data_dir)
    state.mark_read(["a"])
    state.flush()
    state.mark_unread(["a"])
    state.mark_read(["a"])
    state.mark_unread(["a"])
    state.flush()
    assert open_state(data_dir).read_ids() == set()


def test_damaged_state_is_kept_and_restored_from_backup(data_dir):
    state = open_state(data_dir)
    state.follow("Federated Learning")
    state.mark_read(["2609.00001"])
    state.flush()
    open_state(data_dir)  # a good start takes the backup
    (data_dir / "state.json").write_bytes(b'{"follows": {"Federated Le')
    recovered = open_state(data_dir)
    assert recovered.follows() == {"Federated Learning"}
    assert recovered.read_ids() == {"2609.00001"}
    assert "damaged" in recovered.recovery_message and "backup" in recovered.recovery_message
    kept = list(data_dir.glob("state.json.damaged-*"))
    assert len(kept) == 1 and kept[0].read_bytes() == b'{"follows": {"Federated Le'


def test_a_start_rewrites_the_backup_only_when_the_state_changed(data_dir):
    state = open_state(data_dir)
    state.follow("Federated Learning")
    state.flush()
    open_state(data_dir)
    backup = data_dir / "state.json.bak"
    assert backup.read_bytes() == (data_dir / "state.json").read_bytes()
    before = backup.stat()
    open_state(data_dir)  # nothing changed: the backup is left as it is
    after = backup.stat()
    assert (after.st_ino, after.st_mtime_ns) == (before.st_ino, before.st_mtime_ns)
    changed = open_state(data_dir)
    changed.mark_read(["2609.00001"])
    changed.flush()
    open_state(data_dir)
    assert backup.read_bytes() == (data_dir / "state.json").read_bytes()
    assert backup.stat().st_ino != before.st_ino


def test_a_background_store_backs_up_the_state_found_at_the_start(data_dir):
    """The store's own thread takes the backup (its sync is no wait on the way
    to the first paint); a save made before it gets to it changes nothing."""
    state = open_state(data_dir)
    state.follow("Federated Learning")
    state.flush()
    found = (data_dir / "state.json").read_bytes()
    state.close()
    later = open_state(data_dir, background=True)
    later.follow("Edge Inference")
    later.flush()  # may come before the thread's backup
    later.close()
    assert (data_dir / "state.json.bak").read_bytes() == found
    assert (data_dir / "state.json").read_bytes() != found


def test_damaged_state_without_backup_says_so_and_keeps_the_file(data_dir):
    (data_dir / "state.json").write_bytes(b"\x00\x00garbage")
    recovered = open_state(data_dir)
    assert recovered.follows() == set()
    assert "no good backup" in recovered.recovery_message
    assert list(data_dir.glob("state.json.damaged-*"))


def test_newer_schema_is_refused_with_a_message(data_dir):
    (data_dir / "state.json").write_text(json.dumps({"meta": {"schema": {"version": 99}}}))
    from feedtui.store.files import StoreError

    with pytest.raises(StoreError, match="newer feedtui"):
        open_state(data_dir)


def test_a_write_between_the_look_and_the_lock_is_not_lost(data_dir):
    """Another process writes just before this one takes the lock: this one
    must see it under the lock and write on top of it."""
    first = open_state(data_dir)
    second = open_state(data_dir)
    first.mark_read(["2609.00001"])
    first.flush()
    second.flush()  # second now knows the file as it is
    second.mark_read(["2609.00002"])
    real_acquire = second._dirlock.acquire

    def first_writes_meanwhile(*args, **kwargs):
        first.star(["2609.00003"])
        first.flush()
        return real_acquire(*args, **kwargs)

    second._dirlock.acquire = first_writes_meanwhile
    second.flush()
    final = open_state(data_dir)
    assert final.read_ids() == {"2609.00001", "2609.00002"}
    assert final.starred_ids() == {"2609.00003"}


def test_a_mark_made_while_a_flush_reads_another_process_write_is_kept(data_dir):
    """A flush that finds the file changed reads it back and takes its tables:
    a change made meanwhile (a key pressed while it read) is put on top of them,
    in memory at once and on disk at the next flush."""
    first = open_state(data_dir)
    second = open_state(data_dir)
    second.follow("Visual SLAM")
    second.flush()
    first.mark_read(["2609.00001"])
    real_read = first._read_disk

    def a_key_while_reading():
        first.mark_read(["2609.00002"])
        return real_read()

    first._read_disk = a_key_while_reading
    first.flush()
    first._read_disk = real_read
    assert first.is_read("2609.00001") and first.is_read("2609.00002")
    assert first.follows() == {"Visual SLAM"}
    assert open_state(data_dir).read_ids() == {"2609.00001"}  # the second mark is still queued
    first.flush()
    final = open_state(data_dir)
    assert final.read_ids() == {"2609.00001", "2609.00002"}
    assert final.follows() == {"Visual SLAM"}


def test_the_file_last_seen_is_held_open_so_its_inode_is_never_reused(data_dir):
    import os

    first = open_state(data_dir)
    first.follow("Visual SLAM")
    first.flush()
    seen = os.fstat(first._pinned)
    second = open_state(data_dir)
    for n in range(5):
        second.mark_read([f"2609.{n:05d}"])
        second.flush()
    assert (data_dir / "state.json").stat().st_ino != seen.st_ino
    assert os.fstat(first._pinned).st_ino == seen.st_ino  # still allocated: no replacement can take it
    first.flush()
    assert first.read_ids() == {f"2609.{n:05d}" for n in range(5)}
