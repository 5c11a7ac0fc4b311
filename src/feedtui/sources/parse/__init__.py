"""The parse path: response bytes → Papers. Two readers, one builder.

`route.parse_feed` is the one entry point. `document` settles the bytes'
encoding once, for both readers, and turns away what is not a feed.

An arXiv API response is read by one of two readers, and neither decides
what a Paper looks like: each only collects the raw strings of every entry
into the records of `build_api` (`ApiFeed`, `ApiEntry`).
- `read_fast`: ElementTree on expat, for exactly the layout the API serves;
- `read_feedparser` with `read_feedparser_api`: feedparser, lenient, for a
  response that strays from that layout or is malformed.
One builder, `build_api.build_api_feed`, makes the Papers from those
records, so the two readers give the same Papers; the tests in
tests/sources/parse/test_parse_equivalence.py prove it on fixtures,
generated feeds and invented entries.

Every other feed is read by feedparser and built by `build_arxiv_rss`
(arXiv's category feeds) or `build_generic` (any RSS or Atom feed). What the
builders share: `dates` (plausible UTC dates), `ids` (paper keys), `links`
(http links only) and `text` (clean, bounded text).

This file imports nothing: the reader imports `text` at start-up, and should
not pay for the readers and builders then.
"""
