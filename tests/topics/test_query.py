from __future__ import annotations

import itertools
from datetime import datetime, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from feedtui.model import Author, Paper
from feedtui.topics._text import fold_plural, joined_parts, normalised_text, plural_forms, tokens
from feedtui.topics.query import (
    FIELDS,
    And,
    AndNot,
    MatchDoc,
    Or,
    Query,
    QueryError,
    Term,
    category_query,
    combine_all,
    combine_any,
    compile_queries,
    compile_query,
    parse_query,
)


def T(field: str, text: str, *, phrase: bool = False, wildcard: bool = False) -> Term:
    return Term(field, text, phrase=phrase, wildcard=wildcard)


def doc(**fields) -> MatchDoc:
    base = {"id": "2609.01234v1", "title": "", "abstract": "", "authors": (), "categories": ("cs.DC",)}
    base.update(fields)
    return MatchDoc.build(**base)


def matches(query: str, **fields) -> bool:
    return parse_query(query).matches(doc(**fields))


# --- parsing ---------------------------------------------------------------


@pytest.mark.parametrize("field", FIELDS)
def test_every_field_parses_to_a_term(field):
    value = {"cat": "cs.DC", "id": "2609.01234"}.get(field, "gpu")
    assert parse_query(f"{field}:{value}") == T(field, value)


def test_field_names_are_case_insensitive_and_bare_terms_mean_all():
    assert parse_query("TI:gpu") == T("ti", "gpu")
    assert parse_query("gpu") == T("all", "gpu")
    assert parse_query('"edge inference"') == T("all", "edge inference", phrase=True)


def test_phrases_keep_their_words_with_single_spaces():
    assert parse_query('ti:"  pipeline \t parallelism "') == T("ti", "pipeline parallelism", phrase=True)
    # `+` is the API's URL form of a space, inside phrases too.
    assert parse_query('ti:"quantum+criticality"') == T("ti", "quantum criticality", phrase=True)


def test_wildcards_on_words_categories_and_ids():
    assert parse_query("abs:comput*") == T("abs", "comput", wildcard=True)
    assert parse_query("cat:cs.*") == T("cat", "cs.", wildcard=True)
    assert parse_query("cat:astro-ph*") == T("cat", "astro-ph", wildcard=True)
    assert parse_query("id:2609.*") == T("id", "2609.", wildcard=True)


def test_quoted_categories_and_ids_are_plain_values():
    assert parse_query('cat:"cs.DC"') == T("cat", "cs.DC")
    assert parse_query('id:"2609.01234v2"') == T("id", "2609.01234v2")


def test_author_forms():
    assert parse_query("au:del_maestro") == T("au", "del_maestro")
    assert parse_query('au:"ada lovelace"') == T("au", "ada lovelace", phrase=True)
    assert parse_query("au:Grünwald") == T("au", "Grünwald")
    assert parse_query("au:O'Neil") == T("au", "O'Neil")


def test_and_and_andnot_bind_tighter_than_or():
    a, b, c = T("all", "a1"), T("all", "b1"), T("all", "c1")
    assert parse_query("a1 OR b1 AND c1") == Or((a, And((b, c))))
    assert parse_query("a1 AND b1 OR c1") == Or((And((a, b)), c))
    assert parse_query("a1 OR b1 ANDNOT c1") == Or((a, AndNot(b, c)))


def test_and_and_andnot_group_left_to_right():
    a, b, c = T("all", "a1"), T("all", "b1"), T("all", "c1")
    assert parse_query("a1 ANDNOT b1 AND c1") == And((AndNot(a, b), c))
    assert parse_query("a1 AND b1 ANDNOT c1") == AndNot(And((a, b)), c)
    assert parse_query("a1 ANDNOT b1 ANDNOT c1") == AndNot(AndNot(a, b), c)


def test_parentheses_group_and_same_operators_flatten():
    a, b, c, d = (T("all", w) for w in ("a1", "b1", "c1", "d1"))
    assert parse_query("(a1 OR b1) AND c1") == And((Or((a, b)), c))
    assert parse_query("a1 AND (b1 AND c1) AND d1") == And((a, b, c, d))
    assert parse_query("((a1 OR (b1)) OR c1)") == Or((a, b, c))
    assert parse_query("a1 ANDNOT (b1 ANDNOT c1)") == AndNot(a, AndNot(b, c))


