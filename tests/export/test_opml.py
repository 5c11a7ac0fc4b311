from __future__ import annotations

from datetime import datetime
from pathlib import Path
from xml.etree import ElementTree

import pytest

from feedtui.export.opml import FEEDTUI_NS, OpmlError, export_opml, import_opml
from feedtui.model import UTC, Topic, TopicDefinition
from feedtui.topics.names import MAX_TOPIC_NAME, name_problem

DATA = Path(__file__).parent.parent / "data" / "opml"


def topics_by_name(result) -> dict[str, Topic]:
    return {topic.name: topic for topic in result.topics}


# -- export --------------------------------------------------------------------


def test_export_writes_feed_topics_only_one_outline_per_feed():
    topics = [
        Topic("Lab blog", TopicDefinition(feeds=("https://lab.example.org/atom.xml",)), "Our group's posts"),
        Topic("Sparse Attention", TopicDefinition(query='abs:"sparse attention"')),
        Topic(
            "Robot news",
            TopicDefinition(
                query="abs:robot*",
                categories=("cs.RO",),
                feeds=("https://a.example.net/rss", "https://b.example.com/feed?x=1&y=2"),
            ),
        ),
    ]
    text = export_opml(topics, created=datetime(2026, 10, 4, 12, 0, tzinfo=UTC))
    root = ElementTree.fromstring(text)
    assert root.tag == "opml" and root.get("version") == "2.0"
    assert root.find("head/dateCreated").text == "Sun, 04 Oct 2026 12:00:00 GMT"
    body = root.find("body")
    assert [o.get("text") for o in body] == ["Lab blog", "Robot news"]
    single, folder = list(body)
    assert single.attrib == {
        "type": "rss",
        "text": "Lab blog",
        "title": "Lab blog",
        "xmlUrl": "https://lab.example.org/atom.xml",
        "description": "Our group's posts",
    }
    assert folder.get("type") is None and folder.get("xmlUrl") is None
    assert folder.get(f"{{{FEEDTUI_NS}}}query") == "abs:robot*"
    assert folder.get(f"{{{FEEDTUI_NS}}}categories") == "cs.RO"
    assert [(o.get("type"), o.get("xmlUrl")) for o in folder] == [
        ("rss", "https://a.example.net/rss"),
        ("rss", "https://b.example.com/feed?x=1&y=2"),
    ]
    assert 'xmlns:feedtui="' + FEEDTUI_NS + '"' in text


def test_export_strips_control_characters_so_the_xml_stays_valid():
    topic = Topic("Bad\x1b[31m name\x07", TopicDefinition(feeds=("https://x.example.org/f",)))
    root = ElementTree.fromstring(export_opml([topic]))
    assert root.find("body/outline").get("text") == "Bad name"


def test_round_trip_keeps_every_feed_topic_whole():
    topics = [
        Topic("Lab blog", TopicDefinition(feeds=("https://lab.example.org/atom.xml",)), "Our group's posts"),
        Topic(
            "Robot news",
            TopicDefinition(
                query='abs:"robot learning" OR ti:manipulat*',
                categories=("cs.RO", "cs.LG"),
                feeds=("https://a.example.net/rss", "https://b.example.com/feed?x=1&y=2"),
            ),
            "Two blogs, narrowed",
        ),
        Topic("Ünïcode & <angles>", TopicDefinition(feeds=("http://u.example.org/feed",), query="au:Müller")),
    ]
    result = import_opml(export_opml(topics).encode("utf-8"), "round.opml")
    assert result.topics == topics
    assert result.warnings == [] and result.duplicates == 0


def test_round_trip_keeps_topics_that_share_a_feed():
    shared = "https://shared.example.org/feed"
    topics = [
        Topic("One Feed", TopicDefinition(feeds=(shared,)), "Just the shared blog"),
        Topic("Two Feeds", TopicDefinition(feeds=(shared, "https://other.example.net/rss"))),
        Topic("Same feed, other name", TopicDefinition(feeds=(shared,))),
        Topic(shared, TopicDefinition(feeds=(shared,))),
    ]
    result = import_opml(export_opml(topics).encode("utf-8"), "round.opml")
    assert result.topics == topics
    assert result.duplicates == 0


def test_the_namespace_names_the_project_s_own_page_on_the_package_index():
    assert FEEDTUI_NS == "https://pypi.org/project/feedtui-papers/#opml-1"


