"""What may name a topic, as `feedtui topic add` and the imports see it: one
rule (topics/names.py), the one the app's topic form keeps too."""

from __future__ import annotations

import json

import pytest

from tests.cli.test_cli_export import OPML, make_env


@pytest.fixture
def env(tmp_path, capsys):
    env = make_env(tmp_path, "data")
    env.config = tmp_path / "data-config.toml"
    env.config.write_text('[[topic]]\nname = "Sparse"\nquery = "abs:sparse"\n')
    assert env.run("topic", "add", "Lab blog", "--feed", "https://lab.example.org/atom.xml") == 0
    capsys.readouterr()
    return env


def topics(env, capsys) -> dict[str, dict]:
    capsys.readouterr()
    assert env.run("topics", "--json") == 0
    return {t["name"]: t for t in json.loads(capsys.readouterr().out)}


@pytest.mark.parametrize(
    ("typed", "taken"),
    [
        ("Heterogeneous Computing", "Heterogeneous Computing"),  # the catalogue's
        ("Lab blog", "Lab blog"),  # the user's
        ("Sparse", "Sparse"),  # the config file's
        ("edge inference", "Edge Inference"),  # another spelling of the catalogue's
        ("  LAB   Blog ", "Lab blog"),  # as stored: spaces cleaned
    ],
)
def test_topic_add_refuses_a_name_that_is_taken_and_points_at_edit(env, capsys, typed, taken):
    before = topics(env, capsys)
    assert env.run("topic", "add", typed, "--query", "ti:zzz") == 2
    captured = capsys.readouterr()
    assert captured.err == (
        f"feedtui: there is a topic called '{taken}' already: feedtui topic edit '{taken}' changes it\n"
    )
    assert "added" not in captured.err
    assert topics(env, capsys) == before


@pytest.mark.parametrize(
    ("typed", "message"),
    [
        ("★ Starred", "'★ Starred' is the reading list's name; choose another name for a topic"),
        ("★ starred", "'★ Starred' is the reading list's name; choose another name for a topic"),
        # Followed, it would be drawn as ★ Starred, beside the reading list's own row.
        ("Starred", "'★ Starred' is the reading list's name; choose another name for a topic"),
        ("★STARRED", "'★ Starred' is the reading list's name; choose another name for a topic"),
        ("   ", "a topic needs a name"),
        ("\x1b[31m\x07\t", "a topic needs a name"),
        ("x" * 121, "a topic name has at most 120 characters"),
    ],
)
def test_topic_add_refuses_a_name_the_app_could_not_show(env, capsys, typed, message):
    before = topics(env, capsys)
    assert env.run("topic", "add", typed, "--query", "ti:zzz") == 2
    assert capsys.readouterr().err == f"feedtui: {message}\n"
    assert topics(env, capsys) == before


def test_a_name_with_control_characters_is_stored_without_them(env, capsys):
    assert env.run("topic", "add", "Red\x1b[31m\x07 alert", "--query", "ti:zzz") == 0
    assert capsys.readouterr().err == "added Red alert: query ti:zzz\n"
    assert "Red alert" in topics(env, capsys)


def write_opml(path, *folders: tuple[str, str]):
    outlines = "".join(
        f'<outline text="{name}"><outline type="rss" text="{name}" xmlUrl="{url}"/></outline>' for name, url in folders
    )
    path.write_text(f'<opml version="2.0"><body>{outlines}</body></opml>', encoding="utf-8")
    return path


def test_opml_import_gives_another_spelling_of_a_taken_name_a_name_of_its_own(env, capsys):
    opml = write_opml(
        env.tmp / "feeds.opml",
        ("edge inference", "https://edge.example.org/rss"),  # the catalogue's Edge Inference has no feeds
        ("LAB BLOG", "https://lab.example.org/more.xml"),  # Lab blog has feeds: merged into it
        ("★ starred", "https://stars.example.org/rss"),  # the reading list's name
    )
    assert env.run("import", "opml", str(opml)) == 0
    err = capsys.readouterr().err
    assert "added edge inference (feeds) (the name 'edge inference' is taken by Edge Inference, a topic without feeds)" in err
    assert "merged into Lab blog: 1 more feed(s)" in err
    assert "added ★ starred (feeds) (the name '★ starred' is taken by the reading list)" in err
    names = topics(env, capsys)
    assert "edge inference" not in names and "★ starred" not in names
    assert names["edge inference (feeds)"]["definition"] == {"feeds": ["https://edge.example.org/rss"]}
    assert names["Edge Inference"]["origin"] == "catalogue"
    assert names["Lab blog"]["definition"] == {"feeds": ["https://lab.example.org/atom.xml", "https://lab.example.org/more.xml"]}