def test_field_groups_apply_the_field_to_bare_terms_only():
    assert parse_query("ti:(gpu OR fpga)") == Or((T("ti", "gpu"), T("ti", "fpga")))
    assert parse_query('abs:("kv cache" AND (paging OR au:kwon))') == And(
        (T("abs", "kv cache", phrase=True), Or((T("abs", "paging"), T("au", "kwon"))))
    )


def test_plus_and_any_whitespace_separate_tokens():
    expected = And((T("au", "del_maestro"), T("ti", "checkerboard")))
    assert parse_query("au:del_maestro+AND+ti:checkerboard") == expected
    assert parse_query("au:del_maestro\n\tAND  ti:checkerboard") == expected


def test_words_with_inner_punctuation_are_one_term():
    assert parse_query("ti:GPU-accelerated") == T("ti", "GPU-accelerated")
    assert parse_query("id:hep-th/9901001v2") == T("id", "hep-th/9901001v2")


# --- errors ----------------------------------------------------------------


def error_of(query: str) -> QueryError:
    with pytest.raises(QueryError) as caught:
        parse_query(query)
    return caught.value


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("ti:gpu AND abs:x)", "unbalanced parenthesis at column 17 (no ( to close)"),
        ('abs:"edge inference" OR (ti:edge AND ti:device',
         "unbalanced parenthesis at column 25 (this ( is never closed)"),
        ("cat:cs.DC AND (abs:gpu OR abs:fpga", "unbalanced parenthesis at column 15 (this ( is never closed)"),
        ("(a1 AND (b1 OR c1)", "unbalanced parenthesis at column 1 (this ( is never closed)"),
        (")", "unbalanced parenthesis at column 1 (no ( to close)"),
        ("(", "unbalanced parenthesis at column 1 (this ( is never closed)"),
        ("abs:(foo", "unbalanced parenthesis at column 5 (this ( is never closed)"),  # at the (, not the field
        ("gpu AND ti:(fpga OR asic", "unbalanced parenthesis at column 12 (this ( is never closed)"),
        ("ti:()", "empty parentheses at column 4"),
        ("tl:foo", "unknown field 'tl:' at column 1 (fields: ti, abs, au, cat, all, co, jr, id)"),
        ("gpu AND rn:123", "unknown field 'rn:' at column 9 (fields: ti, abs, au, cat, all, co, jr, id)"),
        ('abs:""', "empty phrase at column 5"),
        ('ti:gpu OR "  "', "empty phrase at column 11"),
        ('ti:"--"', "no letters or digits in the phrase at column 5"),
        ("ti:heatmap AND", "expected a term after AND at column 12"),
        ("a1 AND OR b1", "expected a term after AND at column 4"),
        ("(a1 ANDNOT) OR b1", "expected a term after ANDNOT at column 5"),
        ("AND a1", "expected a term before AND at column 1"),
        ("a1 OR (ANDNOT b1)", "expected a term before ANDNOT at column 8"),
        ("", "empty query at column 1"),
        ("  \n ", "empty query at column 1"),
        ("+++", "empty query at column 1"),
        ("a1 AND ()", "empty parentheses at column 8"),
        ('ti:"abc', 'unmatched quote at column 4 (a phrase ends with a second ")'),
        ('gpu"', 'unmatched quote at column 4 (a phrase ends with a second ")'),
        ('ti:"a b" OR "c', 'unmatched quote at column 13 (a phrase ends with a second ")'),
        ("ti:", "expected a word, phrase or ( after 'ti:' at column 1"),
        ("ti: gpu", "expected a word, phrase or ( after 'ti:' at column 1"),
        ("a1 NOT b1", "NOT is not supported at column 4 (write ANDNOT: a ANDNOT b)"),
        ("ti:AND", "AND is an operator, not a word at column 4 (write it in lower case to search for the word)"),
        ("cat:cs", "'cs' is an archive, not a category at column 5 (write cat:cs.* for all of its categories)"),
        ("cat:cs.DC.x", "'cs.DC.x' is not an arXiv category at column 5 (e.g. cat:cs.DC, or cat:cs.* for all of cs)"),
        ("id:12345", "'12345' is not an arXiv id at column 4 (e.g. id:2609.01234 or id:hep-th/9901001)"),
        ("ti:a*b", "'*' only works at the end of a word at column 5"),
        ("ti:co*", "a wildcard needs at least 3 letters or digits before '*' at column 4"),
        ("cat:c*", "a wildcard needs at least 2 characters before '*' at column 5"),
        ("*", "expected a word before '*' at column 1"),
        ('ti:"comput* graph"', "wildcards do not work inside a phrase at column 11"),
        ('ti:"a\\b"', "'\\' is not allowed in a phrase at column 6"),
        ("ti:a,b", "',' is not allowed in a word at column 5 (put the words in quotes: \"…\")"),
        ("ti:-gpu", "a word must start with a letter or digit at column 4"),
        ('“sparse attention”', "'“' is a curly quote at column 1 (write a phrase in straight quotes: \"…\")"),
        ('ti:sparse”', "'”' is a curly quote at column 10 (write a phrase in straight quotes: \"…\")"),
        ('ti:"sparse attention”', 'unmatched quote at column 4 (a phrase ends with a straight ", not ”)'),
        ("ti:a\x07b", "character U+0007 is not allowed at column 5"),
    ],
)
def test_error_messages_point_at_the_problem(query, expected):
    assert str(error_of(query)) == expected