def test_a_file_exported_under_the_former_namespace_is_still_read_whole():
    shared = "https://shared.example.org/feed"
    topics = [
        Topic("Robot news", TopicDefinition(query="abs:robot*", categories=("cs.RO",), feeds=(shared, "https://b.example.com/rss"))),
        Topic("Same feed, other name", TopicDefinition(feeds=(shared,))),
    ]
    text = export_opml(topics)
    assert FEEDTUI_NS in text
    former = text.replace(FEEDTUI_NS, "https://pypi.org/project/feedtui/#opml-1")
    result = import_opml(former.encode("utf-8"), "before-the-rename.opml")
    # The query and categories come back, and (a file feedtui wrote) no outline is dropped.
    assert result.topics == topics
    assert result.duplicates == 0


def test_a_loose_feed_under_a_name_of_its_own_stays_a_topic_beside_its_folder():
    data = b"""<opml version="2.0"><body>
  <outline text="Blogs">
    <outline type="rss" text="Fern Notes" xmlUrl="https://ferns.example.org/rss"/>
    <outline type="rss" text="Moss Weekly" xmlUrl="https://moss.example.org/rss"/>
  </outline>
  <outline type="rss" text="Fern Notes" xmlUrl="https://ferns.example.org/rss"/>
  <outline type="rss" text="Shade plants" xmlUrl="https://ferns.example.org/rss"/>
  <outline type="rss" text="Shade plants" xmlUrl="https://FERNS.example.org/rss"/>
</body></opml>"""
    result = import_opml(data, "reader.opml")
    assert [(t.name, t.definition.feeds) for t in result.topics] == [
        ("Blogs", ("https://ferns.example.org/rss", "https://moss.example.org/rss")),
        ("Shade plants", ("https://ferns.example.org/rss",)),
    ]
    # The loose copy of "Fern Notes" and the second "Shade plants" list the same feed again.
    assert result.duplicates == 2


# -- import: samples from other readers ------------------------------------------


def test_newsboat_export_with_nested_folders_and_duplicates():
    result = import_opml((DATA / "newsboat.opml").read_bytes(), "newsboat.opml")
    topics = topics_by_name(result)
    assert list(topics) == ["Robotics", "Perception", "Systems & Compilers", "Department News"]
    assert topics["Robotics"].definition.feeds == (
        "https://lab.example.org/robotics/atom.xml",
        "https://blog.example.net/feeds/manipulation.rss",
    )
    assert topics["Perception"].definition.feeds == ("https://vision.example.com/rss",)
    # The robotics lab feed sits in two folders (two tags): it stays in both.
    assert topics["Systems & Compilers"].definition.feeds == (
        "https://compilers.example.org/index.xml",
        "https://LAB.example.org/robotics/atom.xml",
    )
    assert topics["Department News"].definition == TopicDefinition(feeds=("https://news.example.edu/department/feed",))
    assert all(t.origin == "user" for t in result.topics)
    # The repeated compilers feed, and the top-level copy of a feed already in Perception.
    assert result.duplicates == 2
    assert result.warnings == [
        "newsboat.opml: skipped feed 'Unread papers': 'query:Unread papers:unread = \"yes\"' is not an http(s) URL",
        "newsboat.opml: skipped feed 'Local script': 'exec:~/bin/make-feed.sh' is not an http(s) URL",
    ]
    assert result.skipped == 2


def test_nom_style_flat_list_one_topic_per_feed_with_unique_names():
    result = import_opml((DATA / "nom.opml").read_bytes(), "nom.opml")
    assert [(t.name, t.definition.feeds) for t in result.topics] == [
        ("Tidal Computing Group", ("https://tidal.example.org/posts/index.xml",)),
        ("Weekly Digest", ("https://digest-one.example.net/feed.atom",)),
        ("Weekly Digest (2)", ("https://digest-two.example.com/rss.xml",)),
        ("plain.example.org/feeds/all", ("http://plain.example.org/feeds/all/",)),
    ]
    assert result.duplicates == 1
    assert result.warnings == []


def test_a_feed_named_from_its_url_is_named_without_user_name_or_password():
    data = b"""<opml version="1.0"><body>
  <outline type="rss" title="" text="" xmlUrl="https://ana:p@ss:word@lab.example.org:8443/private/feed.xml"/>
</body></opml>"""
    (topic,) = import_opml(data, "newsboat.opml").topics
    assert topic.name == "lab.example.org:8443/private/feed.xml"
    assert topic.definition.feeds == ("https://ana:p@ss:word@lab.example.org:8443/private/feed.xml",)