def test_a_config_topic_merged_into_by_an_opml_import_is_told_when_its_table_goes(env, capsys):
    """The import's copy was not marked as one: its table's going was never told."""
    env.config.write_text('[[topic]]\nname = "Lab feeds"\nfeeds = ["https://lab.example.org/feeds.xml"]\n')
    opml = write_opml(env.tmp / "feeds.opml", ("Lab feeds", "https://lab.example.org/more.xml"))
    assert env.run("import", "opml", str(opml)) == 0
    assert "merged into Lab feeds: 1 more feed(s)" in capsys.readouterr().err
    env.config.write_text("")
    assert env.run("topics") == 0
    assert f"feedtui: Lab feeds: its [[topic]] table is gone from {env.config}; your edited copy of it stays" in capsys.readouterr().err


def test_json_import_skips_a_topic_whose_name_is_taken_in_another_spelling(env, capsys):
    state = env.tmp / "state.json"
    state.write_text(
        json.dumps({
            "feedtui": "0.1.0",
            "format": 1,
            "topics": {
                "edge inference": {"query": "abs:edge"},
                "★ Starred": {"query": "abs:star"},
                "Robots": {"query": "abs:robot"},
                "ROBOTS": {"query": "abs:robots"},
                "Heterogeneous Computing": {"query": "abs:mine"},  # this user's edit of the catalogue's
            },
        })
    )
    assert env.run("import", "json", str(state)) == 1
    err = capsys.readouterr().err
    assert "skipped topic 'edge inference': there is a topic called 'Edge Inference' already" in err
    assert "skipped topic '★ Starred': '★ Starred' is the reading list's name" in err
    assert "skipped topic 'ROBOTS': the import names a topic 'Robots' already, the same but for case" in err
    names = topics(env, capsys)
    assert "edge inference" not in names and "★ Starred" not in names and "ROBOTS" not in names
    assert names["Robots"]["definition"] == {"query": "abs:robot"}
    assert names["Heterogeneous Computing"]["definition"] == {"query": "abs:mine"}


def test_a_config_topic_replacing_a_followed_one_in_another_spelling_stays_followed(env, capsys):
    """The config file's "edge inference" replaces the catalogue's "Edge
    Inference" (case aside, as the README says): the follow stayed with the
    old spelling, so the topic showed as not followed, and following it again
    stored a second follow."""
    assert env.run("follow", "Edge Inference") == 0
    env.config.write_text(env.config.read_text() + '[[topic]]\nname = "edge inference"\nquery = "abs:edge"\n')
    shown = topics(env, capsys)
    assert "Edge Inference" not in shown
    assert shown["edge inference"]["following"] is True
    capsys.readouterr()
    assert env.run("follow", "edge inference") == 0
    assert "already following edge inference" in capsys.readouterr().err
    state = json.loads((env.data / "state.json").read_text())
    assert list(state["follows"]) == ["Edge Inference"]  # as followed: never rewritten
    assert env.run("unfollow", "edge inference") == 0
    assert topics(env, capsys)["edge inference"]["following"] is False
    assert env.run("follow", "edge inference") == 0
    env.config.write_text('[[topic]]\nname = "Sparse"\nquery = "abs:sparse"\n')  # the replacement goes
    shown = topics(env, capsys)
    assert shown["Edge Inference"]["following"] is True
    assert "edge inference" not in shown


@pytest.mark.parametrize(
    ("count", "listed"),
    [
        (6, "Zq 01, Zq 02, Zq 03, Zq 04, Zq 05, Zq 06"),
        (22, "Zq 01, Zq 02, Zq 03, Zq 04, Zq 05, Zq 06 and 16 more"),
    ],
)
def test_an_ambiguous_prefix_lists_six_topics_and_counts_the_rest(env, capsys, count, listed):
    """`feedtui refresh N` named 6 of the 22 topics N began, as if there were no more."""
    env.config.write_text("".join(f'[[topic]]\nname = "Zq {n:02d}"\nquery = "abs:zq{n}"\n' for n in range(1, count + 1)))
    capsys.readouterr()
    assert env.run("refresh", "zq") == 2
    assert capsys.readouterr().err == f"feedtui: 'zq' matches several topics: {listed}\n"