@pytest.mark.parametrize(
    ("query", "column", "hint_part"),
    [
        ("ti:pipeline parallelism", 13, "write AND, OR or ANDNOT"),
        ("gpu and fpga", 5, "operators are written in capitals"),
        ("gpu not fpga", 5, "write ANDNOT"),
        ("a1 (b1)", 4, "write AND, OR or ANDNOT"),
        ('"a b"c1', 6, "write AND, OR or ANDNOT"),
        ("(a1) b1", 6, "write AND, OR or ANDNOT"),
        ("ti:(a1 b1)", 8, "write AND, OR or ANDNOT"),
    ],
)
def test_missing_operator_is_an_error_not_a_silent_or(query, column, hint_part):
    error = error_of(query)
    assert error.message.startswith("missing operator before")
    assert error.column == column
    assert hint_part in error.hint


def test_url_encoded_queries_get_a_hint():
    error = error_of("au:del_maestro+AND+ti:%22quantum%22")
    assert error.column == 23
    assert "URL-encoded" in error.hint


def test_query_error_carries_message_column_query_and_renders_a_caret():
    error = error_of("ti:gpu AND\tabs:x)")
    assert isinstance(error, ValueError)
    assert (error.message, error.column, error.query) == ("unbalanced parenthesis", 17, "ti:gpu AND\tabs:x)")
    assert error.caret_line() == "ti:gpu AND abs:x)\n                ^"
    assert error.caret_line(indent="  ") == "  ti:gpu AND abs:x)\n                  ^"
    assert error.annotated().splitlines()[2] == "unbalanced parenthesis at column 17 (no ( to close)"


def test_caret_line_never_prints_control_characters():
    error = error_of("ti:a\x1b[2Jb")
    assert "\x1b" not in error.caret_line()
    assert error.caret_line().splitlines()[1] == "    ^"


def test_nesting_is_limited_with_an_error():
    assert "nested too deeply" in str(error_of("(" * 80 + "gpu" + ")" * 80))
    assert "nested too deeply" in str(error_of(" ANDNOT ".join(f"w{i}" for i in range(80))))
    # A long flat conjunction or disjunction is not deep.
    long_and = parse_query(" AND ".join(f"w{i}" for i in range(500)))
    assert isinstance(long_and, And) and len(long_and.children) == 500


# --- trees -----------------------------------------------------------------


def test_nodes_keep_their_invariants():
    a, b = T("ti", "a1"), T("ti", "b1")
    with pytest.raises(ValueError):
        And((a,))
    with pytest.raises(ValueError):
        Or((Or((a, b)), a))
    with pytest.raises(ValueError):
        Term("tl", "gpu")
    with pytest.raises(ValueError):
        Term("ti", "two words")
    with pytest.raises(ValueError):
        Term("ti", "a  b", phrase=True)
    with pytest.raises(ValueError):
        Term("ti", "a+b", phrase=True)
    with pytest.raises(ValueError):
        Term("cat", "cs")
    with pytest.raises(TypeError):
        And((a, "ti:b1"))  # type: ignore[arg-type]


