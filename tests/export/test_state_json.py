from __future__ import annotations

import json
from datetime import datetime

import pytest

from feedtui import __version__
from feedtui.export.state_json import FORMAT, StateImportError, export_store, merge_into_store
from feedtui.model import UTC
from feedtui.store.lock import DataDirLock
from feedtui.store.state import TABLES, StateStore


def open_state(directory) -> StateStore:
    directory.mkdir(parents=True, exist_ok=True)
    return StateStore(directory / "state.json", DataDirLock(directory), background=False)


def reopened(directory) -> dict:
    store = open_state(directory)
    try:
        return store.export()
    finally:
        store.close()


@pytest.fixture
def used_state(tmp_path) -> StateStore:
    """A state with something in every table, flushed to disk."""
    state = open_state(tmp_path / "old-machine")
    state.follow("Edge Inference")
    state.follow("Lab blog")
    state.mark_read(["2609.01234", "2609.00002", "hep-th/9901001", "web:3f2a9c"])
    state.star(["2609.01234", "2608.11111"])
    state.set_feedback("2609.01234", 1)
    state.set_feedback("2609.00002", -1)
    state.put_topic("Lab blog", {"feeds": ["https://lab.example.org/atom.xml"], "query": "abs:robot*", "description": "Our posts"})
    state.put_topic("Sparse Attention", {"query": 'abs:"sparse attention" AND cat:cs.LG', "description": ""})
    state.put_topic("Edge Inference", {"categories": ["cs.DC", "cs.AR"], "description": "my version of it"})
    state.remove_topic("Quantum Error Correction", hide=True)
    state.set_pref("theme", "textual-light")
    state.set_pref("sort", "trending")
    state.set_pref("last_refresh", "2026-10-04T08:00:00+00:00")
    state.set_pref("demo_seed", "3:7")
    state.set_pref("refreshed:Lab blog", {"at": "2026-10-04T08:00:00+00:00", "sig": "0123456789abcdef"})
    state.flush()
    yield state
    state.close()


def through_a_file(document: dict) -> dict:
    return json.loads(json.dumps(document, ensure_ascii=False))


def test_export_has_a_header_and_every_table(used_state):
    document = export_store(used_state, now=datetime(2026, 10, 4, 12, 30, tzinfo=UTC))
    assert document["feedtui"] == __version__
    assert document["format"] == FORMAT == 1
    assert document["exported"] == "2026-10-04T12:30:00Z"
    assert set(document) == {"feedtui", "format", "exported", *TABLES}
    assert set(document["read"]) == {"2609.01234", "2609.00002", "hep-th/9901001", "web:3f2a9c"}
    assert document["read"]["2609.01234"] == used_state.export()["read"]["2609.01234"]
    assert "at" in document["read"]["2609.01234"]
    # This machine's cache bookkeeping is not the user's state.
    assert set(document["prefs"]) == {"theme", "sort"}


def test_export_then_import_into_an_empty_data_dir_reproduces_every_item(used_state, tmp_path):
    original = used_state.export()
    for table in TABLES:
        assert original[table], f"the fixture leaves {table} empty; the test would prove nothing"
    document = through_a_file(export_store(used_state))

    new_machine = tmp_path / "new-machine"
    fresh = open_state(new_machine)
    summary = merge_into_store(fresh, document, source="state.json")
    fresh.close()

    restored = reopened(new_machine)
    expected = dict(original)
    expected["prefs"] = {k: v for k, v in original["prefs"].items() if k not in ("last_refresh", "demo_seed", "refreshed:Lab blog")}
    assert restored == expected
    assert summary.added == {table: len(expected[table]) for table in TABLES}
    assert sum(summary.already_here.values()) == 0
    assert summary.conflicts == summary.skipped == []
    assert sorted(summary.topics_added) == ["Edge Inference", "Lab blog", "Sparse Attention"]