def test_export_names_a_folder_s_feeds_without_user_name_or_password():
    feeds = ("https://ana:secret@a.example.org/rss?x=1", "https://b.example.org/rss")
    body = ElementTree.fromstring(export_opml([Topic("Two", TopicDefinition(feeds=feeds))])).find("body")
    assert [(o.get("text"), o.get("title"), o.get("xmlUrl")) for o in body[0]] == [
        ("https://a.example.org/rss?x=1", "https://a.example.org/rss?x=1", feeds[0]),
        ("https://b.example.org/rss", "https://b.example.org/rss", feeds[1]),
    ]


def test_thunderbird_style_wrapper_folders_and_unnamed_outlines():
    data = b"""<?xml version="1.0" encoding="UTF-8"?>
<opml version="1.0"><head><title>Thunderbird OPML Export - Blogs</title></head><body>
  <outline title="Blogs &amp; News Feeds">
    <outline title="Quantum">
      <outline type="rss" text="Qubit Diaries" xmlUrl="https://qubits.example.org/feed"/>
    </outline>
    <outline>
      <outline type="rss" text="Loose feed" xmlUrl="https://loose.example.org/feed"/>
    </outline>
    <outline title="Empty folder"><outline text="just a note"/></outline>
  </outline>
</body></opml>"""
    result = import_opml(data, "tb.opml")
    assert [(t.name, t.definition.feeds) for t in result.topics] == [
        ("Blogs & News Feeds", ("https://loose.example.org/feed",)),
        ("Quantum", ("https://qubits.example.org/feed",)),
    ]
    assert result.warnings == [
        "tb.opml: skipped 'just a note': not a feed (it has no xmlUrl)",
        "tb.opml: folder 'Empty folder' holds no http(s) feeds; no topic made from it",
    ]


def test_opml2_category_attribute_groups_loose_feeds_by_tag():
    data = b"""<opml version="2.0"><head/><body>
  <outline type="rss" text="One" xmlUrl="https://one.example.org/rss" category="ml,/Science/Physics"/>
  <outline type="rss" text="Two" xmlUrl="https://two.example.org/rss" category="ml"/>
</body></opml>"""
    result = import_opml(data, "tags.opml")
    assert [(t.name, t.definition.feeds) for t in result.topics] == [
        ("ml", ("https://one.example.org/rss", "https://two.example.org/rss")),
        ("Physics", ("https://one.example.org/rss",)),
    ]


def test_names_and_warnings_carry_no_control_characters():
    data = (
        '<opml version="2.0"><body>'
        '<outline type="rss" text="Evil&#x9b;2J\u202e title  with\ttabs" xmlUrl="https://e.example.org/rss"/>'
        '<outline type="rss" text="Script" xmlUrl="javascript:alert(1)&#x9b;31m"/>'
        "</body></opml>"
    ).encode("utf-8")
    result = import_opml(data, "evil.opml")
    assert [t.name for t in result.topics] == ["Evil title with tabs"]
    assert result.warnings == ["evil.opml: skipped feed 'Script': 'javascript:alert(1)' is not an http(s) URL"]


def test_feeds_that_could_never_be_fetched_are_skipped_with_a_warning():
    """The same check as `topic add --feed`: a port out of range or a broken
    IPv6 host was imported, and failed at every refresh."""
    data = (
        '<opml version="2.0"><body><outline text="Lab">'
        '<outline type="rss" text="Bad port" xmlUrl="http://127.0.0.1:99999/x"/>'
        '<outline type="rss" text="Bad host" xmlUrl="http://[::1/x"/>'
        '<outline type="rss" text="Not IPv6" xmlUrl="http://[v1.fe]/x"/>'
        '<outline type="rss" text="Good" xmlUrl="HTTPS://good.example.org/rss"/>'
        "</outline></body></opml>"
    ).encode("utf-8")
    result = import_opml(data, "lab.opml")
    assert [(t.name, t.definition.feeds) for t in result.topics] == [("Lab", ("https://good.example.org/rss",))]
    assert result.warnings == [
        "lab.opml: skipped feed 'Bad port': 'http://127.0.0.1:99999/x' has an invalid port (a port is a number from 1 to 65535)",
        "lab.opml: skipped feed 'Bad host': 'http://[::1/x' is not an http(s) URL",
        "lab.opml: skipped feed 'Not IPv6': 'http://[v1.fe]/x' is malformed (a host in [ ] must be an IPv6 address, like [2001:db8::1])",
    ]
    assert result.skipped == 3