def test_combine_any_and_all_flatten():
    q1 = parse_query("cat:cs.DC AND ti:gpu")
    q2 = parse_query("ti:fpga")
    q3 = parse_query("au:lovelace OR au:hopper")
    combined = combine_any([q1, q2, q3])
    assert combined.to_api() == "(cat:cs.DC AND ti:gpu) OR ti:fpga OR au:lovelace OR au:hopper"
    assert parse_query(combined.to_api()) == combined
    assert combine_any([q2]) is q2
    assert combine_all([q1, q2]).to_api() == "cat:cs.DC AND ti:gpu AND ti:fpga"
    with pytest.raises(ValueError):
        combine_any([])


@pytest.mark.parametrize(
    ("category", "api", "inside", "outside"),
    [
        ("cs.DC", "cat:cs.DC", ["cs.DC"], ["cs.DS", "cs"]),
        ("cs.*", "cat:cs.*", ["cs.DC", "cs.LG"], ["q-bio.NC", "math.CO"]),
        ("cs", "cat:cs.*", ["cs.DC"], ["stat.ML"]),
        ("q-bio", "cat:q-bio.*", ["q-bio.NC"], ["q-fin.ST"]),
        ("hep-lat", "cat:hep-lat OR cat:hep-lat.*", ["hep-lat"], ["hep-ph", "hep-th"]),
        ("astro-ph", "cat:astro-ph OR cat:astro-ph.*", ["astro-ph", "astro-ph.CO"], ["gr-qc"]),
    ],
)
def test_category_query_means_what_topic_categories_mean(category, api, inside, outside):
    query = category_query(category)
    assert query.to_api() == api
    assert parse_query(api) == query
    for cat in inside:
        assert query.matches(doc(categories=(cat,))), cat
    for cat in outside:
        assert not query.matches(doc(categories=(cat,))), cat


@pytest.mark.parametrize("category", ["", "cs DC", "1cs", "cs.DC OR", "cs.D*C"])
def test_category_query_refuses_what_is_not_a_category(category):
    with pytest.raises(ValueError):
        category_query(category)


# --- printing --------------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "api"),
    [
        ("gpu", "all:gpu"),
        ('cat:cs.DC AND (abs:heterogeneous OR abs:"GPU and FPGA")',
         'cat:cs.DC AND (abs:heterogeneous OR abs:"GPU and FPGA")'),
        ("a1 OR b1 AND c1 ANDNOT d1", "all:a1 OR ((all:b1 AND all:c1) ANDNOT all:d1)"),
        ("a1 ANDNOT b1 ANDNOT c1", "(all:a1 ANDNOT all:b1) ANDNOT all:c1"),
        ("ti:(gpu OR fpga) AND au:del_maestro", "(ti:gpu OR ti:fpga) AND au:del_maestro"),
        ('TI:"pipeline  parallelism"', 'ti:"pipeline parallelism"'),
        ("abs:comput* ANDNOT cat:cs.*", "abs:comput* ANDNOT cat:cs.*"),
        ("au:del_maestro+ANDNOT+(ti:checkerboard+OR+ti:Pyrochlore)",
         "au:del_maestro ANDNOT (ti:checkerboard OR ti:Pyrochlore)"),
    ],
)
def test_to_api_is_explicitly_parenthesised(query, api):
    parsed = parse_query(query)
    assert parsed.to_api() == api
    assert parse_query(api) == parsed


@pytest.mark.parametrize(
    ("query", "text"),
    [
        ("all:gpu AND all:\"edge inference\"", 'gpu AND "edge inference"'),
        ("(a1 OR b1) ANDNOT c1", "(a1 OR b1) ANDNOT c1"),
        ("(a1 AND b1) OR c1", "a1 AND b1 OR c1"),
        ("a1 AND (b1 ANDNOT c1)", "a1 AND (b1 ANDNOT c1)"),
        ("(a1 ANDNOT b1) AND c1", "a1 ANDNOT b1 AND c1"),
        ("a1 ANDNOT (b1 OR c1)", "a1 ANDNOT (b1 OR c1)"),
        ("ti:(x1 OR y1) AND zed*", "(ti:x1 OR ti:y1) AND zed*"),
    ],
)
def test_str_is_the_short_human_form(query, text):
    parsed = parse_query(query)
    assert str(parsed) == text
    assert parse_query(text) == parsed


