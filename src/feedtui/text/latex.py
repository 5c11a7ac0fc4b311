"""LaTeX in titles and abstracts rendered as readable Unicode.

`latex_to_unicode` is a small single-pass converter, not a TeX engine. It is
written for speed (tens of thousands of abstracts per refresh) and for never
failing: any input gives some readable output. The rules worth knowing:

* Math is `$…$`, `$$…$$`, `\\(…\\)`, `\\[…\\]` and the equation-like
  environments. A `$` opens math only when the next unescaped `$` is in the
  same paragraph. A `$` directly followed by a digit is a currency sign when
  that next `$` is also followed by a digit, or when the text between has
  no macro but a word of three letters. So "costs $5 and $10" and "$5 per
  run and $x$" keep their dollar signs, while `$5.2\\times$`, `$10^{-3}$`
  and `$\\sim$50` are math. `\\(` and `\\[` without their closing partner
  are shown as `(` and `[`.
* In math, `^` and `_` become Unicode super/subscript characters when every
  character of the script has one (`n^2` → `n²`, `x_{ij}` → `xᵢⱼ`; spaces
  next to `+ - = ( )` do not count). Otherwise the script is kept readable
  with a marker: `x^*` → `x*`, `x^q` → `x^q`, `x^{q+1}` → `x^(q+1)`,
  `x^{ab c}` → `x^(ab c)`. Outside math, `^` and `_` are left as typed.
* `\\frac{a}{b}` is `a/b` and `\\sqrt{x}` is `√x`; a part with an operator or
  a space in it is parenthesised (`(n+1)/2`, `√(n+1)`).
* Unknown macros are shown as their name (`\\foo` → `foo`), never dropped.
* Braces only group and disappear; `%` is an ordinary character (abstracts
  write "5% fewer"), as are `&` and `#` outside math.
* `--`, `---`, ``` `` ``` and `''` become – — “ ” outside math; `~` is a space
  except right after `/` (a home directory in a URL).
* The only whitespace changes are: runs of spaces are collapsed, and spaces
  the conversion leaves at either end are trimmed. Newlines are kept, and
  control characters other than newline are removed.

With `math_only` (text from web feeds, which is no LaTeX document: a blog
title says `~/.bashrc`, `C:\\Windows` or `{key: value}`), only the math is
converted; everything outside `$…$`, `$$…$$`, `\\(…\\)` and `\\[…\\]` is kept
as written but for the whitespace and control rules above.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Iterable

from feedtui.text._latex_tables import (
    ALPHABETS,
    CONTROL_SYMBOLS,
    DECLARATIONS,
    DROPPED_ARGUMENT_MACROS,
    GLUED_MACROS,
    MATH_ACCENTS,
    MATH_ARGUMENT_MACROS,
    MATH_ENVIRONMENTS,
    SIZING_MACROS,
    SUBSCRIPTS,
    SUPERSCRIPTS,
    SYMBOLS,
    TEXT_ACCENTS,
    TEXT_ARGUMENT_MACROS,
    WORD_MACROS,
    extra_symbol,
)

_PRINTABLE_ASCII_AND_NEWLINE = bytes(range(0x20, 0x7F)) + b"\n"
_CONTROL_CHARS = re.compile(r"[\x00-\x09\x0b-\x1f\x7f-\x9f]")

_TEXT_STOP = re.compile(r"[\\${}]")
_MATH_STOP = re.compile(r"[\\${}^_'&~]")
_TIE = re.compile(r"(?<!/)~")
_LETTERS = re.compile(r"[A-Za-z]+")
_SPACES = re.compile(r"[ \t\n]*")
_ENVIRONMENT_NAME = re.compile(r"[ \t\n]*\{([^{}\\]*)\}")
_SPACE_RUNS = re.compile(r"  +")
# A word of prose, in text with no macros: three letters in a row.
_PROSE_WORD = re.compile(r"[A-Za-z]{3}")
# Characters a URL in \url{...} may escape with a backslash.
_URL_ESCAPE = re.compile(r"\\([%#_&~$])")
# Spaces around these do not stop a script from becoming Unicode characters.
_SCRIPT_OPERATOR_SPACING = re.compile(r" *([-+−=()]) *")
# A fraction or root part that needs parentheses to be read right.
_COMPOUND = re.compile(r"[\s+\-−=/<>,;:±∓×·÷≤≥≠≈∼∈→|]")

# Nesting deeper than this (groups, arguments) is flattened instead of
# recursed into, so that no input can exhaust the interpreter stack.
_MAX_DEPTH = 40
_MAX_MARKS_PER_CHARACTER = 2


def latex_to_unicode(text: str, *, math_only: bool = False) -> str:
    """The display form of a title or abstract that may contain LaTeX."""
    has_controls = _has_controls(text)
    if math_only:
        ligatures = False
        if not (has_controls or "$" in text or "\\(" in text or "\\[" in text):
            return text
    else:
        # Single-character `in` tests are memchr-fast; they come first, and the
        # slower two-character ones only when their first character occurs.
        ligatures = (
            "~" in text or ("-" in text and "--" in text)
            or ("`" in text and "``" in text) or ("'" in text and "''" in text)
        )
        if not (ligatures or has_controls or "\\" in text or "$" in text
                or "{" in text or "}" in text):
            return text
    converted = _Converter(text, ligatures, math_only).convert()
    if has_controls:
        converted = _CONTROL_CHARS.sub(_control_replacement, converted)
    if "  " in converted:
        converted = _SPACE_RUNS.sub(" ", converted)
    if converted[:1] == " " and text[:1] != " ":
        converted = converted.lstrip(" ")
    if converted[-1:] == " " and text[-1:] != " ":
        converted = converted.rstrip(" ")
    return converted


def _has_controls(text: str) -> bool:
    """Whether `text` has control characters other than newline."""
    if text.isascii():
        # Deleting every printable byte in C is several times faster than
        # str.isprintable() or a regex search.
        return bool(text.encode("ascii").translate(None, _PRINTABLE_ASCII_AND_NEWLINE))
    return not text.isprintable() and _CONTROL_CHARS.search(text) is not None


def _control_replacement(match: re.Match[str]) -> str:
    return " " if match.group() == "\t" else ""


def _text_ligatures(run: str) -> str:
    """Dashes, quotes and ties in a run of text (str.replace beats a regex here)."""
    if "-" in run and "--" in run:
        run = run.replace("---", "—").replace("--", "–")
    if "`" in run and "``" in run:
        run = run.replace("``", "“")
    if "'" in run and "''" in run:
        run = run.replace("''", "”")
    if "~" in run:
        run = _TIE.sub(" ", run)
    return run


# Converted math, by source: the same snippets (`$\epsilon$`, `$O(n)$`) recur
# across thousands of abstracts. Cleared when full, which is rare and cheap.
_MATH_CACHE: dict[str, str] = {}
_MATH_CACHE_SIZE = 8192
_MATH_CACHE_LONGEST = 200  # characters; keeps the cache small whatever the input


class _Converter:
    """One conversion: a cursor over the source and a recursive descent.

    `end` bounds the part being read: math between `$` signs is converted by
    moving `end` to the closing `$` rather than by slicing.
    """

    __slots__ = ("src", "pos", "end", "ligatures", "math_only", "no_match_from")

    def __init__(self, src: str, ligatures: bool, math_only: bool = False) -> None:
        self.src = src
        self.pos = 0
        self.end = len(src)
        # Whether text runs may hold -- `` '' or ~ (known from the whole text).
        self.ligatures = ligatures
        # Outside math, only the openers of math mean anything.
        self.math_only = math_only
        # Searches for a closing delimiter that failed from a position fail
        # from every later one too; remembering them keeps the work linear.
        self.no_match_from: dict[tuple[str, int], int] = {}

    def convert(self) -> str:
        return self.sequence(False, 0, False)

    # --- sequences and groups -------------------------------------------

    def sequence(self, math: bool, depth: int, in_group: bool) -> str:
        """Convert up to `end`, or up to the `}` closing the current group."""
        src = self.src
        end = self.end  # Constant here: math_until restores it.
        plain_runs = math or not self.ligatures
        out: list[str] = []
        # One search finds the next character that means something here. A
        # str.find per character kind scans prose faster, but an abstract with
        # math stops every few words, where the steps in Python cost more.
        stop = _MATH_STOP.search if math else _TEXT_STOP.search
        while self.pos < end:
            found = stop(src, self.pos, end)
            start = found.start() if found else end
            if start >= end:
                run = src[self.pos:end]
                out.append(run if plain_runs else _text_ligatures(run))
                self.pos = end
                break
            if start > self.pos:
                run = src[self.pos:start]
                out.append(run if plain_runs else _text_ligatures(run))
            char = src[start]
            self.pos = start + 1
            if self.math_only and not math and char != "$":
                out.append(self.literal_text(char, depth))
            elif char == "\\":
                out.append(self.macro(math, depth))
            elif char == "{":
                out.append(self.group(math, depth))
            elif char == "}":
                if in_group:
                    break
            elif char == "$":
                out.append(self.dollar(depth) if not math else "")
            elif char == "^":
                out.append(self.script(SUPERSCRIPTS, "^", depth))
            elif char == "_":
                out.append(self.script(SUBSCRIPTS, "_", depth))
            elif char == "'":
                out.append("′")
            else:  # & and ~ in math
                out.append(" ")
        return "".join(out)

    def literal_text(self, char: str, depth: int) -> str:
        """A backslash or brace outside math in `math_only` text: itself, unless
        it is the backslash of `\\(` or `\\[` opening math."""
        if char == "\\" and self.pos < self.end and self.src[self.pos] in "([":
            return self.control_symbol(self.src[self.pos], False, depth)
        return char

    def group(self, math: bool, depth: int) -> str:
        """The rest of a `{...}` group whose `{` has just been read."""
        if depth >= _MAX_DEPTH:
            return ""
        return self.braced(math, depth)

    def braced(self, math: bool, depth: int) -> str:
        """The rest of a group, with a shortcut for plain ones like `{n}`."""
        src = self.src
        close = src.find("}", self.pos, self.end)
        if close >= 0:
            body = src[self.pos:close]
            if not (_MATH_STOP if math else _TEXT_STOP).search(body):
                self.pos = close + 1
                return body if math else _text_ligatures(body)
        return self.sequence(math, depth + 1, True)

    def argument(self, math: bool, depth: int) -> str:
        """One macro argument: a group, a macro, or a single character."""
        self.skip_spaces()
        if self.pos >= self.end or depth >= _MAX_DEPTH:
            return ""
        char = self.src[self.pos]
        if char in "}$^_&":
            return ""
        self.pos += 1
        if char == "{":
            return self.braced(math, depth)
        if char == "\\":
            return self.macro(math, depth + 1)
        if char == "'" and math:
            return "′"
        if char == "~":
            return " "
        return char

    def script(self, table: dict[str, str], marker: str, depth: int) -> str:
        """A `^` or `_` script in math; see the module docstring for the rules."""
        body = self.argument(True, depth)
        if not body.strip():
            return ""
        converted = _to_script(body, table)
        return converted if converted is not None else _script_fallback(body, marker)

    def raw_argument(self) -> str:
        """A braced argument as written (URLs, labels), braces balanced."""
        self.skip_spaces()
        src = self.src
        if self.pos >= self.end or src[self.pos] != "{":
            return ""
        level = 0
        for index in range(self.pos, self.end):
            char = src[index]
            if char == "{":
                level += 1
            elif char == "}":
                level -= 1
                if level == 0:
                    body = src[self.pos + 1:index]
                    self.pos = index + 1
                    return body
        body = src[self.pos + 1:self.end]
        self.pos = self.end
        return body

    def optional_argument(self) -> str | None:
        """A `[...]` argument, if one follows; brackets do not nest."""
        self.skip_spaces()
        if self.pos < self.end and self.src[self.pos] == "[":
            close = self.src.find("]", self.pos, self.end)
            if close >= 0:
                body = self.src[self.pos + 1:close]
                self.pos = close + 1
                return body
        return None

    def skip_spaces(self) -> None:
        if self.pos < self.end and self.src[self.pos] in " \t\n":
            self.pos = _SPACES.match(self.src, self.pos, self.end).end()

    def find_closing(self, delimiter: str) -> int:
        """Where the next `delimiter` starts, or -1; `$` skips escaped ones."""
        key = (delimiter, self.end)
        if self.pos >= self.no_match_from.get(key, self.end + 1):
            return -1
        index = self.src.find(delimiter, self.pos, self.end)
        if delimiter == "$":
            while index > 0 and self.src[index - 1] == "\\":
                index = self.src.find(delimiter, index + 1, self.end)
        if index < 0:
            self.no_match_from[key] = self.pos
        return index

    def math_until(self, close: int, width: int, depth: int) -> str:
        """Convert from `pos` up to `close` as math, then skip the delimiter."""
        saved_end = self.end
        self.end = close
        converted = self.sequence(True, depth, False)
        self.end = saved_end
        self.pos = close + width
        return converted

    def cached_math_until(self, close: int, width: int, depth: int) -> str:
        """math_until, remembered across calls for short top-level snippets."""
        if depth or close - self.pos > _MATH_CACHE_LONGEST:
            return self.math_until(close, width, depth)
        source = self.src[self.pos:close]
        converted = _MATH_CACHE.get(source)
        if converted is None:
            converted = self.math_until(close, width, depth)
            if len(_MATH_CACHE) >= _MATH_CACHE_SIZE:
                _MATH_CACHE.clear()
            _MATH_CACHE[source] = converted
        else:
            self.pos = close + width
        return converted

    # --- math delimiters ---------------------------------------------------

    def dollar(self, depth: int) -> str:
        """A `$` read in text mode: inline or display math, or a dollar sign."""
        src = self.src
        if self.pos < self.end and src[self.pos] == "$":
            self.pos += 1
            close = self.find_closing("$$")
            if close < 0:
                return "$$"
            return self.cached_math_until(close, 2, depth)
        close = self.find_closing("$")
        if close < 0 or src.find("\n\n", self.pos, close) >= 0:
            return "$"
        if src[self.pos].isdigit() and (
            (close + 1 < self.end and src[close + 1].isdigit())
            or (src.find("\\", self.pos, close) < 0 and _PROSE_WORD.search(src, self.pos, close))
        ):
            return "$"  # currency: "$5 and $10", "$5 per run and $"
        return self.cached_math_until(close, 1, depth)

    def bracket_math(self, opener: str, closer: str, depth: int) -> str:
        close = self.find_closing(closer)
        if close < 0:
            return opener
        return self.cached_math_until(close, len(closer), depth)

    # --- macros ------------------------------------------------------------

    def macro(self, math: bool, depth: int) -> str:
        """A macro whose backslash has just been read."""
        src = self.src
        start = self.pos
        if start >= self.end:
            return "\\"
        name_match = _LETTERS.match(src, start, self.end)
        if name_match is None:
            return self.control_symbol(src[start], math, depth)
        name = name_match.group()
        self.pos = name_match.end()

        symbol = _PLAIN_SYMBOLS.get(name)
        if symbol is not None:
            return symbol
        handler = _HANDLERS.get(name)
        if handler is not None:
            return handler(self, name, start, math, depth)
        extra = extra_symbol(name)
        if extra is not None:
            return extra
        return self.spaced_word(name, start)

    def spaced_word(self, word: str, start: int) -> str:
        """A word from a macro, kept apart from letters or macros around it.

        `start` is where the macro name begins, just after its backslash.
        """
        src = self.src
        before = src[start - 2] if start >= 2 else ""
        if before.isalnum():
            word = " " + word
        following = src[self.pos] if self.pos < self.end else ""
        if following.isalnum() or (following == "\\" and _LETTERS.match(src, self.pos + 1, self.end)):
            word += " "
        elif following == "{":
            word += " "
        return word

    def control_symbol(self, char: str, math: bool, depth: int) -> str:
        self.pos += 1
        if char in TEXT_ACCENTS:
            return self.text_accent(char, math, depth)
        if char == "(":
            return self.bracket_math("(", "\\)", depth)
        if char == "[":
            return self.bracket_math("[", "\\]", depth)
        if char in ")]":
            return char
        return CONTROL_SYMBOLS.get(char, char)

    def text_accent(self, accent: str, math: bool, depth: int) -> str:
        mark, spacing = TEXT_ACCENTS[accent]
        base = self.argument(math, depth)
        if not base:
            return spacing
        return _accent_first(base, mark)

    # --- macro handlers: (name, start of the name, math mode, depth) -------

    def glued(self, name: str, start: int, math: bool, depth: int) -> str:
        if not math:
            self.skip_spaces()
        return SYMBOLS[name]

    def word(self, name: str, start: int, math: bool, depth: int) -> str:
        return self.spaced_word(WORD_MACROS[name], start)

    def alphabet(self, name: str, start: int, math: bool, depth: int) -> str:
        return self.argument(True, depth).translate(ALPHABETS[name])

    def math_accent(self, name: str, start: int, math: bool, depth: int) -> str:
        return _accent_each(self.argument(math, depth), MATH_ACCENTS[name])

    def text_accent_macro(self, name: str, start: int, math: bool, depth: int) -> str:
        return self.text_accent(name, math, depth)

    def math_argument(self, name: str, start: int, math: bool, depth: int) -> str:
        return self.argument(True, depth)

    def text_argument(self, name: str, start: int, math: bool, depth: int) -> str:
        return self.argument(False, depth)

    def declaration(self, name: str, start: int, math: bool, depth: int) -> str:
        return ""

    def sizing(self, name: str, start: int, math: bool, depth: int) -> str:
        self.skip_spaces()
        if self.pos < self.end and self.src[self.pos] == ".":
            self.pos += 1
        return ""

    def dropped_argument(self, name: str, start: int, math: bool, depth: int) -> str:
        self.raw_argument()
        return ""

    def operator_name(self, name: str, start: int, math: bool, depth: int) -> str:
        if self.pos < self.end and self.src[self.pos] == "*":
            self.pos += 1
        return self.spaced_word(self.argument(True, depth), start)

    def text_script(self, name: str, start: int, math: bool, depth: int) -> str:
        body = self.argument(False, depth)
        table = SUPERSCRIPTS if name == "textsuperscript" else SUBSCRIPTS
        converted = _to_script(body, table) if body else None
        return converted if converted is not None else body

    def frac(self, name: str, start: int, math: bool, depth: int) -> str:
        numerator = self.argument(math, depth)
        denominator = self.argument(math, depth)
        return f"{_parenthesised(numerator)}/{_parenthesised(denominator)}"

    def binom(self, name: str, start: int, math: bool, depth: int) -> str:
        top = self.argument(math, depth)
        bottom = self.argument(math, depth)
        return f"C({top}, {bottom})"

    def sqrt(self, name: str, start: int, math: bool, depth: int) -> str:
        index = self.optional_argument()
        radicand = _parenthesised(self.argument(math, depth))
        if index is None or index.strip() == "2":
            return "√" + radicand
        index = index.strip()
        if index == "3":
            return "∛" + radicand
        if index == "4":
            return "∜" + radicand
        raised = _to_script(index, SUPERSCRIPTS)
        return (raised if raised is not None else f"({index})") + "√" + radicand

    def negated(self, name: str, start: int, math: bool, depth: int) -> str:
        return _accent_first(self.argument(math, depth), "\u0338")

    def over_under_set(self, name: str, start: int, math: bool, depth: int) -> str:
        self.argument(math, depth)
        return self.argument(math, depth)

    def text_colour(self, name: str, start: int, math: bool, depth: int) -> str:
        self.raw_argument()
        return self.argument(math, depth)

    def url(self, name: str, start: int, math: bool, depth: int) -> str:
        return _URL_ESCAPE.sub(r"\1", self.raw_argument())

    def href(self, name: str, start: int, math: bool, depth: int) -> str:
        self.raw_argument()
        return self.argument(False, depth)

    def citation(self, name: str, start: int, math: bool, depth: int) -> str:
        self.optional_argument()
        self.optional_argument()
        keys = self.raw_argument()
        if name == "eqref":
            return f"({keys})"
        return f"[{keys}]"

    def modulo(self, name: str, start: int, math: bool, depth: int) -> str:
        return f"(mod {self.argument(math, depth)})"

    def begin(self, name: str, start: int, math: bool, depth: int) -> str:
        found = _ENVIRONMENT_NAME.match(self.src, self.pos, self.end)
        if found is None:
            return self.spaced_word(name, start)
        self.pos = found.end()
        environment = found.group(1).strip()
        if environment in MATH_ENVIRONMENTS and not math:
            close = self.find_closing(f"\\end{{{environment}}}")
            if close >= 0:
                return " " + self.math_until(close, len(environment) + 6, depth) + " "
        if environment in ("array", "tabular", "alignat", "alignat*"):
            self.raw_argument()
        return " "

    def end_environment(self, name: str, start: int, math: bool, depth: int) -> str:
        found = _ENVIRONMENT_NAME.match(self.src, self.pos, self.end)
        if found is None:
            return self.spaced_word(name, start)
        self.pos = found.end()
        return " "


_Handler = Callable[[_Converter, str, int, bool, int], str]

# Symbols that need no handling beyond the lookup.
_PLAIN_SYMBOLS = {name: text for name, text in SYMBOLS.items()
                  if name not in GLUED_MACROS and name not in WORD_MACROS}


def _each(names: Iterable[str], handler: _Handler) -> dict[str, _Handler]:
    return dict.fromkeys(names, handler)


_HANDLERS: dict[str, _Handler] = {
    **_each(GLUED_MACROS, _Converter.glued),
    **_each(WORD_MACROS, _Converter.word),
    **_each(ALPHABETS, _Converter.alphabet),
    **_each(MATH_ACCENTS, _Converter.math_accent),
    **_each((name for name in TEXT_ACCENTS if name.isalpha()), _Converter.text_accent_macro),
    **_each(MATH_ARGUMENT_MACROS, _Converter.math_argument),
    **_each(TEXT_ARGUMENT_MACROS, _Converter.text_argument),
    **_each(DECLARATIONS, _Converter.declaration),
    **_each(SIZING_MACROS, _Converter.sizing),
    **_each(DROPPED_ARGUMENT_MACROS, _Converter.dropped_argument),
    "operatorname": _Converter.operator_name,
    "textsuperscript": _Converter.text_script, "textsubscript": _Converter.text_script,
    "frac": _Converter.frac, "dfrac": _Converter.frac, "tfrac": _Converter.frac,
    "cfrac": _Converter.frac, "nicefrac": _Converter.frac,
    "textfrac": _Converter.frac, "sfrac": _Converter.frac,
    "binom": _Converter.binom, "dbinom": _Converter.binom, "tbinom": _Converter.binom,
    "sqrt": _Converter.sqrt,
    "not": _Converter.negated,
    "overset": _Converter.over_under_set, "underset": _Converter.over_under_set,
    "stackrel": _Converter.over_under_set,
    "textcolor": _Converter.text_colour, "colorbox": _Converter.text_colour,
    "url": _Converter.url, "path": _Converter.url, "href": _Converter.href,
    "cite": _Converter.citation, "citep": _Converter.citation,
    "citet": _Converter.citation, "ref": _Converter.citation,
    "eqref": _Converter.citation, "autoref": _Converter.citation,
    "cref": _Converter.citation, "Cref": _Converter.citation,
    "pmod": _Converter.modulo,
    "begin": _Converter.begin, "end": _Converter.end_environment,
}


def _parenthesised(part: str) -> str:
    """`part`, in parentheses if it is more than one term."""
    part = part.strip()
    if _COMPOUND.search(part) and not _is_wrapped(part):
        return f"({part})"
    return part


def _is_wrapped(part: str) -> bool:
    """True when the opening parenthesis at the start closes at the end."""
    if len(part) < 2 or part[0] != "(" or part[-1] != ")":
        return False
    level = 0
    for index, char in enumerate(part):
        if char == "(":
            level += 1
        elif char == ")":
            level -= 1
            if level == 0 and index != len(part) - 1:
                return False
    return level == 0


def _to_script(body: str, table: dict[str, str]) -> str | None:
    """`body` in super/subscript characters, or None if one has none."""
    if len(body) == 1:
        return table.get(body)
    if " " in body:
        body = _SCRIPT_OPERATOR_SPACING.sub(r"\1", body.strip())
    try:
        return "".join([table[char] for char in body])
    except KeyError:
        return None


def _script_fallback(body: str, marker: str) -> str:
    body = body.strip()
    if marker == "^" and body in ("*", "∗"):
        return "*"
    if len(body) == 1 or _is_wrapped(body):
        return marker + body
    return f"{marker}({body})"


def _accent_first(text: str, mark: str) -> str:
    """`text` with `mark` on its first character (text accents)."""
    if not text:
        return ""
    if text[0] in "ıȷ":  # \"\i is ï
        text = ("i" if text[0] == "ı" else "j") + text[1:]
    clusters = _clusters(text)
    clusters[0] = _with_mark(clusters[0], mark)
    return unicodedata.normalize("NFC", "".join(clusters))


def _accent_each(text: str, mark: str) -> str:
    """`text` with `mark` on every visible character (math accents)."""
    if not text:
        return ""
    marked = [cluster if cluster.isspace() else _with_mark(cluster, mark)
              for cluster in _clusters(text)]
    return unicodedata.normalize("NFC", "".join(marked))


def _clusters(text: str) -> list[str]:
    """Split `text` into base characters with their existing combining marks."""
    clusters: list[str] = []
    for char in text:
        if clusters and unicodedata.combining(char):
            clusters[-1] += char
        else:
            clusters.append(char)
    return clusters


def _with_mark(cluster: str, mark: str) -> str:
    """Add `mark` to a character cluster unless it already carries enough.

    A cluster is one base character and the combining marks after it.
    """
    return cluster if len(cluster) > _MAX_MARKS_PER_CHARACTER else cluster + mark