def test_import_merges_and_never_deletes_or_overwrites(used_state, tmp_path):
    document = through_a_file(export_store(used_state))
    here = open_state(tmp_path / "this-machine")
    here.follow("Visual SLAM")
    here.mark_read(["2607.55555"])
    here.replace_all({"read": {"2609.01234": {"at": "2020-01-01T00:00:00+00:00"}}})
    here.star(["2607.55555"])
    here.put_topic("Lab blog", {"feeds": ["https://other.example.net/rss"], "description": "mine"})
    here.set_pref("theme", "nord")
    here.flush()
    before = here.export()

    summary = merge_into_store(here, document, source="state.json")
    here.close()
    after = reopened(tmp_path / "this-machine")

    for table in TABLES:
        for key, doc in before[table].items():
            assert after[table][key] == doc, f"{table}/{key} was changed by the import"
    assert set(after["follows"]) == {"Visual SLAM", "Edge Inference", "Lab blog"}
    assert set(after["read"]) == {"2609.01234", "2607.55555", "2609.00002", "hep-th/9901001", "web:3f2a9c"}
    assert set(after["starred"]) == {"2607.55555", "2609.01234", "2608.11111"}
    assert set(after["topics"]) == {"Lab blog", "Sparse Attention", "Edge Inference"}
    assert after["hidden_topics"].keys() == {"Quantum Error Correction"}
    assert after["prefs"]["theme"] == {"value": "nord"} and after["prefs"]["sort"] == {"value": "trending"}
    assert summary.added["read"] == 3 and summary.already_here["read"] == 1
    assert summary.added["topics"] == 2 and summary.already_here["topics"] == 1
    assert summary.conflicts == [
        "topic 'Lab blog' (feeds https://other.example.net/rss; description 'mine'); the imported one differs "
        "(feeds https://lab.example.org/atom.xml; matching abs:robot*; description 'Our posts')",
        "preference 'theme' = 'nord'; the imported one is 'textual-light'",
    ]
    assert "read marks: 3 added, 1 already here" in summary.lines()


def test_a_catalogue_topic_followed_here_is_not_hidden_by_the_import(used_state, tmp_path):
    document = through_a_file(export_store(used_state))
    document["hidden_topics"]["Dark Matter"] = {"at": "2026-09-01T00:00:00+00:00"}
    here = open_state(tmp_path / "this-machine")
    here.follow("dark matter")
    here.follow("Quantum Error Correction")
    summary = merge_into_store(here, document, source="state.json")
    here.close()
    after = reopened(tmp_path / "this-machine")
    assert after["hidden_topics"] == {}
    assert set(after["follows"]) == {"dark matter", "Quantum Error Correction", "Edge Inference", "Lab blog"}
    assert summary.added["hidden_topics"] == 0
    assert sorted(summary.kept) == [
        "'Dark Matter': you follow it here, so the import does not hide it (feedtui topic rm 'Dark Matter' would)",
        "'Quantum Error Correction': you follow it here, so the import does not hide it (feedtui topic rm 'Quantum Error Correction' would)",
    ]
    assert summary.skipped == [] and summary.conflicts == []
    assert "kept 'Dark Matter': you follow it here, so the import does not hide it (feedtui topic rm 'Dark Matter' would)" in summary.lines()


def test_the_follow_of_a_topic_skipped_for_its_name_is_skipped_with_it(tmp_path):
    """The follow of 'MyTopic' was added (and counted) though 'MyTopic' was
    skipped for the 'mytopic' here: it made that other topic followed."""
    since = {"since": "2026-10-01T00:00:00+00:00"}
    document = {
        "feedtui": "0.1.0",
        "format": 1,
        "topics": {"MyTopic": {"query": "ti:quillon"}, "Other": {"query": "ti:other"}},
        "follows": {"MyTopic": since, "Other": since, "Edge Inference": since},
    }
    here = open_state(tmp_path / "x")
    here.put_topic("mytopic", {"query": "ti:marrow", "description": ""})
    summary = merge_into_store(
        here, document, topic_name_problem=lambda name: "there is a topic called 'mytopic' already" if name == "MyTopic" else ""
    )
    state = here.export()
    here.close()
    assert set(state["follows"]) == {"Other", "Edge Inference"}
    assert set(state["topics"]) == {"mytopic", "Other"}
    assert summary.added["follows"] == 2
    assert summary.skipped == ["topic 'MyTopic' and its follow: there is a topic called 'mytopic' already"]