WORDS = st.sampled_from(["gpu", "GPUs", "edge-inference", "del_maestro", "O'Neil", "Grünwald", "x86", "2026"])


@st.composite
def terms(draw) -> Term:
    field = draw(st.sampled_from(FIELDS))
    if field == "cat":
        value, wildcard = draw(st.sampled_from(
            [("cs.DC", False), ("hep-th", False), ("astro-ph.CO", False), ("cs.", True), ("math", True), ("cs.D", True)]
        ))
        return Term("cat", value, wildcard=wildcard)
    if field == "id":
        return Term("id", draw(st.sampled_from(["2609.01234", "2609.01234v2", "hep-th/9901001"])))
    if draw(st.booleans()):
        words = draw(st.lists(WORDS, min_size=1, max_size=3))
        return Term(field, " ".join(words), phrase=True)
    word = draw(WORDS)
    return Term(field, word, wildcard=draw(st.booleans()) and sum(c.isalnum() for c in word) >= 3)


queries = st.recursive(
    terms(),
    lambda children: st.one_of(
        st.lists(children, min_size=2, max_size=4).map(combine_all),
        st.lists(children, min_size=2, max_size=4).map(combine_any),
        st.tuples(children, children).map(lambda pair: AndNot(*pair)),
    ),
    max_leaves=12,
)


@given(queries)
@settings(max_examples=300, deadline=None)
def test_printing_then_parsing_gives_the_same_tree(query):
    assert parse_query(query.to_api()) == query
    assert parse_query(str(query)) == query


QUERY_ALPHABET = st.sampled_from(
    list('()"*+:-._/\' \t') + ["AND", "OR", "ANDNOT", "NOT", "ti:", "abs:", "au:", "cat:", "id:", "all:", "tl:",
                               "gpu", "cs.DC", "2609.01234", "é", "\x00", "%22", "(("]
)


@given(st.one_of(st.text(), st.lists(QUERY_ALPHABET, max_size=30).map("".join)))
@settings(max_examples=500, deadline=None)
def test_any_text_is_a_query_or_a_query_error(text):
    try:
        query = parse_query(text)
    except QueryError as error:
        assert 1 <= error.column <= len(text) + 1
        assert error.query == text
        return
    assert isinstance(query, Query)
    assert parse_query(query.to_api()) == query


# --- local matching --------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "abstract", "expected"),
    [
        ("abs:net", "a network of networks", False),
        ("abs:net", "the net-work split", True),
        ("abs:gpu", "Two GPUs.", True),
        ("abs:GPUs", "one GPU", True),
        ("abs:network", "deep networks", True),
        ("abs:networks", "a deep network", True),
        ("abs:accelerators", "an accelerator", True),
        ("abs:policy", "learned policies", True),
        ("abs:cache", "KV caches", True),
        ("abs:caches", "the KV-cache", True),
        ("abs:batch", "large batches", True),
        ("abs:class", "two classes", True),
        ("abs:process", "many processes", True),
        ("abs:news", "a new method", False),
        ("abs:corpus", "a corpu", False),
        ("abs:\"edge inference\"", "low-power edge-inference chips", True),
        ("abs:\"edge inference\"", "Edge Inference", True),
        ("abs:\"edge inference\"", "edge (inference)", True),
        ("abs:\"edge inference\"", "edge devices and inference", False),
        ("abs:\"edge inference\"", "inference at the edge", False),
        ("abs:\"GPU and FPGA\"", "mixing GPUs and FPGAs", True),
        ("abs:\"GPU and FPGA\"", "FPGA and GPU", False),
        ("abs:GPU-accelerated", "a GPU accelerated solver", True),
        ("abs:comput*", "computing, computation and compute", True),
        ("abs:comput*", "we recompute", False),
        ("abs:cache*", "one cache", True),
        ("abs:GPU-acc*", "GPU-accelerated", True),
        ("abs:GPU-acc*", "GPU based acceleration", False),
        ("abs:naive", "a naïve baseline", True),
        ("abs:\"5.2\"", "a 5.2× speedup", True),
        ("abs:gpu", "", False),
    ],
)
def test_word_phrase_plural_and_wildcard_matching(query, abstract, expected):
    assert matches(query, abstract=abstract) is expected


