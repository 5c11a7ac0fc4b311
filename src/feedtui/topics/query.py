"""One query language for fetching and tagging.

A topic's query is written in the arXiv API's own syntax. `parse_query` turns
it into a tree that can be sent to the API (`Query.to_api()`, the
`search_query` parameter) and evaluated locally against a cached paper
(`compile_query(q)(MatchDoc.build(...))`), so the query that fetches a topic's
papers also decides which topics every cached paper belongs to.

Syntax
------
- Terms: `field:word`, `field:"a phrase"`, or a bare word or phrase (field
  `all`). Fields: `ti` title, `abs` abstract, `au` author, `cat` category,
  `co` comment, `jr` journal reference, `id` arXiv id, `all` all of these.
  Field names are case-insensitive.
- `field:( … )` applies the field to every bare term inside (`ti:(gpu OR
  fpga)` is `ti:gpu OR ti:fpga`); an explicit field inside wins.
- Operators, in capitals: `AND`, `OR`, `ANDNOT`. `AND` and `ANDNOT` bind
  tighter than `OR` and everything groups left to right, so
  `a OR b AND c ANDNOT d` is `a OR ((b AND c) ANDNOT d)`. Parentheses group.
- A trailing `*` on a word is a prefix wildcard (`abs:comput*`, `cat:cs.*`),
  with at least 3 letters or digits before it (2 for `cat:` and `id:`).
- `+` is a space, as in the API's URLs (`au:del_maestro+AND+ti:checkerboard`).
- Two terms with no operator between them are an error: arXiv would silently
  read them as OR, which is rarely what was meant (`ti:pipeline parallelism`).
- Words are letters and digits joined by `-`, `.`, `/`, `_` or `'`; anything
  else belongs in a quoted phrase. `NOT` is not supported (use `ANDNOT`); a
  query cannot start with `ANDNOT` (arXiv has no pure negation).

What arXiv does, and why the API form is fully parenthesised
------------------------------------------------------------
arXiv's user manual lists the prefixes, the three operators, `%28 %29` to
"group Boolean expressions for Boolean operator precedence", `%22` for phrases
and `+` for spaces; it does not define precedence. The classic API ran on an
old Lucene whose parser has none: `a AND b OR c` becomes one flat clause list
(arXiv's own notes record that `ti:space AND ti:time OR ti:apple` and
`(ti:space AND ti:time) OR ti:apple` return different papers), and a missing
operator means OR. So `to_api()` puts parentheses around every compound
operand: the API never has to decide precedence, and it means exactly what
local matching means. `au:del_maestro` (an underscore for a space) is the
manual's own author form.

Local matching
--------------
- Case-insensitive and accent-insensitive (`au:grunwald` matches `Grünwald`).
- Whole words: `net` does not match `network`. A word is a run of letters and
  digits; all punctuation, hyphens and `_` separate words.
- A phrase, or a word with inner punctuation (`GPU-accelerated`,
  `del_maestro`), matches those words consecutively; punctuation between them
  is ignored, so `"edge inference"` matches `edge-inference` and
  `Edge Inference`. A phrase never spans two authors or two fields.
- Plurals fold to the singular on both sides, by the rule in
  `feedtui.topics._text.fold_plural` (`networks`/`network`, `GPUs`/`GPU`,
  `policies`/`policy`, `caches`/`cache`); author names are not folded.
- `word*` matches words starting with `word`, as written (not folded).
- `cat:cs.DC` is that exact category (primary or cross-list, case-insensitive);
  `cat:cs.*` any `cs.` category; `cat:cs` alone is an error (an archive, not a
  category) — the archives that only have dotted categories are checked.
- `au:lovelace` matches any word of any author's name; `au:"ada lovelace"` and
  `au:ada_lovelace` those words consecutively within one author's name.
- `id:2609.01234` and `id:2609.01234v2` both match paper 2609.01234 in any
  version: feedtui keeps the versions of a paper as one paper.
- `all:` searches title, abstract, authors, comment, journal ref, categories
  and id; bare terms are `all:`.
- Titles and abstracts are matched in their display form (LaTeX rendered).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import NamedTuple

from feedtui.model import split_arxiv_id
from feedtui.slot_record import SlotRecord
from feedtui.topics._matchdoc import MatchDoc, TextField
from feedtui.topics._text import fold_plural, plural_forms, tokens

__all__ = [
    "FIELDS",
    "And",
    "AndNot",
    "MatchDoc",
    "Matcher",
    "Or",
    "Query",
    "QueryError",
    "Term",
    "TextField",
    "category_query",
    "combine_all",
    "combine_any",
    "compile_queries",
    "compile_query",
    "parse_query",
]

FIELDS: tuple[str, ...] = ("ti", "abs", "au", "cat", "all", "co", "jr", "id")
OPERATORS: tuple[str, ...] = ("AND", "OR", "ANDNOT")
MAX_DEPTH = 50

# Archives whose every category has a dot (cs.DC, math.CO): `cat:cs` names
# nothing, so it is an error with a hint rather than a topic that never matches.
_DOTTED_ARCHIVES = frozenset(
    {"cs", "math", "stat", "econ", "eess", "q-bio", "q-fin", "physics", "nlin"}
)
_WORD_PUNCTUATION = frozenset("-._/'")
_CATEGORY = re.compile(r"[a-z][a-z-]*(?:\.[a-z][a-z-]*)?", re.IGNORECASE)
_CATEGORY_PREFIX = re.compile(r"[a-z][a-z-]*(?:\.[a-z-]*)?", re.IGNORECASE)
_ID_CHARS = re.compile(r"[A-Za-z0-9./-]+")
_FIELD_PREFIX = re.compile(r"([A-Za-z]+):")
_URL_ENCODED_HINT = 'the query looks URL-encoded: write " for %22 and ( ) for %28 %29'
# Curly quotes, as word processors and phones put around a phrase (not ’,
# which is an apostrophe as often as a quote).
_CURLY_QUOTES = frozenset("“”„‟‘‚‛")
_CURLY_QUOTE_HINT = 'write a phrase in straight quotes: "…"'


class QueryError(ValueError):
    """A query that cannot be parsed, with the 1-based column of the problem."""

    def __init__(self, message: str, column: int, query: str, hint: str = "") -> None:
        self.message = message
        self.column = column
        self.query = query
        self.hint = hint
        super().__init__(str(self))

    def __str__(self) -> str:
        text = f"{self.message} at column {self.column}"
        return f"{text} ({self.hint})" if self.hint else text

    def caret_line(self, indent: str = "") -> str:
        """Two lines: the query, and a `^` under the column; both start with
        `indent`, so the caret stays aligned."""
        return f"{indent}{self.display_query()}\n{indent}{' ' * (self.column - 1)}^"

    def display_query(self) -> str:
        """The query on one line, one character per column (whitespace and
        invisible characters shown as spaces and `?`), safe to print."""
        return "".join(" " if ch.isspace() else (ch if ch.isprintable() else "?") for ch in self.query)

    def annotated(self, indent: str = "") -> str:
        """`caret_line()` followed by the message: three lines."""
        return f"{self.caret_line(indent)}\n{indent}{self}"


class Query(SlotRecord):
    """A parsed query: a `Term`, or `And`, `Or`, `AndNot` of queries.

    Nodes are frozen records of the fields in their `__slots__` (see
    slot_record.py); equality is structural (`ti:GPU` and `ti:gpu` are
    different trees that match the same papers)."""

    __slots__ = ()

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"cannot assign to field {name!r}: a {type(self).__name__} is frozen")

    __delattr__ = __setattr__  # type: ignore[assignment]

    def to_api(self) -> str:
        """The arXiv API `search_query` (before URL encoding), with explicit
        parentheses around every compound operand."""
        return _to_api(self)

    def __str__(self) -> str:
        """The normalised human form: bare `all:` terms, only needed parentheses."""
        return _to_text(self)

    def matches(self, doc: MatchDoc) -> bool:
        """Whether the paper matches (compiles the query once, then cached)."""
        return compile_query(self)(doc)


class Term(Query):
    """`field:text`. `text` is a word (without its `*`) or, with `phrase`, the
    words inside the quotes separated by single spaces."""

    __slots__ = ("field", "text", "phrase", "wildcard")
    field: str
    text: str
    phrase: bool
    wildcard: bool

    def __init__(self, field: str, text: str, phrase: bool = False, wildcard: bool = False) -> None:
        _set(self, field=field, text=text, phrase=phrase, wildcard=wildcard)
        if self.field not in FIELDS:
            raise ValueError(f"unknown field {self.field!r}")
        if self.phrase and self.wildcard:
            raise ValueError("a phrase cannot have a wildcard")
        if self.phrase and (
            self.field in ("cat", "id") or " ".join(self.text.split()) != self.text or "+" in self.text
        ):
            raise ValueError(f"not a normalised phrase for {self.field}: {self.text!r}")
        problem = (
            _phrase_problem(self.text) if self.phrase else _word_problem(self.field, self.text, self.wildcard)
        )
        if problem:
            raise ValueError(problem[0])


def _set(node: Query, **values: object) -> None:
    for name, value in values.items():
        object.__setattr__(node, name, value)


def _check_children(node: And | Or, own: type) -> None:
    if len(node.children) < 2:
        raise ValueError(f"{own.__name__} needs at least two operands")
    for child in node.children:
        if not isinstance(child, Query):
            raise TypeError(f"not a query: {child!r}")
        if isinstance(child, own):
            raise ValueError(f"nested {own.__name__}: use combine_all/combine_any to flatten")


class And(Query):
    """All children match. Never has an `And` child (use `combine_all`)."""

    __slots__ = ("children",)
    children: tuple[Query, ...]

    def __init__(self, children: tuple[Query, ...]) -> None:
        _set(self, children=children)
        _check_children(self, And)


class Or(Query):
    """Any child matches. Never has an `Or` child (use `combine_any`)."""

    __slots__ = ("children",)
    children: tuple[Query, ...]

    def __init__(self, children: tuple[Query, ...]) -> None:
        _set(self, children=children)
        _check_children(self, Or)


class AndNot(Query):
    """`include ANDNOT exclude`."""

    __slots__ = ("include", "exclude")
    include: Query
    exclude: Query

    def __init__(self, include: Query, exclude: Query) -> None:
        _set(self, include=include, exclude=exclude)
        if not isinstance(self.include, Query) or not isinstance(self.exclude, Query):
            raise TypeError("AndNot operands must be queries")


def combine_all(queries: Iterable[Query]) -> Query:
    """`q1 AND q2 AND …`, flattened; a single query is returned as it is."""
    return _combine(And, queries)


def combine_any(queries: Iterable[Query]) -> Query:
    """`(q1) OR (q2) OR …` — e.g. several followed topics in one API request."""
    return _combine(Or, queries)


def category_query(category: str) -> Query:
    """"In this arXiv category", as a topic's `categories` mean it, written as
    a query (to fetch a category topic from the API).

    `cs.DC` is that category; `cs.*`, or an archive whose categories all have
    a dot (`cs`, `math`), is any category of the archive; any other archive
    (`hep-lat`, `astro-ph`) is itself or any of its dotted categories. Raises
    ValueError for something that is not a category.
    """
    text = category.strip()
    if text.endswith(".*"):
        return Term("cat", text[:-1], wildcard=True)
    if "." in text:
        return Term("cat", text)
    if text.casefold() in _DOTTED_ARCHIVES:
        return Term("cat", text + ".", wildcard=True)
    return Or((Term("cat", text), Term("cat", text + ".", wildcard=True)))


def _combine(kind: type[And] | type[Or], queries: Iterable[Query]) -> Query:
    flat: list[Query] = []
    for query in queries:
        if isinstance(query, kind):
            flat.extend(query.children)
        elif isinstance(query, Query):
            flat.append(query)
        else:
            raise TypeError(f"not a query: {query!r}")
    if not flat:
        raise ValueError("nothing to combine")
    return flat[0] if len(flat) == 1 else kind(tuple(flat))


# --- validation shared by the parser and Term ------------------------------

Problem = tuple[str, int, str]  # message, offset in the value, hint


def _word_problem(field: str, text: str, wildcard: bool) -> Problem | None:
    """What is wrong with an unquoted value (without its trailing `*`)."""
    if not text:
        return ("expected a word before '*'" if wildcard else "expected a word", 0, "")
    curly = next((offset for offset, ch in enumerate(text) if ch in _CURLY_QUOTES), -1)
    if curly >= 0:
        return (f"'{text[curly]}' is a curly quote", curly, _CURLY_QUOTE_HINT)
    star = text.find("*")
    if star >= 0:
        return ("'*' only works at the end of a word", star, "")
    if text in OPERATORS or text == "NOT":
        return (f"{text} is an operator, not a word", 0, "write it in lower case to search for the word")
    if field == "cat":
        return _category_problem(text, wildcard)
    if field == "id":
        return _id_problem(text, wildcard)
    if not text[0].isalnum():
        return ("a word must start with a letter or digit", 0, _URL_ENCODED_HINT if text[0] == "%" else "")
    for offset, ch in enumerate(text):
        if not (ch.isalnum() or ch in _WORD_PUNCTUATION):
            hint = _URL_ENCODED_HINT if ch == "%" else 'put the words in quotes: "…"'
            return (f"{_show_char(ch)} is not allowed in a word", offset, hint)
    if not tokens(text):
        return ("no letters or digits in the word", 0, "")
    if wildcard and sum(ch.isalnum() for ch in text) < 3:
        return ("a wildcard needs at least 3 letters or digits before '*'", 0, "")
    return None


def _category_problem(text: str, wildcard: bool) -> Problem | None:
    pattern = _CATEGORY_PREFIX if wildcard else _CATEGORY
    if not pattern.fullmatch(text):
        return (f"'{_printable(text)}' is not an arXiv category", 0, "e.g. cat:cs.DC, or cat:cs.* for all of cs")
    if wildcard and len(text) < 2:
        return ("a wildcard needs at least 2 characters before '*'", 0, "")
    if not wildcard and text.casefold() in _DOTTED_ARCHIVES:
        return (f"'{text}' is an archive, not a category", 0, f"write cat:{text}.* for all of its categories")
    return None


def _id_problem(text: str, wildcard: bool) -> Problem | None:
    if not _ID_CHARS.fullmatch(text) or (not wildcard and split_arxiv_id(text) is None):
        return (f"'{_printable(text)}' is not an arXiv id", 0, "e.g. id:2609.01234 or id:hep-th/9901001")
    if wildcard and len(text) < 2:
        return ("a wildcard needs at least 2 characters before '*'", 0, "")
    return None


def _phrase_problem(text: str) -> Problem | None:
    for offset, ch in enumerate(text):
        if ch == "*":
            return ("wildcards do not work inside a phrase", offset, "")
        if ch in '"\\':
            return (f"{_show_char(ch)} is not allowed in a phrase", offset, "")
    if not text.strip():
        return ("empty phrase", 0, "")
    if not tokens(text):
        return ("no letters or digits in the phrase", 0, "")
    return None


def _show_char(ch: str) -> str:
    return f"'{ch}'" if ch.isprintable() else f"character U+{ord(ch):04X}"


def _printable(text: str) -> str:
    return "".join(ch if ch.isprintable() else "?" for ch in text)


# --- lexer -----------------------------------------------------------------


class _Token(NamedTuple):
    """`kind` is one of `(`, `)`, `op`, `term`, `group` (a `field:(`), `end`."""

    kind: str
    column: int
    source: str = ""
    op: str = ""
    field: str | None = None
    value: str = ""
    value_column: int = 0
    quoted: bool = False


def _is_separator(ch: str) -> bool:
    return ch.isspace() or ch == "+"


def _lex(query: str) -> list[_Token]:
    for index, ch in enumerate(query):
        if not ch.isprintable() and not ch.isspace():
            raise QueryError(f"{_show_char(ch)} is not allowed", index + 1, query)
    result: list[_Token] = []
    length = len(query)
    i = 0
    while True:
        while i < length and _is_separator(query[i]):
            i += 1
        if i >= length:
            result.append(_Token("end", length + 1))
            return result
        ch = query[i]
        if ch in "()":
            result.append(_Token(ch, i + 1, ch))
            i += 1
        elif ch == '"':
            token, i = _lex_phrase(query, i, None, i)
            result.append(token)
        else:
            j = i
            while j < length and not _is_separator(query[j]) and query[j] not in '()"':
                j += 1
            chunk = query[i:j]
            field = _FIELD_PREFIX.match(chunk)
            if field:
                token, i = _lex_fielded(query, i, j, field)
                result.append(token)
            elif chunk in OPERATORS:
                result.append(_Token("op", i + 1, chunk, op=chunk))
                i = j
            elif chunk == "NOT":
                raise QueryError("NOT is not supported", i + 1, query, "write ANDNOT: a ANDNOT b")
            else:
                result.append(_Token("term", i + 1, chunk, value=chunk, value_column=i + 1))
                i = j


def _lex_fielded(query: str, start: int, end: int, match: re.Match[str]) -> tuple[_Token, int]:
    name = match.group(1).lower()
    if name not in FIELDS:
        raise QueryError(
            f"unknown field '{match.group(0)}'", start + 1, query, "fields: " + ", ".join(FIELDS)
        )
    after = start + match.end()
    if after < end:
        value = query[after:end]
        return _Token("term", start + 1, query[start:end], field=name, value=value, value_column=after + 1), end
    if after < len(query) and query[after] == '"':
        return _lex_phrase(query, after, name, start)
    if after < len(query) and query[after] == "(":
        # The column of a group's parenthesis, for errors about it (`abs:(` → the `(`).
        return _Token("group", start + 1, query[start : after + 1], field=name, value_column=after + 1), after + 1
    raise QueryError(
        f"expected a word, phrase or ( after '{match.group(0)}'", start + 1, query
    )


def _lex_phrase(query: str, quote: int, field: str | None, start: int) -> tuple[_Token, int]:
    close = query.find('"', quote + 1)
    if close < 0:
        curly = next((ch for ch in query[quote + 1 :] if ch in _CURLY_QUOTES), "")
        hint = f'a phrase ends with a straight ", not {curly}' if curly else 'a phrase ends with a second "'
        raise QueryError("unmatched quote", quote + 1, query, hint)
    return (
        _Token(
            "term",
            start + 1,
            query[start : close + 1],
            field=field,
            value=query[quote + 1 : close],
            value_column=quote + 2,
            quoted=True,
        ),
        close + 1,
    )


# --- parser ----------------------------------------------------------------


class _Parser:
    """Recursive descent over the tokens. Every method returns the node and
    its depth, so a pathological query fails with a message, not a crash."""

    def __init__(self, query: str, tokens_: list[_Token]) -> None:
        self.query = query
        self.tokens = tokens_
        self.pos = 0

    def error(self, message: str, column: int, hint: str = "") -> QueryError:
        return QueryError(message, column, self.query, hint)

    def peek(self) -> _Token:
        return self.tokens[self.pos]

    def take(self) -> _Token:
        token = self.tokens[self.pos]
        if token.kind != "end":
            self.pos += 1
        return token

    def parse(self) -> Query:
        if self.peek().kind == "end":
            raise self.error("empty query", 1)
        node, _ = self.or_expr("all", None, 0)
        token = self.peek()
        if token.kind == ")":
            raise self.error("unbalanced parenthesis", token.column, "no ( to close")
        if token.kind != "end":
            raise self.missing_operator(token)
        return node

    def or_expr(self, field: str, after: _Token | None, depth: int) -> tuple[Query, int]:
        node, node_depth = self.and_expr(field, after, depth)
        parts = [node]
        deepest = node_depth
        while self.peek().kind == "op" and self.peek().op == "OR":
            operator = self.take()
            node, node_depth = self.and_expr(field, operator, depth)
            parts.append(node)
            deepest = max(deepest, node_depth)
        if len(parts) == 1:
            return parts[0], deepest
        return combine_any(parts), deepest + 1

    def and_expr(self, field: str, after: _Token | None, depth: int) -> tuple[Query, int]:
        node, node_depth = self.primary(field, after, depth)
        while self.peek().kind == "op" and self.peek().op in ("AND", "ANDNOT"):
            operator = self.take()
            right, right_depth = self.primary(field, operator, depth)
            if operator.op == "AND" and isinstance(node, And):
                node_depth = max(node_depth, right_depth + 1)
            else:
                node_depth = max(node_depth, right_depth) + 1
            node = combine_all([node, right]) if operator.op == "AND" else AndNot(node, right)
            if depth + node_depth > MAX_DEPTH:
                raise self.error("query is nested too deeply", operator.column, f"at most {MAX_DEPTH} levels")
        return node, node_depth

    def primary(self, field: str, after: _Token | None, depth: int) -> tuple[Query, int]:
        token = self.take()
        if token.kind == "term":
            return self.term(token, field), 0
        if token.kind in ("(", "group"):
            paren = token.value_column if token.kind == "group" else token.column
            if depth + 1 > MAX_DEPTH:
                raise self.error("query is nested too deeply", token.column, f"at most {MAX_DEPTH} levels")
            if self.peek().kind == ")":
                raise self.error("empty parentheses", paren)
            if self.peek().kind == "end":
                raise self.error("unbalanced parenthesis", paren, "this ( is never closed")
            inner_field = token.field if token.kind == "group" and token.field else field
            node, node_depth = self.or_expr(inner_field, None, depth + 1)
            closing = self.take()
            if closing.kind == ")":
                return node, node_depth + 1
            if closing.kind == "end":
                raise self.error("unbalanced parenthesis", paren, "this ( is never closed")
            raise self.missing_operator(closing)
        if after is not None:
            raise self.error(f"expected a term after {after.op}", after.column)
        if token.kind == "op":
            raise self.error(f"expected a term before {token.op}", token.column)
        if token.kind == ")":
            raise self.error("unbalanced parenthesis", token.column, "no ( to close")
        raise self.error("expected a term", token.column)

    def missing_operator(self, token: _Token) -> QueryError:
        shown = _printable(token.source)
        if token.source.upper() == "NOT" and token.field is None:
            hint = "to exclude, write ANDNOT: a ANDNOT b"
        elif token.source.upper() in OPERATORS and token.field is None:
            hint = "operators are written in capitals: AND, OR, ANDNOT"
        else:
            hint = 'write AND, OR or ANDNOT between terms, or quote a phrase: "…"'
        return self.error(f"missing operator before '{shown}'", token.column, hint)

    def term(self, token: _Token, default_field: str) -> Term:
        field = token.field or default_field
        value = token.value
        if token.quoted and field not in ("cat", "id"):
            problem = _phrase_problem(value)
            if problem:
                message, offset, hint = problem
                # An empty phrase is pointed at by its opening quote.
                column = token.value_column - 1 if message == "empty phrase" else token.value_column + offset
                raise self.error(message, column, hint)
            return Term(field, " ".join(value.replace("+", " ").split()), phrase=True)
        if token.quoted:
            value = value.strip()
        wildcard = value.endswith("*")
        word = value[:-1] if wildcard else value
        problem = _word_problem(field, word, wildcard)
        if problem:
            message, offset, hint = problem
            raise self.error(message, token.value_column + offset, hint)
        return Term(field, word, wildcard=wildcard)


def parse_query(text: str) -> Query:
    """Parse a query in arXiv API syntax; raises `QueryError` pointing at the problem."""
    if not isinstance(text, str):
        raise TypeError("a query is a string")
    return _Parser(text, _lex(text)).parse()


# --- printing --------------------------------------------------------------


def _term_value(term: Term) -> str:
    if term.phrase:
        return f'"{term.text}"'
    return term.text + ("*" if term.wildcard else "")


def _to_api(node: Query) -> str:
    if isinstance(node, Term):
        return f"{node.field}:{_term_value(node)}"
    if isinstance(node, And):
        return " AND ".join(_api_operand(child) for child in node.children)
    if isinstance(node, Or):
        return " OR ".join(_api_operand(child) for child in node.children)
    if isinstance(node, AndNot):
        return f"{_api_operand(node.include)} ANDNOT {_api_operand(node.exclude)}"
    raise TypeError(f"not a query: {node!r}")


def _api_operand(node: Query) -> str:
    return _to_api(node) if isinstance(node, Term) else f"({_to_api(node)})"


def _to_text(node: Query) -> str:
    if isinstance(node, Term):
        return _term_value(node) if node.field == "all" else f"{node.field}:{_term_value(node)}"
    if isinstance(node, And):
        # Left-grouping: an ANDNOT is safe unbracketed only as the first operand.
        return " AND ".join(
            _text_operand(child, wrap=isinstance(child, Or) or (index > 0 and isinstance(child, AndNot)))
            for index, child in enumerate(node.children)
        )
    if isinstance(node, Or):
        return " OR ".join(_to_text(child) for child in node.children)
    if isinstance(node, AndNot):
        include = _text_operand(node.include, wrap=isinstance(node.include, Or))
        exclude = _text_operand(node.exclude, wrap=not isinstance(node.exclude, Term))
        return f"{include} ANDNOT {exclude}"
    raise TypeError(f"not a query: {node!r}")


def _text_operand(node: Query, *, wrap: bool) -> str:
    return f"({_to_text(node)})" if wrap else _to_text(node)


# --- local matching --------------------------------------------------------

Matcher = Callable[[MatchDoc], bool]

# Rough relative costs, to test the cheapest operands first: categories and
# ids are one lookup; a text field costs more the longer its text (titles are
# short, comments and journal refs usually empty); phrases and wildcards add a
# regular-expression search.
_COST_SET = 1
_FIELD_COST = {"ti": 2, "co": 2, "jr": 2, "au": 3, "abs": 4, "all": 8}
_COST_PHRASE = 3
_COST_WILDCARD = 2


class _Category:
    """`category in d.cats`; siblings merge into one set operation."""

    __slots__ = ("value",)

    def __init__(self, value: str) -> None:
        self.value = value


class _Word:
    """One query word on a text field, as the forms it may take (itself and
    the plurals that fold to it); siblings on the same field merge into one
    set operation."""

    __slots__ = ("field", "forms")

    def __init__(self, field: str, forms: frozenset[str]) -> None:
        self.field = field
        self.forms = forms


class _Code:
    __slots__ = ("text", "cost")

    def __init__(self, text: str, cost: int) -> None:
        self.text = text
        self.cost = cost


class _CodeBuilder:
    """Turns a query into the body of a Python function of one argument `d`.

    Only identifiers of our own and names of constants (`k0`, `k1`, …) go into
    the source; every piece of query text is a constant in the namespace, so
    no query can inject code.
    """

    def __init__(self) -> None:
        self.constants: dict[str, object] = {}

    def const(self, value: object) -> str:
        name = f"k{len(self.constants)}"
        self.constants[name] = value
        return name

    def code(self, node: Query) -> _Code:
        item = self.item(node)
        return item if isinstance(item, _Code) else self.merged([item], conjunction=False)

    def item(self, node: Query) -> _Category | _Word | _Code:
        if isinstance(node, Term):
            return self.term(node)
        if isinstance(node, AndNot):
            include, exclude = self.code(node.include), self.code(node.exclude)
            if exclude.cost < include.cost:
                return _Code(f"(not {exclude.text} and {include.text})", exclude.cost + 1)
            return _Code(f"({include.text} and not {exclude.text})", include.cost + 1)
        if isinstance(node, (And, Or)):
            return self.junction(node)
        raise TypeError(f"not a query: {node!r}")

    def junction(self, node: And | Or) -> _Code:
        conjunction = isinstance(node, And)
        groups: dict[str, list[_Category | _Word]] = {}
        parts: list[_Code] = []
        for child in node.children:
            item = self.item(child)
            if isinstance(item, _Code):
                parts.append(item)
            else:
                groups.setdefault(item.field if isinstance(item, _Word) else "cat", []).append(item)
        parts.extend(self.merged(items, conjunction=conjunction) for items in groups.values())
        parts.sort(key=lambda part: part.cost)
        joiner = " and " if conjunction else " or "
        # Usually settled by its first (cheapest) operand.
        return _Code("(" + joiner.join(part.text for part in parts) + ")", parts[0].cost + 1)

    def merged(self, items: list[_Category | _Word], *, conjunction: bool) -> _Code:
        first = items[0]
        if isinstance(first, _Category):
            values = {item.value for item in items if isinstance(item, _Category)}
            if len(values) == 1:
                return _Code(f"({self.const(values.pop())} in d.cats)", _COST_SET)
            values_name = self.const(frozenset(values))
            text = f"({values_name} <= d.cats)" if conjunction else f"(not d.cats.isdisjoint({values_name}))"
            return _Code(text, _COST_SET)
        field = f"d.{first.field}"
        cost = _FIELD_COST[first.field]
        words = list(dict.fromkeys(item.forms for item in items if isinstance(item, _Word)))
        # Once the field has its word set (`w`), the test is inline; until
        # then the field answers by searching its text for the padded forms.
        if len(words) == 1 or not conjunction:
            forms = frozenset().union(*words)
            forms_name = self.const(forms)
            padded = self.const(tuple(f" {form} " for form in sorted(forms)))
            in_set = f"{self.const(next(iter(forms)))} in w" if len(forms) == 1 else f"not w.isdisjoint({forms_name})"
            return _Code(f"({in_set} if (w := {field}.words) is not None else {field}.has({forms_name}, {padded}))",
                         cost + (len(words) > 1))
        each = self.const(tuple(words))
        padded_each = self.const(tuple(tuple(f" {form} " for form in sorted(forms)) for forms in words))
        return _Code(f"(not any(map(w.isdisjoint, {each})) if (w := {field}.words) is not None "
                     f"else {field}.has_all({each}, {padded_each}))", cost + 1)

    def term(self, term: Term) -> _Category | _Word | _Code:
        if term.field == "cat":
            value = term.text.casefold()
            if term.wildcard:
                return _Code(f"({self.const(' ' + value)} in d.cats_text)", _COST_SET + 1)
            return _Category(value)
        if term.field == "id":
            if term.wildcard:
                return _Code(f"d.id.startswith({self.const(term.text.casefold())})", _COST_SET)
            split = split_arxiv_id(term.text)
            base = split[0] if split else term.text
            return _Code(f"(d.id == {self.const(base.casefold())})", _COST_SET)
        field = f"d.{term.field}"
        cost = _FIELD_COST[term.field]
        words = tokens(term.text)
        if term.wildcard:
            # Prefixes are matched as written, never folded.
            if len(words) == 1:
                return _Code(f"({self.const(' ' + words[0])} in {field}.text)", cost + _COST_WILDCARD)
            pattern = re.compile(" " + " +".join(map(re.escape, words)))
            return _Code(f"({self.const(pattern)}.search({field}.text) is not None)", cost + _COST_WILDCARD)
        fold = term.field != "au"
        forms = [plural_forms(fold_plural(word)) if fold else (word,) for word in words]
        if len(words) == 1:
            return _Word(term.field, frozenset(forms[0]))
        # A phrase: its words in order, any run of spaces between them (the
        # text keeps punctuation as spaces).
        pattern = re.compile(" " + " +".join("(?:" + "|".join(map(re.escape, f)) + ")" for f in forms) + " ")
        each = tuple(dict.fromkeys(frozenset(f) for f in forms))
        pattern_name = self.const(pattern)
        # With a word set, each word's presence is one set test (the first
        # usually settles it) before the text is searched for the phrase.
        present = " and ".join(f"not w.isdisjoint({self.const(f)})" for f in each)
        return _Code(
            f"(({present} and {pattern_name}.search({field}.text) is not None) "
            f"if (w := {field}.words) is not None else {field}.phrase({self.const(each)}, {pattern_name}))",
            cost + _COST_PHRASE,
        )


@lru_cache(maxsize=16)
def compile_queries(queries: tuple[Query, ...]) -> Callable[[MatchDoc], list[int]]:
    """One generated function that tests a paper against many queries at once
    and returns the positions (in `queries`) of those that match.

    Tagging a cache with every topic calls it once per paper instead of once
    per paper and topic; each query's test is the same expression
    `compile_query` generates, so the answers are the same.
    """
    builder = _CodeBuilder()
    lines = ["def match_all(d):", "    found = []", "    add = found.append"]
    for position, query in enumerate(queries):
        lines.append(f"    if {builder.code(query).text}:")
        lines.append(f"        add({position})")
    lines.append("    return found")
    namespace: dict[str, object] = dict(builder.constants)
    exec(compile("\n".join(lines) + "\n", "<feedtui queries>", "exec"), namespace)  # noqa: S102
    return namespace["match_all"]  # type: ignore[return-value]


@lru_cache(maxsize=512)
def compile_query(query: Query) -> Matcher:
    """A fast `MatchDoc -> bool` for the query (cached per query).

    The query becomes one generated Python function: sibling words on one
    field are one set operation (or, before the field has a word set, one
    `has_any`/`has_all` text search), a phrase is searched for in the text
    only once all its words are known to be present, and the cheapest operands
    of every AND/OR run first (categories before titles before abstracts).
    """
    builder = _CodeBuilder()
    body = builder.code(query).text
    namespace: dict[str, object] = dict(builder.constants)
    exec(compile(f"def match(d):\n    return {body}\n", "<feedtui query>", "exec"), namespace)  # noqa: S102
    match = namespace["match"]
    match.__doc__ = query.to_api()  # type: ignore[union-attr]
    return match  # type: ignore[return-value]