def test_very_long_names_are_cut():
    name = "N" * 5000
    data = f'<opml><body><outline type="rss" text="{name}" xmlUrl="https://n.example.org/"/></body></opml>'.encode()
    (topic,) = import_opml(data, "long.opml").topics
    assert len(topic.name) == MAX_TOPIC_NAME and topic.name.endswith("…")


def test_a_journal_s_long_title_is_cut_to_a_topic_name_and_so_is_its_unique_form():
    title = "Proceedings of the Imaginary Society for Quillon Studies: Latest Articles in Wobbly Scheduling, Marrow Kernels and Related Topics"
    data = f"""<opml version="2.0"><body>
  <outline type="rss" text="{title}" xmlUrl="https://journal.example/rss"/>
  <outline text="{title}"><outline type="rss" text="a" xmlUrl="https://journal.example/rss2"/></outline>
</body></opml>""".encode()
    topics = import_opml(data, "long.opml").topics
    # 129 characters: the folder's name is 119 of them and `…`; the lone feed's leaves room for ` (2)`.
    assert [t.name for t in topics] == ["Proceedings of the Imaginary Society for Quillon Studies: Latest Articles in Wobbly Scheduling, Marrow Kernels and… (2)", title[:119] + "…"]
    assert [name_problem(t.name) for t in topics] == ["", ""]


def test_latin1_encoded_file_is_read():
    data = '<?xml version="1.0" encoding="ISO-8859-1"?><opml><body><outline title="Café"><outline type="rss" text="x" xmlUrl="https://c.example.org/"/></outline></body></opml>'.encode("latin-1")
    assert [t.name for t in import_opml(data, "latin.opml").topics] == ["Café"]


def test_a_file_in_windows_1252_that_names_no_encoding_is_read_as_such_with_a_warning():
    """What older readers wrote: it failed as "not well-formed (invalid token)",
    with no word of the encoding."""
    name = "Café “Quotes” — Ü"
    data = (
        f'<opml version="2.0"><body><outline text="{name}"><outline type="rss" text="x" xmlUrl="https://c.example.org/"/>'
        "</outline></body></opml>"
    ).encode("cp1252")
    result = import_opml(data, "old.opml")
    assert [t.name for t in result.topics] == [name]
    assert result.warnings == ["old.opml: the file is not UTF-8 and names no encoding; read as windows-1252"]


@pytest.mark.parametrize(
    "data",
    [
        '<opml><body><outline title="Café"><outline type="rss" text="x" xmlUrl="https://c.example.org/"/></outline></body></opml>'.encode(),
        '<?xml version="1.0"?><opml><body><outline title="Café"><outline type="rss" text="x" xmlUrl="https://c.example.org/"/></outline></body></opml>'.encode(),
        '<opml><body><outline title="Café"><outline type="rss" text="x" xmlUrl="https://c.example.org/"/></outline></body></opml>'.encode("utf-16"),
    ],
    ids=["utf-8", "utf-8 declared without encoding", "utf-16 with a byte order mark"],
)
def test_a_file_in_utf_8_or_with_a_byte_order_mark_is_read_as_it_is_without_a_warning(data):
    result = import_opml(data, "new.opml")
    assert [t.name for t in result.topics] == ["Café"] and result.warnings == []


def test_a_file_that_names_its_encoding_wrongly_is_still_refused():
    data = '<?xml version="1.0" encoding="UTF-8"?><opml><body><outline title="Café"/></body></opml>'.encode("latin-1")
    with pytest.raises(OpmlError, match="not well-formed") as refused:
        import_opml(data, "lying.opml")
    # The bytes that stopped it are no UTF-8: the message says where to look.
    assert str(refused.value).endswith(
        "; the file is not in the UTF-8 it says it is: save it as UTF-8, or name its real encoding"
    )


def _folder_of_one_feed(name: str, encoding: str) -> bytes:
    return (
        f'<?xml version="1.0" encoding="{encoding}"?><opml version="2.0"><body><outline text="{name}">'
        '<outline type="rss" text="x" xmlUrl="https://c.example.org/"/></outline></body></opml>'
    ).encode(encoding)