@pytest.mark.parametrize(
    ("query", "categories", "expected"),
    [
        ("cat:cs.DC", ("cs.DC",), True),
        ("cat:cs.dc", ("cs.DC",), True),
        ("cat:cs.DC", ("cs.AR", "cs.DC"), True),
        ("cat:cs.DC", ("cs.DS",), False),
        ("cat:cs.*", ("cs.AR",), True),
        ("cat:cs.*", ("cond-mat.str-el",), False),
        ("cat:cs.D*", ("cs.DS",), True),
        ("cat:cs.D*", ("cs.AR",), False),
        ("cat:astro-ph", ("astro-ph",), True),
        ("cat:astro-ph", ("astro-ph.CO",), False),
        ("cat:astro-ph*", ("astro-ph.CO",), True),
        ("cat:hep-th", ("hep-th",), True),
        ("cat:hep-th", ("hep-ph",), False),
    ],
)
def test_category_matching(query, categories, expected):
    assert matches(query, categories=categories) is expected


AUTHORS = ("Ada Lovelace", "Kurt Grünwald", "Adrian Del Maestro", "Alan Turing")


@pytest.mark.parametrize(
    ("query", "expected"),
    [
        ("au:lovelace", True),
        ("au:Lovelace", True),
        ("au:ada", True),
        ('au:"ada lovelace"', True),
        ("au:ada_lovelace", True),
        ('au:"lovelace ada"', False),
        ('au:"lovelace kurt"', False),  # never across two authors
        ("au:grunwald", True),
        ("au:Grünwald", True),
        ("au:del_maestro", True),
        ('au:"del maestro"', True),
        ("au:maestro_del", False),
        ("au:love*", True),
        ("au:hopper", False),
        ("au:turings", False),  # author names are not plural-folded
    ],
)
def test_author_matching(query, expected):
    assert matches(query, authors=AUTHORS) is expected


@pytest.mark.parametrize(
    ("query", "paper_id", "expected"),
    [
        ("id:2609.01234", "2609.01234v3", True),
        ("id:2609.01234v1", "2609.01234v3", True),
        ("id:2609.01234", "2609.01234", True),
        ("id:2609.01235", "2609.01234v3", False),
        ("id:2609.*", "2609.01234", True),
        ("id:2610.*", "2609.01234", False),
        ("id:hep-th/9901001", "hep-th/9901001v2", True),
        ("id:2609.01234", "https://arxiv.org/abs/2609.01234v2", True),
    ],
)
def test_id_matching_ignores_versions(query, paper_id, expected):
    assert matches(query, id=paper_id) is expected


def test_all_searches_every_field_but_phrases_stay_inside_one():
    fields = dict(
        title="Fast Schedulers",
        abstract="We schedule work",
        authors=("Ada Lovelace",),
        comment="accepted at Middleware",
        journal_ref="Journal of Parallel Things 12",
        categories=("cs.DC", "cs.OS"),
    )
    for word in ("scheduler", "schedule", "lovelace", "middleware", "parallel", "os", '"cs dc"', "2609.01234"):
        assert matches(word, **fields), word
        assert matches(f"all:{word}", **fields), word
    assert not matches('"schedulers we"', **fields)  # title end + abstract start
    assert not matches("kernel", **fields)


def test_comment_and_journal_ref_fields():
    assert matches("co:figures", comment="12 pages, 5 figures")
    assert not matches("co:figures", comment="")
    assert matches('jr:"physical review"', journal_ref="Physical Review B 12 (2026)")
    assert not matches("jr:review", title="a review")


WORD_SETS = [set(combo) for n in range(4) for combo in itertools.combinations(["alpha", "beta", "gamma"], n)]


