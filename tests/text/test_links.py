"""Which links are opened, and what the reader is told about the others."""

from __future__ import annotations

import pytest

from feedtui.text.links import feed_url, hide_passwords, refusal, safe_link, shown_link


@pytest.mark.parametrize(
    ("url", "safe"),
    [
        ("https://arxiv.org/abs/2611.00001v1", "https://arxiv.org/abs/2611.00001v1"),
        ("  http://lab.example.org/post  ", "http://lab.example.org/post"),
        ("javascript:alert(1)", None),
        ("file:///etc/passwd", None),
        ("https://lab.example.org/a b", None),
        ("https://", None),
        ("", None),
    ],
)
def test_only_whole_http_links_are_safe(url, safe):
    assert safe_link(url) == safe


@pytest.mark.parametrize(
    ("url", "said"),
    [
        ("javascript:alert(1)", "Refused to open a javascript: link; feedtui only opens http and https links"),
        ("https://lab.example.org/a b", "Refused to open a malformed link"),
        ("", "This paper has no http or https link to open"),  # once "a malformed link"
        ("   ", "This paper has no http or https link to open"),
    ],
)
def test_a_refused_link_is_explained(url, said):
    assert refusal(url) == said


@pytest.mark.parametrize(
    ("typed", "stored"),
    [
        ("https://example.org/feed.xml", "https://example.org/feed.xml"),
        ("  https://example.org/f?tags=ai,ml  ", "https://example.org/f?tags=ai,ml"),
        ("HTTP://Example.org/Feed", "http://Example.org/Feed"),
        ("http://[::1]:8080/feed", "http://[::1]:8080/feed"),
        ("http://127.0.0.1:65535/feed", "http://127.0.0.1:65535/feed"),
        ("https://ünï.example/feed", "https://ünï.example/feed"),
    ],
)
def test_feed_url_keeps_what_the_fetcher_can_fetch(typed, stored):
    assert feed_url(typed) == stored


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("http://ana:pw@host/feed.xml", "http://ana:***@host/feed.xml"),
        ("https://ana:p@ss:w@host:8443/f?x=a@b", "https://ana:***@host:8443/f?x=a@b"),
        ("failed: A (http://a:1@h/x), B (ftp://b:2@h2/)", "failed: A (http://a:***@h/x), B (ftp://b:***@h2/)"),
        ("http://:pw@host/", "http://:***@host/"),
        # No password: nothing to hide.
        ("https://ana@host/feed", "https://ana@host/feed"),
        ("https://host/papers/@lab", "https://host/papers/@lab"),
        ("https://host/f?who=a:b@c", "https://host/f?who=a:b@c"),
        ("mailto:ana@example.org", "mailto:ana@example.org"),
        ("ana:pw@host", "ana:pw@host"),
    ],
)
def test_hide_passwords(text, shown):
    assert hide_passwords(text) == shown


def test_hide_passwords_of_given_urls_also_without_a_scheme():
    """A topic named from its feed's whole netloc by an older OPML import."""
    url = "http://ana:s3cr@t@127.0.0.1:9/missing.xml"
    label = f"ana:s3cr@t@127.0.0.1:9/missing.xml ({url})"
    assert hide_passwords(label, url) == "ana:***@127.0.0.1:9/missing.xml (http://ana:***@127.0.0.1:9/missing.xml)"
    assert hide_passwords(label, "http://127.0.0.1:9/other.xml") == "ana:s3cr@t@127.0.0.1:9/missing.xml (http://ana:***@127.0.0.1:9/missing.xml)"


@pytest.mark.parametrize(
    ("url", "shown"),
    [
        # Cyrillic а among Latin letters: a look-alike of example.com, shown as browsers show it.
        ("http://ex\u0430mple.com/post", "http://xn--exmple-4nf.com/post"),
        ("https://EX\u0410MPLE.com/", "https://xn--exmple-4nf.com/"),
        # Only the host changes: the user name, the port and the path keep their text.
        ("http://ex\u0430mple.com@ex\u0430mple.com:8080/p?q=ex\u0430mple", "http://ex\u0430mple.com@xn--exmple-4nf.com:8080/p?q=ex\u0430mple"),
        # Greek ο among Latin letters.
        ("https://g\u03bf\u03bfgle.example/", "https://xn--ggle-0nda.example/"),
        # One script to a label: names as their owners write them.
        ("https://M\u00fcnchen.de/p", "https://M\u00fcnchen.de/p"),
        ("https://\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444/", "https://\u043f\u0440\u0438\u043c\u0435\u0440.\u0440\u0444/"),
        ("https://\u4f8b\u3048.jp/a", "https://\u4f8b\u3048.jp/a"),
        ("https://arxiv.org/abs/2611.00001v1", "https://arxiv.org/abs/2611.00001v1"),
        ("http://[::1]:8080/", "http://[::1]:8080/"),
        ("", ""),
    ],
)
def test_a_host_mixing_look_alike_scripts_is_shown_in_its_ascii_form(url, shown):
    assert shown_link(url) == shown