def test_readers_whose_configs_spell_a_followed_topic_differently_never_rewrite_the_follow(env, capsys):
    """Follows are matched by name but for case, never renamed: two readers
    on one data directory with config files that spell a topic differently
    rewrote state.json back and forth."""
    assert env.run("follow", "Edge Inference") == 0
    path = env.data / "state.json"
    written = (path.stat().st_ino, path.stat().st_mtime_ns)
    plain = env.config.read_text()
    for _ in range(2):
        env.config.write_text(plain + '[[topic]]\nname = "EDGE inference"\nquery = "abs:edge"\n')
        assert topics(env, capsys)["EDGE inference"]["following"] is True
        env.config.write_text(plain)
        assert topics(env, capsys)["Edge Inference"]["following"] is True
    assert (path.stat().st_ino, path.stat().st_mtime_ns) == written


def test_opml_import_adds_its_topics_in_one_change_with_each_name_sorted_out(env, capsys, monkeypatch):
    """Each topic rebuilt the whole registry: 1,000 feeds took 3 s, 5,200 two
    minutes. Added in one change, the outcome is the same, topic by topic."""
    from feedtui.core.engine import Engine
    from feedtui.store.state import TOPICS, StateStore

    assert env.run("topic", "add", "Mine", "--feed", "https://mine.example.org/feed") == 0
    builds, topic_changes = [], []
    build, apply = Engine._build_registry, StateStore._apply
    monkeypatch.setattr(Engine, "_build_registry", lambda self: builds.append(1) or build(self))
    monkeypatch.setattr(
        StateStore, "_apply", lambda self, ops: topic_changes.extend({op.table for op in ops} & {TOPICS}) or apply(self, ops)
    )
    capsys.readouterr()
    source = OPML / "mixed.opml"
    assert env.run("import", "opml", str(source), "--follow") == 0
    assert capsys.readouterr().err.splitlines() == [
        "added Vision: feeds https://vision.example.com/rss",
        "merged into Vision: 1 more feed(s)",
        "merged into Lab blog: 1 more feed(s)",
        "added edge inference (feeds) (the name 'edge inference' is taken by Edge Inference, a topic without feeds): "
        "feeds https://edge.example.org/rss",
        "merged into edge inference (feeds): 1 more feed(s)",
        "added Sparse (feeds) (the name 'Sparse' is taken by a topic without feeds): feeds https://sparse.example.org/rss",
        "added Sparse (2): feeds https://sparse.example.org/other.rss",
        f"imported {source}: 4 topic(s) added, 3 merged into existing topics, 1 already here, 0 topic(s) skipped; "
        "2 duplicate feed(s) merged",
    ]
    assert len(builds) == 2  # the command's start, and the import
    assert topic_changes == [TOPICS]
    names = topics(env, capsys)
    added = {name: (t["definition"], t["following"]) for name, t in names.items() if t["origin"] == "user"}
    assert added == {
        "Lab blog": ({"feeds": ["https://lab.example.org/atom.xml", "https://lab.example.org/notes.xml"]}, True),
        "Mine": ({"feeds": ["https://mine.example.org/feed"]}, False),
        "Vision": ({"feeds": ["https://vision.example.com/rss", "https://pixels.example.net/feed"]}, True),
        "edge inference (feeds)": ({"feeds": ["https://edge.example.org/rss", "https://edge-too.example.org/rss"]}, True),
        "Sparse (feeds)": ({"feeds": ["https://sparse.example.org/rss"]}, True),
        "Sparse (2)": ({"feeds": ["https://sparse.example.org/other.rss"]}, True),
    }


def test_the_same_opml_imported_again_adds_nothing(env, capsys):
    """Every topic renamed "NAME (feeds)" the first time came back as
    "NAME (feeds) 2", a copy of it, at every import of the same file."""
    source = OPML / "mixed.opml"
    assert env.run("import", "opml", str(source)) == 0
    first = topics(env, capsys)
    assert env.run("import", "opml", str(source)) == 0
    assert capsys.readouterr().err.splitlines()[-1] == (
        f"imported {source}: 0 topic(s) added, 0 merged into existing topics, 8 already here, 0 topic(s) skipped; "
        "2 duplicate feed(s) merged"
    )
    assert topics(env, capsys) == first