@pytest.mark.parametrize(
    ("query", "truth"),
    [
        ("alpha OR beta AND gamma", lambda a, b, c: a or (b and c)),
        ("alpha AND beta OR gamma", lambda a, b, c: (a and b) or c),
        ("alpha ANDNOT beta OR gamma", lambda a, b, c: (a and not b) or c),
        ("alpha OR beta ANDNOT gamma", lambda a, b, c: a or (b and not c)),
        ("alpha ANDNOT beta AND gamma", lambda a, b, c: a and not b and c),
        ("(alpha OR beta) AND gamma", lambda a, b, c: (a or b) and c),
        ("alpha ANDNOT (beta OR gamma)", lambda a, b, c: a and not (b or c)),
    ],
)
def test_operator_truth_tables(query, truth):
    for present in WORD_SETS:
        expected = truth("alpha" in present, "beta" in present, "gamma" in present)
        text = " ".join(sorted(present)) or "nothing"
        assert matches(query, abstract=text) is expected, (query, present)


def evaluate(query: Query, document: MatchDoc) -> bool:
    """Plain recursive evaluation, each term on its own: the oracle the
    generated matcher (merged set operations, reordering) must agree with."""
    if isinstance(query, Term):
        return compile_query(query)(document)
    if isinstance(query, And):
        return all(evaluate(child, document) for child in query.children)
    if isinstance(query, Or):
        return any(evaluate(child, document) for child in query.children)
    assert isinstance(query, AndNot)
    return evaluate(query.include, document) and not evaluate(query.exclude, document)


VOCABULARY = ["gpu", "GPUs", "fpga", "edge", "inference", "cache", "caches", "policy", "policies", "class",
              "classes", "new", "news", "grünwald", "lovelace", "edge-inference"]
TEXT_VOCABULARY = [*VOCABULARY, "(cache)", "Edge. Inference", "naïve"]
paper_fields = st.fixed_dictionaries({
    "title": st.lists(st.sampled_from(TEXT_VOCABULARY), max_size=4).map(" ".join),
    "abstract": st.lists(st.sampled_from(TEXT_VOCABULARY), max_size=10).map(", ".join),
    "authors": st.lists(st.sampled_from(["Ada Lovelace", "Kurt Grünwald", "Edge Gpu"]), max_size=2),
    "categories": st.lists(st.sampled_from(["cs.DC", "cs.AR", "hep-th"]), min_size=1, max_size=2),
    "comment": st.sampled_from(["", "new caches"]),
})
small_terms = st.builds(
    lambda field, words, phrase: Term(field, " ".join(words), phrase=True) if phrase and len(words) > 1
    else Term(field, words[0]),
    st.sampled_from(["ti", "abs", "au", "all"]),
    st.lists(st.sampled_from(VOCABULARY), min_size=1, max_size=2),
    st.booleans(),
) | st.sampled_from([Term("cat", "cs.DC"), Term("cat", "cs.", wildcard=True), Term("cat", "hep-th"),
                     Term("abs", "cach", wildcard=True), Term("id", "2609.01234")])
small_queries = st.recursive(
    small_terms,
    lambda children: st.one_of(
        st.lists(children, min_size=2, max_size=4).map(combine_all),
        st.lists(children, min_size=2, max_size=4).map(combine_any),
        st.tuples(children, children).map(lambda pair: AndNot(*pair)),
    ),
    max_leaves=10,
)


def indexed(document: MatchDoc) -> MatchDoc:
    """The same paper with every text field's word set built up front."""
    for name in ("ti", "abs", "au", "co", "jr", "all"):
        getattr(document, name).index()
    return document


@given(small_queries, paper_fields)
@settings(max_examples=500, deadline=None)
def test_compiled_matcher_agrees_with_plain_evaluation_in_both_modes(query, fields):
    # Fresh fields answer by substring search, indexed ones by set lookup.
    expected = evaluate(query, doc(**fields))
    assert compile_query(query)(doc(**fields)) is expected
    assert compile_query(query)(indexed(doc(**fields))) is expected


