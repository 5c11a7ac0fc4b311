"""The papers' vectors on disk: compact, checked, and damage found."""

from __future__ import annotations

import numpy as np
import pytest

from feedtui.discovery.vectors import RELEASED_ROWS, Vectors, VectorsDamaged, decode, encode, quantize, read
from tests.proc_memory import resident_kb


def unit(rows: int, dim: int = 8, seed: int = 1) -> np.ndarray:
    values = np.random.default_rng(seed).normal(size=(rows, dim)).astype(np.float32)
    return values / np.linalg.norm(values, axis=1, keepdims=True)


def test_vectors_round_trip_and_keep_their_cosines():
    floats = unit(5)
    scales, codes = quantize(floats)
    vectors = Vectors.empty("m", 8).with_added(["a", "b", "c", "d", "e"], [1, 1, 2, 1, 1], scales, codes, None)
    data = encode(vectors)
    assert len(data) < 5 * (8 + 4) + 200  # int8 and a scale each, and a small header
    back = decode(data, "m")
    assert back.ids == ["a", "b", "c", "d", "e"] and back.versions == [1, 1, 2, 1, 1]
    assert np.allclose(back.similarities(floats[2]), floats @ floats[2], atol=0.02)
    assert np.allclose(back.vector("c"), floats[2], atol=0.01)
    assert back.vector("zz") is None


def test_adding_replaces_the_same_ids_and_drops_papers_not_kept():
    scales, codes = quantize(unit(3))
    vectors = Vectors.empty("m", 8).with_added(["a", "b", "c"], [1, 1, 1], scales, codes, None)
    scales, codes = quantize(unit(1, seed=2))
    after = vectors.with_added(["b"], [2], scales, codes, {"b", "c"})
    assert after.ids == ["c", "b"] and after.versions == [1, 2]
    assert np.array_equal(after.codes[0], vectors.codes[2])


@pytest.mark.parametrize("damage", ["truncate", "flip", "other model", "garbage"])
def test_damage_is_found(damage):
    scales, codes = quantize(unit(4))
    data = bytearray(encode(Vectors.empty("m", 8).with_added(["a", "b", "c", "d"], [1] * 4, scales, codes, None)))
    model = "m"
    if damage == "truncate":
        data = data[:-3]
    elif damage == "flip":
        data[-1] ^= 0x55
    elif damage == "other model":
        model = "another"
    else:
        data = bytearray(b"{}")
    with pytest.raises(VectorsDamaged):
        decode(bytes(data), model)


def test_authors_and_categories_travel_with_the_vectors():
    scales, codes = quantize(unit(2))
    vectors = Vectors.empty("m", 8).with_added(
        ["a", "b"], [1, 1], scales, codes, None, [["ada quill"], ["bo lind", "cy moss"]], [["cs.DC"], ["cs.NI", "cs.LG"]]
    )
    assert decode(encode(vectors), "m").authors == []  # read only when asked for
    back = decode(encode(vectors), "m", meta=True)
    assert back.authors == [["ada quill"], ["bo lind", "cy moss"]]
    assert back.categories == [["cs.DC"], ["cs.NI", "cs.LG"]]
    scales, codes = quantize(unit(1, seed=3))
    after = back.with_added(["c"], [1], scales, codes, None)
    assert after.authors == [["ada quill"], ["bo lind", "cy moss"], []]


def test_vectors_read_from_their_file_are_mapped_and_rank_as_decoded(tmp_path):
    count = RELEASED_ROWS * 2 + 5  # the product runs over several blocks of rows
    floats = unit(count, dim=16, seed=4)
    scales, codes = quantize(floats)
    ids = [f"p{i}" for i in range(count)]
    vectors = Vectors.empty("m", 16).with_added(
        ids, [1] * count, scales, codes, None, [["ada quill"]] * count, [["cs.DC"]] * count
    )
    path = tmp_path / "vectors.bin"
    path.write_bytes(encode(vectors))
    mapped, decoded = read(path, "m"), decode(path.read_bytes(), "m")
    assert mapped.release is not None and not mapped.codes.flags.writeable and mapped.authors == []
    assert mapped.ids == decoded.ids and np.array_equal(mapped.codes, decoded.codes)
    for row in (0, RELEASED_ROWS, count - 1):
        assert np.array_equal(mapped.similarities(floats[row]), decoded.similarities(floats[row]))
    assert np.array_equal(mapped.vector("p7"), decoded.vector("p7"))
    assert read(path, "m", meta=True).categories == [["cs.DC"]] * count


@pytest.mark.parametrize("damage", ["empty", "flip codes", "flip authors"])
def test_damage_in_the_file_is_found(tmp_path, damage):
    scales, codes = quantize(unit(4))
    data = bytearray(encode(Vectors.empty("m", 8).with_added(["a", "b", "c", "d"], [1] * 4, scales, codes, None)))
    if damage == "empty":
        data = bytearray()
    elif damage == "flip codes":
        data[-len(b'{"authors":[[],[],[],[]],"categories":[[],[],[],[]]}') - 2] ^= 0x55
    else:
        data[-2] ^= 0x55
    path = tmp_path / "vectors.bin"
    path.write_bytes(bytes(data))
    with pytest.raises(VectorsDamaged):
        read(path, "m")


def test_read_vectors_hold_the_callers_id_strings_and_keep_no_header_page(tmp_path):
    count = 3_000
    scales, codes = quantize(unit(count, dim=16, seed=5))
    ids = [f"paper-{i:06d}" for i in range(count)]
    path = tmp_path / "vectors.bin"
    path.write_bytes(encode(Vectors.empty("m", 16).with_added(ids, [1] * count, scales, codes, None)))
    mine = {pid: pid for pid in ids[::2]}  # the caller holds half of the ids
    vectors = read(path, "m", same=lambda pid: mine.get(pid, pid))
    assert vectors.ids == ids
    assert all(vectors.ids[i] is mine[pid] for i, pid in enumerate(ids) if i % 2 == 0)
    # The header (the ids, over 40 KB), the scales and the codes around them
    # (the kernel maps pages around the one read) are not kept in the process.
    assert resident_kb(path) <= 4  # at most the partial page at the end of the file