def test_opml_import_renames_every_spelling_of_the_reading_list_s_name(env, capsys):
    """"Starred" and "starred" were skipped with their feeds, and named as
    '★ Starred', while "★ Starred" was renamed."""
    opml = env.tmp / "starred.opml"
    opml.write_text(
        '<opml version="2.0"><body>'
        '<outline type="rss" text="Starred" xmlUrl="https://d.example.org/rss"/>'
        '<outline type="rss" text="★ Starred" xmlUrl="https://e.example.org/rss"/>'
        '<outline text="starred"><outline type="rss" text="S" xmlUrl="https://s.example.org/rss"/></outline>'
        "</body></opml>",
        encoding="utf-8",
    )
    assert env.run("import", "opml", str(opml)) == 0
    err = capsys.readouterr().err.splitlines()
    assert err[:3] == [
        "added Starred (feeds) (the name 'Starred' is taken by the reading list): feeds https://d.example.org/rss",
        "added ★ Starred (feeds) (the name '★ Starred' is taken by the reading list): feeds https://e.example.org/rss",
        "merged into Starred (feeds): 1 more feed(s)",  # case aside, as a folder merges into a topic
    ]
    assert err[3].endswith("2 topic(s) added, 1 merged into existing topics, 0 already here, 0 topic(s) skipped")
    names = topics(env, capsys)
    assert names["Starred (feeds)"]["definition"] == {"feeds": ["https://d.example.org/rss", "https://s.example.org/rss"]}


def test_a_config_topic_with_a_bad_query_keeps_its_name(env, capsys):
    """It was left out, and its name, a prefix of "Robot Vision", stood for
    that topic: `topic edit Robot --query …` rewrote Robot Vision and `follow
    Robot` followed it, with exit 0."""
    env.config.write_text(
        '[[topic]]\nname = "Robot"\nquery = "ti:robot and abs:learning"\n\n'
        '[[topic]]\nname = "Robot Vision"\ncategories = ["cs.CV", "cs.RO"]\n'
    )
    capsys.readouterr()
    assert env.run("topic", "show", "Robot") == 0
    captured = capsys.readouterr()
    assert captured.out.startswith("Robot  (not following)\ndefinition: query ti:robot and abs:learning\nerror: ")
    # Told once, with its line.
    assert captured.err == (
        f"feedtui: {env.config}:3: topic 'Robot': bad query: missing operator before 'and' at column 10 "
        "(operators are written in capitals: AND, OR, ANDNOT); the topic tags nothing until it is fixed\n"
    )
    assert env.run("follow", "Robot") == 0
    assert "following Robot\n" in capsys.readouterr().err
    assert env.run("topic", "edit", "Robot", "--query", "ti:robot AND abs:learning") == 0
    assert "changed Robot: query ti:robot AND abs:learning" in capsys.readouterr().err
    shown = topics(env, capsys)
    assert shown["Robot"]["following"] and not shown["Robot Vision"]["following"]
    assert shown["Robot Vision"]["definition"] == {"categories": ["cs.CV", "cs.RO"]}


def test_the_name_of_a_config_topic_left_out_names_no_other_topic(env, capsys):
    env.config.write_text(
        '[[topic]]\nname = "Lab"\nfeeds = ["file:///etc/passwd"]\n\n'
        '[[topic]]\nname = "Lab notes"\nfeeds = ["https://lab.example.org/notes.xml"]\n'
    )
    capsys.readouterr()
    for command in (("topic", "edit", "lab", "--description", "x"), ("follow", "Lab"), ("papers", "LAB")):
        assert env.run(*command) == 2
        problem = f"{env.config}:3: topic 'Lab': \"file:///etc/passwd\" is not valid in feeds"
        assert f"feedtui: no topic called '{command[-1] if command[0] != 'topic' else 'lab'}': {problem}" in capsys.readouterr().err
    assert not topics(env, capsys)["Lab notes"]["following"]
    assert env.run("follow", "Lab n") == 0  # a prefix of no left-out topic's name
    assert "following Lab notes" in capsys.readouterr().err


def test_a_follow_left_behind_by_a_rename_in_the_config_file_is_told_and_can_be_dropped(env, capsys):
    """Renaming a followed topic in the config file unfollowed it without a
    word, and `unfollow Sys` could not reach the old follow ("no topic called
    'Sys'"), or unfollowed "Systems", which "Sys" begins."""
    env.config.write_text('[[topic]]\nname = "Sys"\ncategories = ["cs.DC"]\n')
    assert env.run("follow", "Sys") == 0
    env.config.write_text('[[topic]]\nname = "Systems"\ncategories = ["cs.DC"]\n')
    capsys.readouterr()
    note = (
        "feedtui: you follow 'Sys', but no topic is called that now (renamed or removed in the config file?): "
        "feedtui unfollow 'Sys' drops the follow\n"
    )
    assert env.run("follow", "Systems") == 0
    assert capsys.readouterr().err == note + "following Systems\n"
    assert env.run("unfollow", "sys") == 0
    assert capsys.readouterr().err == note + "no longer following Sys (no topic is called that now)\n"
    assert topics(env, capsys)["Systems"]["following"]
    assert capsys.readouterr().err == ""
    state = json.loads((env.data / "state.json").read_text())
    assert sorted(state["follows"]) == ["Systems"]
    # A topic left out for an error in the file keeps its follow, unflagged.
    env.config.write_text('[[topic]]\nname = "Systems"\ncategories = ["cs DC"]\n')
    capsys.readouterr()
    assert env.run("topics") == 0
    assert "you follow" not in capsys.readouterr().err