@given(st.lists(small_queries, min_size=1, max_size=6), paper_fields)
@settings(max_examples=300, deadline=None)
def test_many_queries_compiled_together_answer_as_each_alone(queries, fields):
    expected = [i for i, query in enumerate(queries) if evaluate(query, doc(**fields))]
    together = compile_queries(tuple(queries))
    assert together(doc(**fields)) == expected
    assert together(indexed(doc(**fields))) == expected


def test_a_field_builds_its_word_set_once_searching_costs_more():
    document = doc(abstract="graphs of caches")
    query = compile_query(parse_query("abs:cache"))
    assert query(document) and document.abs.words is None
    for _ in range(40):
        assert query(document)
    assert document.abs.words == {"graphs", "of", "caches"}


def test_match_doc_from_paper_uses_the_display_text():
    moment = datetime(2026, 9, 28, tzinfo=timezone.utc)
    paper = Paper(
        id="2609.01234", version=2, title=r"$\alpha$-Nets", abstract=r"A $5.2\times$ speedup",
        published=moment, updated=moment, authors=(Author("Ada Lovelace"),), categories=("cs.DC",),
        title_display="α-Nets", abstract_display="A 5.2× speedup",
    )
    match_doc = MatchDoc.from_paper(paper)
    assert parse_query('ti:"α nets"').matches(match_doc)
    assert not parse_query("abs:times").matches(match_doc)
    assert parse_query("au:lovelace AND cat:cs.DC AND id:2609.01234v2").matches(match_doc)


def test_compile_query_is_cached_per_query():
    assert compile_query(parse_query("ti:gpu")) is compile_query(parse_query("ti:gpu"))


# --- normalisation ---------------------------------------------------------


def test_tokens_fold_case_and_accents_and_split_on_punctuation():
    assert tokens("Grünwald's GPU-Accelerated O(n²) ﬁlter, naïve_café") == [
        "grunwald", "s", "gpu", "accelerated", "o", "n2", "filter", "naive", "cafe",
    ]
    assert tokens("ΣΑΣ α-β") == ["σασ", "α", "β"]
    assert tokens(joined_parts(["Ada Lovelace", "Alan Turing"])) == ["ada", "lovelace", "|", "alan", "turing"]
    assert normalised_text(joined_parts(["Ada Lovelace", "Kurt Grünwald"])) == " ada lovelace | kurt grunwald "
    assert normalised_text("GPU-based (KV) caches.") == " gpu based  kv  caches  "


@given(st.text().map(lambda text: text.replace("\x1f", "")))  # \x1f marks part breaks
def test_normalising_normalised_words_changes_nothing(text):
    words = tokens(text)
    assert tokens(" ".join(words)) == words
    assert all(word.isalnum() for word in words)


@pytest.mark.parametrize(
    ("word", "folded"),
    [
        ("networks", "network"), ("gpus", "gpu"), ("accelerators", "accelerator"), ("policies", "policy"),
        ("classes", "class"), ("batches", "batch"), ("meshes", "mesh"), ("boxes", "box"), ("caches", "cach"),
        ("cache", "cach"), ("sizes", "size"), ("loss", "loss"), ("analysis", "analysis"), ("corpus", "corpus"),
        ("news", "news"), ("gas", "gas"), ("ties", "tie"), ("h100s", "h100"), ("matrices", "matrice"),
    ],
)
def test_plural_fold_rule(word, folded):
    assert fold_plural(word) == folded


@given(st.text(alphabet="abcehiorsuxy", max_size=9))
def test_plural_fold_is_idempotent(word):
    # A folded word must fold to itself, or plural_forms(fold_plural(w))
    # would not contain the folded word itself.
    assert fold_plural(fold_plural(word)) == fold_plural(word)


@given(st.text(alphabet="abcehiorsuxy", max_size=9))
def test_plural_forms_are_exactly_the_words_that_fold_to_a_word(word):
    folded = fold_plural(word)
    forms = plural_forms(folded)
    assert word in forms
    assert all(fold_plural(form) == folded for form in forms)


def test_plural_forms_examples():
    assert plural_forms("network") == ("network", "networks")
    assert plural_forms("cach") == ("cach", "cachs", "caches", "cache")
    assert plural_forms("policy") == ("policy", "policys", "policies")
    assert plural_forms("class") == ("class", "classes")
    assert plural_forms("news") == ("news",)