@pytest.mark.parametrize(
    ("encoding", "name"),
    [
        ("Shift_JIS", "論文の新着"),
        ("EUC-JP", "論文の新着"),
        ("GB2312", "论文新到"),
        ("GBK", "論文新到"),  # GBK's traditional characters: not in GB2312
        ("Big5", "論文新到"),
        ("EUC-KR", "논문 새 글"),
        ("KOI8-R", "Новые статьи"),
    ],
)
def test_a_file_in_the_encoding_it_names_is_read_whatever_the_encoding(encoding, name):
    """expat reads no multi-byte encoding but UTF-8 and UTF-16: Shift_JIS,
    GB2312, Big5 and EUC-KR files were refused with "multi-byte encodings are
    not supported", naming no file, and the CLI took it for a usage error."""
    result = import_opml(_folder_of_one_feed(name, encoding), "other.opml")
    assert [t.name for t in result.topics] == [name]


def test_a_file_labelled_gb2312_with_gbk_characters_is_read_as_gbk_as_browsers_do():
    name = "論文新到 研究の事"
    data = _folder_of_one_feed(name, "gbk").replace(b'encoding="gbk"', b'encoding="GB2312"')
    assert [t.name for t in import_opml(data, "gb.opml").topics] == [name]


def test_a_file_not_in_the_multi_byte_encoding_it_names_is_refused_in_words():
    data = _folder_of_one_feed("論文の新着", "Shift_JIS").replace(b"Shift_JIS", b"EUC-KR")
    data = data.replace(b'text="x"', b'text="\xff\xff"')
    with pytest.raises(OpmlError) as refused:
        import_opml(data, "odd.opml")
    assert str(refused.value).startswith("odd.opml:")
    assert "not in the EUC-KR it says it is" in str(refused.value)


def test_a_file_that_says_latin_1_and_is_utf_8_is_read_as_utf_8():
    data = _folder_of_one_feed("Café Ü", "utf-8").replace(b'encoding="utf-8"', b'encoding="ISO-8859-1"')
    assert [t.name for t in import_opml(data, "mislabelled.opml").topics] == ["Café Ü"]


def test_a_binary_file_is_refused_without_saying_it_names_an_encoding():
    data = b"\x00\x01\x02\x03\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
    with pytest.raises(OpmlError) as refused:
        import_opml(data, "picture.png")
    assert "says" not in str(refused.value)
    assert "not UTF-8 text (is it an OPML file?)" in str(refused.value)


@pytest.mark.parametrize("levels", [90, 5000])
def test_folders_nested_too_deep_are_refused_in_words_not_a_traceback(levels):
    """600 levels ended in a RecursionError with a traceback."""
    feed = '<outline type="rss" text="x" xmlUrl="https://c.example.org/"/>'
    folders = '<outline text="L">' * levels
    data = f'<opml version="2.0"><body>{folders}{feed}{"</outline>" * levels}</body></opml>'.encode()
    if levels < 98:  # opml and body are two of the hundred levels
        assert [t.name for t in import_opml(data, "deep.opml").topics] == ["L"]
        return
    with pytest.raises(OpmlError, match="nested more than 100 deep"):
        import_opml(data, "deep.opml")


def test_a_newsboat_urls_file_is_read_as_its_opml_would_be_with_tags_as_topics():
    """It was refused as "not valid XML: not well-formed (invalid token)"."""
    data = b"""# newsboat urls
https://a.example.org/feed "Robotics" "~Arm Lab"
https://b.example.org/rss.xml Robotics "Vision & Maps"
https://c.example.org/atom.xml "~Tidal Group" !
http://ana:secret@d.example.org/private/
"query:Unread Articles:unread = \\"yes\\""
exec:~/bin/make-feed.sh

https://c.example.org/atom.xml "~Tidal Group"
"""
    result = import_opml(data, "urls")
    assert [(t.name, t.definition.feeds) for t in result.topics] == [
        ("Robotics", ("https://a.example.org/feed", "https://b.example.org/rss.xml")),
        ("Vision & Maps", ("https://b.example.org/rss.xml",)),
        ("Tidal Group", ("https://c.example.org/atom.xml",)),
        ("d.example.org/private", ("http://ana:secret@d.example.org/private/",)),
    ]
    assert result.warnings == [
        "urls: not OPML but a list of feed URLs, as in newsboat's urls file: each URL read as a feed, its tags as topics",
        "urls: skipped a feed: 'query:Unread Articles:unread = \"yes\"' is not an http(s) URL",
        "urls: skipped a feed: 'exec:~/bin/make-feed.sh' is not an http(s) URL",
    ]
    assert (result.duplicates, result.skipped) == (1, 2)