def test_a_topic_renamed_onto_a_follow_left_behind_is_not_followed_by_it(env, capsys):
    """The follow "Sys" left behind by a rename in the config file made the
    topic renamed "Sys" followed, and edit said "still followed"."""
    env.config.write_text('[[topic]]\nname = "Sys"\ncategories = ["cs.DC"]\n')
    assert env.run("follow", "Sys") == 0
    env.config.write_text('[[topic]]\nname = "Systems"\ncategories = ["cs.DC"]\n')
    capsys.readouterr()
    assert env.run("topic", "edit", "Lab blog", "--name", "sys") == 0
    err = capsys.readouterr().err
    assert err.endswith("renamed Lab blog to sys\n")
    assert not topics(env, capsys)["sys"]["following"]
    assert json.loads((env.data / "state.json").read_text())["follows"] == {}
    assert env.run("topics") == 0
    assert "you follow" not in capsys.readouterr().err


def test_topic_edit_renames_a_topic_of_your_own_and_its_follow_goes_with_it(env, capsys):
    """No command renamed a topic: renaming one in the config file left its follow behind."""
    assert env.run("follow", "Lab blog") == 0
    capsys.readouterr()
    assert env.run("topic", "edit", "lab blog", "--name", "Lab news") == 0
    # A rename only: nothing else is said to have changed.
    assert capsys.readouterr().err == "renamed Lab blog to Lab news, still followed\n"
    assert env.run("topic", "edit", "Lab news", "--name", "LAB NEWS", "--query", "abs:robot") == 0  # case only, and more
    assert capsys.readouterr().err == (
        "renamed Lab news to LAB NEWS, still followed\nchanged LAB NEWS: feeds https://lab.example.org/atom.xml; matching abs:robot\n"
    )
    shown = topics(env, capsys)
    assert "Lab blog" not in shown and "Lab news" not in shown
    assert shown["LAB NEWS"]["following"]
    assert shown["LAB NEWS"]["definition"] == {"query": "abs:robot", "feeds": ["https://lab.example.org/atom.xml"]}
    assert list(json.loads((env.data / "state.json").read_text())["follows"]) == ["LAB NEWS"]

    for typed, refused in (
        (("LAB NEWS", "--name", "sparse"), "there is a topic called 'Sparse' already"),
        (("LAB NEWS", "--name", "Other", "--query", "abs:("), "bad query: unbalanced parenthesis"),
        (("Sparse", "--name", "Dense"), f"Sparse is defined in {env.config}: rename its [[topic]] table there"),
        (("Edge Inference", "--name", "EI"), "Edge Inference is a catalogue topic: its name stays"),
    ):
        capsys.readouterr()
        assert env.run("topic", "edit", *typed) == 2
        assert refused in capsys.readouterr().err
    assert {"LAB NEWS", "Sparse", "Edge Inference"} <= set(topics(env, capsys))


@pytest.mark.parametrize(
    ("command", "message"),
    [
        (("follow", "Starred"), "'Starred' is the reading list, not a topic (feedtui papers Starred lists it)"),
        (("unfollow", "★ starred"), "'★ starred' is the reading list, not a topic (feedtui papers Starred lists it)"),
        (("topic", "show", "STARRED"), "'STARRED' is the reading list, not a topic (feedtui papers Starred lists it)"),
        (("follow", ""), "a topic name is needed (feedtui topics lists them)"),
        (("papers", "  "), "a topic name is needed (feedtui topics lists them)"),
        (("topic", "rm", ""), "a topic name is needed (feedtui topics lists them)"),
    ],
)
def test_the_reading_list_and_an_empty_name_are_no_topic_and_said_so(env, capsys, command, message):
    """`follow Starred` said there was no topic called 'Starred', and an empty
    name matched every topic as a prefix ("'' matches several topics: …")."""
    before = topics(env, capsys)
    assert env.run(*command) == 2
    assert capsys.readouterr().err == f"feedtui: {message}\n"
    assert topics(env, capsys) == before