def test_a_topic_that_differs_in_its_description_only_says_so(tmp_path):
    lab = {"feeds": ["https://lab.example.org/atom.xml"]}
    document = {
        "feedtui": "0.1.0",
        "format": 1,
        "topics": {"Lab blog": {**lab, "description": "Our posts"}, "Notes": {"query": "abs:notes", "description": "old"}},
    }
    here = open_state(tmp_path / "x")
    here.put_topic("Lab blog", {**lab, "description": "changed here"})
    here.put_topic("Notes", {"query": "abs:notes", "description": ""})
    summary = merge_into_store(here, document, source="f.json")
    here.close()
    assert summary.conflicts == [
        "topic 'Lab blog' (description 'changed here'); the imported one differs (description 'Our posts')",
        "topic 'Notes' (no description); the imported one differs (description 'old')",
    ]


def test_importing_twice_adds_nothing_the_second_time(used_state, tmp_path):
    document = through_a_file(export_store(used_state))
    store = open_state(tmp_path / "twice")
    merge_into_store(store, document)
    again = merge_into_store(store, document)
    assert again.total_added == 0
    assert again.conflicts == []
    store.close()


def test_a_newer_format_is_refused_and_nothing_changes(used_state, tmp_path):
    document = through_a_file(export_store(used_state))
    document["format"] = FORMAT + 1
    document["feedtui"] = "9.0.0"
    store = open_state(tmp_path / "x")
    with pytest.raises(StateImportError) as caught:
        merge_into_store(store, document, source="/tmp/state.json")
    assert str(caught.value) == (
        f"/tmp/state.json was written by a newer feedtui (9.0.0, export format 2); "
        f"this feedtui {__version__} reads format 1: upgrade feedtui to import it"
    )
    assert all(not table for table in store.export().values())
    store.close()


@pytest.mark.parametrize(
    ("document", "message"),
    [
        ([], 'f.json: not a feedtui state export (it lacks the "feedtui" and "format" fields); make one with `feedtui export json`'),
        ({"follows": {"A": {}}}, 'f.json: not a feedtui state export (it lacks the "feedtui" and "format" fields); make one with `feedtui export json`'),
        ({"feedtui": "0.1.0", "format": "1"}, "f.json: unknown export format '1'"),
        ({"feedtui": "0.1.0", "format": 1, "read": ["2609.01234"]}, 'f.json: "read" should be an object of entries, not list'),
    ],
)
def test_documents_that_are_not_exports_are_refused_whole(tmp_path, document, message):
    store = open_state(tmp_path / "x")
    with pytest.raises(StateImportError) as caught:
        merge_into_store(store, document, source="f.json")
    assert str(caught.value) == message
    assert all(not table for table in store.export().values())
    store.close()


def test_bad_items_are_skipped_with_a_reason_and_the_rest_imported(tmp_path):
    document = {
        "feedtui": "0.1.0",
        "format": 1,
        "read": {"": {"at": "x"}, "2609.01234": {"at": "2026-10-01T00:00:00+00:00"}, "2609.00009": "yes"},
        "topics": {
            "Evil\x1b[2J topic": {"feeds": ["https://ok.example.org/feed"], "query": "abs:x\x07", "description": "d\x1b]0;t\x07"},
            "Script": {"feeds": ["javascript:alert(1)"]},
            "Letters": {"categories": "cs.DC"},
            "Nothing": {"description": "no definition"},
        },
    }
    store = open_state(tmp_path / "x")
    summary = merge_into_store(store, document, source="f.json")
    assert summary.skipped == [
        "read marks: an entry with an empty or invalid name (\'\')",
        "read marks: '2609.00009' is not an object",
        "topic 'Script': feed URL must start with http:// or https://: javascript:alert(1)",
        "topic 'Letters': its categories and feeds must be lists of text",
        "topic 'Nothing': it has no query, categories or feeds",
    ]
    state = store.export()
    assert state["read"] == {"2609.01234": {"at": "2026-10-01T00:00:00+00:00"}}
    assert state["topics"] == {
        "Evil topic": {"feeds": ["https://ok.example.org/feed"], "query": "abs:x", "description": "d"}
    }
    store.close()