@pytest.mark.parametrize(
    "data",
    [b"see https://example.org/rss\n", b"https://example.org/rss\nand this line is prose\n", b"exec:make-feed\n"],
    ids=["prose first", "prose after", "no http(s) URL"],
)
def test_text_that_is_not_a_list_of_feed_urls_is_still_refused_as_xml(data):
    with pytest.raises(OpmlError, match="not valid XML"):
        import_opml(data, "notes.txt")


# -- invalid and hostile input ---------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "problem"),
    [
        # As `import json` says it ("not valid XML: no element found" before).
        (b"", "the file is empty (expected OPML from a feed reader or `feedtui export opml`)"),
        (b" \n\t\n", "the file is empty (expected OPML from a feed reader or `feedtui export opml`)"),
        (b"feeds: https://example.org/rss\n", "not valid XML: syntax error (line 1, column 1)"),
        (b"<opml><body><outline text='x'></body></opml>", "not valid XML: mismatched tag (line 1, column 33)"),
        (b"<opml version='2.0'><head/></opml>", "it has no <body> element, where OPML lists its feeds"),
        (
            b"<rss version='2.0'><channel/></rss>",
            "the root element is <rss>, not <opml> (it looks like a feed: add it with `feedtui topic add NAME --feed URL`)",
        ),
        (b"<html><body/></html>", "the root element is <html>, not <opml>"),
    ],
)
def test_invalid_opml_is_a_clear_error_naming_the_file(data, problem):
    with pytest.raises(OpmlError) as caught:
        import_opml(data, "/home/u/feeds.opml")
    assert str(caught.value) == f"/home/u/feeds.opml: {problem}"
    assert caught.value.source == "/home/u/feeds.opml"


def test_entity_expansion_bomb_is_refused_before_it_expands():
    levels = ['<!ENTITY lol0 "lolololololololololol">']
    levels += [f'<!ENTITY lol{n} "{("&lol%d;" % (n - 1)) * 10}">' for n in range(1, 10)]
    data = (
        '<?xml version="1.0"?><!DOCTYPE opml [' + "".join(levels) + "]>"
        '<opml><body><outline type="rss" text="&lol9;" xmlUrl="https://b.example.org/"/></body></opml>'
    ).encode()
    with pytest.raises(OpmlError) as caught:
        import_opml(data, "bomb.opml")
    assert "declares the XML entity 'lol0'" in str(caught.value)
    assert str(caught.value).startswith("bomb.opml: ")


def test_external_entity_is_never_read(tmp_path):
    secret = tmp_path / "secret.txt"
    secret.write_text("TOP-SECRET-CONTENT")
    data = (
        f'<?xml version="1.0"?><!DOCTYPE opml [<!ENTITY xxe SYSTEM "file://{secret}">]>'
        '<opml><head><title>&xxe;</title></head><body>'
        '<outline type="rss" text="x" xmlUrl="https://x.example.org/"/></body></opml>'
    ).encode()
    with pytest.raises(OpmlError) as caught:
        import_opml(data, "xxe.opml")
    assert "declares the XML entity 'xxe'" in str(caught.value)
    assert "TOP-SECRET" not in str(caught.value)


def test_external_dtd_is_not_loaded_and_its_entities_are_refused(tmp_path):
    dtd = tmp_path / "evil.dtd"
    dtd.write_text('<!ENTITY feeds "<outline type=\'rss\' text=\'from dtd\' xmlUrl=\'https://dtd.example.org/\'/>">')
    data = (
        f'<?xml version="1.0"?><!DOCTYPE opml SYSTEM "file://{dtd}">'
        "<opml><body>&feeds;<outline type='rss' text='x' xmlUrl='https://x.example.org/'/></body></opml>"
    ).encode()
    with pytest.raises(OpmlError) as caught:
        import_opml(data, "dtd.opml")
    assert "uses the entity '&feeds;' defined outside the file" in str(caught.value)


def test_a_plain_doctype_without_entities_is_fine():
    data = b"<!DOCTYPE opml><opml><body><outline type='rss' text='x' xmlUrl='https://x.example.org/'/></body></opml>"
    assert [t.name for t in import_opml(data, "d.opml").topics] == ["x"]