def test_feed_urls_go_through_the_check_of_topic_add(tmp_path):
    document = {
        "feedtui": "0.1.0",
        "format": 1,
        "topics": {
            "Port": {"feeds": ["http://127.0.0.1:99999/x"]},
            "Upper": {"feeds": ["HTTPS://ok.example.org/Feed"]},
        },
    }
    store = open_state(tmp_path / "x")
    summary = merge_into_store(store, document, source="f.json")
    assert summary.skipped == [
        "topic 'Port': feed URL has an invalid port (a port is a number from 1 to 65535): http://127.0.0.1:99999/x"
    ]
    assert store.export()["topics"] == {"Upper": {"feeds": ["https://ok.example.org/Feed"], "description": ""}}
    store.close()


def test_items_the_cli_would_refuse_are_skipped_with_a_reason(tmp_path):
    at = "2026-10-01T00:00:00+00:00"
    document = {
        "feedtui": "0.1.0",
        "format": 1,
        "topics": {"Bad Query": {"query": 'abs:"x'}, "Good": {"query": "abs:fine"}},
        "read": {
            "garbage id!!": {"at": at},
            "2609.01235v3": {"at": at},
            "2609.01236": {"at": "not a date"},
            "web:0123456789abcdef": {"at": "2026-10-01T00:00:00Z"},
        },
        "starred": {"arXiv:2609.01237": {"at": at}, "web:not-a-key": {"at": at}, "2609.01238": {}},
        "follows": {"Good": {"since": 5}, "Edge Inference": {"since": at}},
        "hidden_topics": {"Not In The Catalogue": {"at": at}, "Quantum Error Correction": {"at": at}},
    }
    store = open_state(tmp_path / "x")
    summary = merge_into_store(store, document, source="f.json")
    assert summary.skipped == [
        "follows: 'Good': 'since' is not an ISO 8601 time (5)",
        "read marks: 'garbage id!!' is not an arXiv id or a feed item's id",
        "read marks: '2609.01236': 'at' is not an ISO 8601 time ('not a date')",
        "stars: 'web:not-a-key' is not an arXiv id or a feed item's id",
        "topic 'Bad Query': bad query: unmatched quote at column 5 (a phrase ends with a second \")",
        "hidden catalogue topics: 'Not In The Catalogue' is not a catalogue topic",
    ]
    state = store.export()
    assert set(state["read"]) == {"2609.01235", "web:0123456789abcdef"}
    assert set(state["starred"]) == {"2609.01237", "2609.01238"}
    assert set(state["follows"]) == {"Edge Inference"}
    assert set(state["topics"]) == {"Good"}
    assert set(state["hidden_topics"]) == {"Quantum Error Correction"}
    store.close()


def test_a_value_the_state_file_cannot_hold_is_skipped_not_a_crash(tmp_path):
    document = {
        "feedtui": "0.1.0",
        "format": 1,
        "prefs": {"sort": {"value": 2**70}, "theme": {"value": "textual-light"}},
        "starred": {"2609.01234": {"at": "2026-10-01T00:00:00+00:00", "note": [1, 2**65]}},
    }
    store = open_state(tmp_path / "x")
    summary = merge_into_store(store, document, source="f.json")
    skipped = sorted(summary.skipped)
    assert len(skipped) == 2
    assert skipped[0].startswith("preferences: 'sort' holds a value feedtui cannot store (")
    assert skipped[1].startswith("stars: '2609.01234' holds a value feedtui cannot store (")
    store.flush()
    store.close()
    assert reopened(tmp_path / "x")["prefs"] == {"theme": {"value": "textual-light"}}
