"""BibTeX entries for papers: `@misc` with the arXiv eprint fields.

Text is taken from the display forms (LaTeX already rendered to Unicode, so
every entry is plain text) and encoded back to LaTeX by pylatexenc: accents
become `{\\"u}`, specials (`& % $ # _ { } ~ ^ \\`) are escaped, characters
LaTeX has no name for are kept as UTF-8 (fine for biber and bibtexu). Math in
a title (`$O(n\\log n)$`) is the exception: it is kept as the authors wrote it,
which any LaTeX compiles, where the Unicode rebuilt from its rendering may
need packages (`\\mathscr`) or not compile at all (a subscript `ᵢ`).

`doi` and `url` are not text: BibLaTeX reads them verbatim, as the url and
doi packages do, so they are written as they are (an escape would end up in
the printed DOI and in the link). A value that cannot be written so is left
out, see `_verbatim`.

An arXiv paper's year and month are those of its id (`2612.40001` is
December 2026, `hep-th/9901001` January 1999): the month its first version
was submitted, exact, where the paper's date may be a category feed's
announcement (a December paper announced on 4 January) or an estimate. A
paper from elsewhere keeps its own date.

A paper known only from a post that links it (`Paper.secondhand`) has the
post's title and authors, not its own: its entry holds only what the id
tells for sure (eprint, year, month, url), and the caller says so with
`SECONDHAND_NOTE`.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Iterable
from datetime import datetime

from pylatexenc.latexencode import UnicodeToLatexEncoder

from feedtui.model import Paper, shown_title
from feedtui.sources.parse.ids import first_version_month
from feedtui.sources.parse.text import NAME_SUFFIXES
from feedtui.text.latex import latex_to_unicode
from feedtui.text.links import safe_link

_ENCODER = UnicodeToLatexEncoder(
    non_ascii_only=False,
    replacement_latex_protection="braces-all",
    unknown_char_policy="keep",
    unknown_char_warning=False,
)
SECONDHAND_NOTE = "known only from a post that links it: written without the post's title and authors until its arXiv record arrives"
MONTHS = ("jan", "feb", "mar", "apr", "may", "jun", "jul", "aug", "sep", "oct", "nov", "dec")
# Characters kept of the family name and of the title word in a key: a feed's
# title may be one word of a thousand letters.
KEY_PART = 24
_STOP = {"a", "an", "the", "on", "of", "for", "and", "in", "to", "towards", "toward", "via", "with"}


# Inline math, `$…$` (not `\$`, not `$$…$$`) with no comment sign or line break.
_INLINE_MATH = re.compile(r"(?<![\\$])\$([^$%\n]+?)(?<!\\)\$(?!\$)")
# What math copied into an entry may hold: LaTeX's and amsmath's own commands
# (a title from a feed is untrusted: `\input`, `\write18` or `\end{document}`
# must never reach the user's document), and no bare `#` or `&`.
_MATH_COMMANDS = frozenset(
    """alpha beta gamma delta epsilon varepsilon zeta eta theta vartheta iota kappa lambda
    mu nu xi pi varpi rho varrho sigma varsigma tau upsilon phi varphi chi psi omega
    Gamma Delta Theta Lambda Xi Pi Sigma Upsilon Phi Psi Omega
    log ln lg exp sin cos tan cot sec csc sinh cosh tanh coth arcsin arccos arctan arg
    max min sup inf lim limsup liminf det dim ker deg gcd hom Pr bmod pmod
    mathcal mathbb mathbf mathrm mathit mathsf mathtt mathfrak boldsymbol text operatorname
    frac sqrt hat bar tilde vec dot ddot widehat widetilde overline underline
    times cdot cdots ldots dots le leq ge geq neq ne approx sim simeq equiv propto
    in notin subset subseteq supset supseteq cup cap setminus infty partial nabla pm mp
    to rightarrow leftarrow leftrightarrow Rightarrow Leftarrow mapsto
    sum prod int oint ell hbar emptyset forall exists neg land lor oplus otimes circ star ast
    ll gg perp parallel mid vert Vert langle rangle lfloor rfloor lceil rceil
    lesssim gtrsim cong wedge vee varnothing subsetneq supsetneq prec succ preceq succeq
    iff implies vdots ddots Re Im aleph
    left right big Big bigg Bigg quad qquad top dagger prime colon""".split()
)
_MATH_TOKEN = re.compile(r"\\([A-Za-z]+|.)|([#&])")
_MATH_SYMBOLS = frozenset(",;:! {}|_$#&")


def _safe_math(math: str) -> bool:
    if not math.isascii() or "^^" in math:  # TeX reads ^^5c as a backslash
        return False
    for command, bare in _MATH_TOKEN.findall(math):
        if bare or command in "{}" or (command not in _MATH_COMMANDS and command not in _MATH_SYMBOLS):
            return False  # an escaped brace still counts for BibTeX, which would see them unbalanced
    return _balanced(math)


# A straight double quote that opens a quotation: at the start, or after a
# space or an opening bracket. LaTeX has no straight double quote, and the
# encoder makes every one a closing quote.
_OPENING_STRAIGHT_QUOTE = re.compile(r'(?<![^\s(\[{])"')


def latex_escape(text: str, before: str = "") -> str:
    """`text` escaped for BibTeX; `before` is the character it follows in
    the field, if any (a quote right after a title's math closes)."""
    curled = _OPENING_STRAIGHT_QUOTE.sub("\u201c", before + text).replace('"', "\u201d")
    return _ENCODER.unicode_to_latex(_one_mark_per_letter(curled[len(before) :]))


def _one_mark_per_letter(text: str) -> str:
    """`text` composed (NFC), without an accent (U+0300–U+036F) left on a
    Latin letter that has one already: the encoder writes a letter and its
    accent as one command (`{\\'z}`) and would leave a second accent hanging
    after the brace. Letters that compose whole (Vietnamese `ệ`) keep every
    mark, and so does every other script (Arabic's shadda, Devanagari's
    virama), which the encoder keeps as it is."""
    if text.isascii():
        return text
    kept: list[str] = []
    accented = False  # whether the last character kept is a Latin letter with an accent
    for char in unicodedata.normalize("NFC", text):
        if "\u0300" <= char <= "\u036f" and unicodedata.combining(char):
            if accented:
                continue
            accented = bool(kept) and _is_latin(kept[-1])
        else:
            accented = _is_latin(char) and _composed_with_a_mark(char)
        kept.append(char)
    return "".join(kept)


def _is_latin(char: str) -> bool:
    return unicodedata.name(char, "").startswith("LATIN ")


def _composed_with_a_mark(char: str) -> bool:
    """`é`, `ệ`: a letter whose canonical decomposition adds marks to a base."""
    parts = unicodedata.decomposition(char).split()
    return len(parts) > 1 and not parts[0].startswith("<")


def latex_title(paper: Paper) -> str:
    """The title as BibTeX text: for an arXiv paper, its math as the authors
    wrote it (when it holds only standard math, see `_safe_math`) and the rest
    rendered and escaped; otherwise the display form, escaped. A blog's `$5`
    is a price, not math."""
    source = paper.title
    parts: list[str] = []
    start = 0
    maths = _INLINE_MATH.finditer(source) if paper.is_arxiv and not paper.secondhand else ()
    for math in maths:
        if not _safe_math(math.group(1)):
            continue
        parts.append(latex_escape(latex_to_unicode(source[start : math.start()]), source[start - 1 : start]))
        parts.append(math.group(0))
        start = math.end()
    if not parts:  # no math: the display form, as for every other field
        return latex_escape(shown_title(paper.readable_title))
    parts.append(latex_escape(latex_to_unicode(source[start:]), source[start - 1 : start]))
    return "".join(parts)


def _balanced(math: str) -> bool:
    """Every brace closed, and none before it opened (escaped ones are turned
    away before this: BibTeX counts them too)."""
    depth = 0
    for character in math:
        if character == "{":
            depth += 1
        elif character == "}":
            depth -= 1
            if depth < 0:
                return False
    return depth == 0


# What a verbatim field cannot hold: BibTeX counts braces in every field (an
# unbalanced one ends the entry early or runs into the next), and a backslash,
# or `^^5c` that TeX reads as one, starts a command wherever a style prints the
# field as text instead of through \url. No DOI or URL needs these characters
# or a space (a URL percent-encodes them), so such a value is left out.
_NOT_VERBATIM = re.compile(r"[{}\\^\s]")


def _verbatim(value: str | None) -> str | None:
    if not value or _NOT_VERBATIM.search(value):
        return None
    return value


# `[bold]`, `[/]`, `[@click=app.quit]`, `[Re]`: bracketed, not a title word.
_BRACKETED = re.compile(r"\[[^\[\]]*\]")


def _ascii_word(text: str) -> str:
    folded = unicodedata.normalize("NFKD", text)
    return re.sub(r"[^a-z0-9]", "", "".join(c for c in folded if not unicodedata.combining(c)).lower())


def citation_key(paper: Paper) -> str:
    """`quill2026heterogeneous`: first author's family name, year, first real title word.

    The family name is the part before the comma of `Last, First` (the name
    as `bibtex_name` writes it: `Ana Núñez Jr.` gives `nunez`, `Hyejin Van
    der Berg` gives `vanderberg`), else the last word of the name that starts
    with a letter once folded to ASCII and is no suffix (`Author 0` gives
    `author`, `Ada Quill 3rd` gives `quill`), so a key always starts with a
    letter. Title words skip stop words and anything
    in square brackets (markup-looking text such as `[bold]`).

    When the first author's name gives no such word (`张伟`, `محمد`: no
    ASCII letters, and nothing here to transliterate with), the key is the
    paper's id instead (`arxiv260901234`): stable, unique, ASCII, and it
    leads back to the paper. So is a paper known only from a post, whose
    authors are the post's. `anon` is kept for papers with no author.
    """
    if paper.secondhand:
        return _id_key(paper)
    if not paper.authors:
        family = "anon"
    else:
        family = _family_name(paper.authors[0].name)
        if not family:
            return _id_key(paper)
    title = _BRACKETED.sub(" ", paper.readable_title)
    words = [_ascii_word(w) for w in title.split()]
    word = next((w for w in words if w and w not in _STOP), "paper")
    return f"{family[:KEY_PART]}{citation_date(paper).year}{word[:KEY_PART]}"


def citation_date(paper: Paper) -> datetime:
    """The date an entry cites: for an arXiv paper, the month of its id (see
    the module docstring); for any other, its own date."""
    issued = first_version_month(paper.id) if paper.is_arxiv else None
    return issued or paper.published


def _family_name(name: str) -> str:
    """The ASCII family name, starting with a letter, or "" when there is none.
    An organisation has none: its first word that is not a stop word stands in
    (`The ATLAS Collaboration` gives `atlas`)."""
    family, comma, _ = bibtex_name(name).partition(",")
    if is_organisation(name):
        candidates = [w for w in name.split() if w.lower() not in _STOP]
    elif comma and family.strip():
        candidates = [family]
    else:
        words = name.replace(",", " ").split()
        # In a name of two words a roman numeral is the family name (Kenji Ii).
        suffix = _is_suffix if len(words) > 2 else _is_junior_or_senior
        candidates = reversed([w for w in words if not suffix(w)])
    for candidate in candidates:
        word = _ascii_word(candidate)
        if word[:1].isalpha():
            return word
    return ""


# An author that is an organisation, not a person: written braced, so BibTeX
# takes the name whole. Unbraced, `Research and Development Team` is two
# authors (BibTeX splits on ` and `, in any case), and `The ATLAS
# Collaboration` a person with given names "The ATLAS" (`T. A. Collaboration`).
# A name is braced when it holds ` and `, or one of these words, whole and in
# any case. A one-word name needs no braces: BibTeX takes it whole already.
_ORGANISATION_WORDS = frozenset(
    """collaboration consortium team group project committee organization organisation
    institute laboratory initiative alliance network society association council foundation""".split()
)
_AND = re.compile(r"\sand\s", re.IGNORECASE)
_WORD = re.compile(r"\w+")


def is_organisation(name: str) -> bool:
    return bool(_AND.search(name)) or any(w.lower() in _ORGANISATION_WORDS for w in _WORD.findall(name))


def bibtex_author(name: str) -> str:
    if is_organisation(name):
        return "{" + latex_escape(name) + "}"
    return latex_escape(bibtex_name(name))


# Capitalised particles that start a family name (`Hyejin Van der Berg`).
# BibTeX takes a capitalised word for a given name (`Van` became a middle
# name), so such a name is written `Van der Berg, Hyejin`. Only these
# sequences count: a lone `Van`, `De`, `Da`, `Di` or `Le` is as often a given
# name (the Vietnamese Văn, Chinese syllables), and a name that cannot be
# told apart is left as written.
_CAPITALISED_PARTICLES = (
    ("van", "der"), ("van", "den"), ("van", "de"), ("von", "der"), ("von", "dem"),
    ("de", "la"), ("de", "los"), ("de", "las"), ("von",), ("della",), ("dalla",),
)


def bibtex_name(name: str) -> str:
    """A person's name in a form BibTeX splits as meant.

    BibTeX reads `First von Last`, `von Last, First` and `von Last, Jr,
    First`. A suffix after the name (`Ana Núñez Jr.`, `Carlos Méndez, Jr.`)
    would be taken for the family name, and `Núñez Jr., Ana` has it in the
    family name, so these are written `Núñez, Jr., Ana`; the family name is
    the last word, or from the first lower-case particle on (`van der Berg,
    Jr., Jan`), as BibTeX would have split the name without its suffix. A
    capitalised particle from `_CAPITALISED_PARTICLES` starts the family name
    too. Every other name is returned as it is: BibTeX splits it right
    (`Jan van der Berg`), or nothing here can tell its parts apart.
    """
    if name.count(",") > 1:
        return name
    before, comma, after = (part.strip() for part in name.partition(","))
    if comma and not _is_suffix(after):  # `Last, First`
        family = before.split()
        if len(family) > 1 and _is_suffix(family[-1]):
            return f"{' '.join(family[:-1])}, {family[-1]}, {after}"
        return name
    words, suffix = before.split(), after
    if not comma and len(words) > 2 and _is_suffix(words[-1]):
        suffix = words.pop()
    start = _family_start(words, any_particle=bool(suffix))
    if start is None:
        return name
    given, family = " ".join(words[:start]), " ".join(words[start:])
    return f"{family}, {suffix}, {given}" if suffix else f"{family}, {given}"


def _is_suffix(word: str) -> bool:
    return word.lower() in NAME_SUFFIXES


def _is_junior_or_senior(word: str) -> bool:
    return _is_suffix(word) and word.lower().startswith(("jr", "sr"))


def _family_start(words: list[str], any_particle: bool) -> int | None:
    """Where the family name starts among `words` (a given name first, the
    family name's last word at the end): at a known capitalised particle
    sequence; with `any_particle`, else at the first lower-case word, else at
    the last word. None when there is no such place."""
    for start in range(1, len(words) - 1):
        following = tuple(word.lower() for word in words[start:])
        for particles in _CAPITALISED_PARTICLES:
            if words[start][:1].isupper() and following[: len(particles)] == particles and len(following) > len(particles):
                return start
    if not any_particle or len(words) < 2:
        return None
    return next((i for i, word in enumerate(words[1:-1], 1) if word[:1].islower()), len(words) - 1)


def _id_key(paper: Paper) -> str:
    """`arxiv260901234`, `arxivcs0112017`; `web3f2a…` for a web paper (its id's prefix)."""
    ascii_id = _ascii_word(paper.id)
    return f"arxiv{ascii_id}" if paper.is_arxiv else ascii_id


def _author_field(paper: Paper) -> str:
    """Every author, and `and others` for those past MAX_AUTHORS (BibTeX's "et al.")."""
    names = [bibtex_author(a.name) for a in paper.authors]
    if paper.authors_omitted and names:
        names.append("others")
    return " and ".join(names) or "Anonymous"


def bibtex_entry(paper: Paper, key: str | None = None) -> str:
    date = citation_date(paper)
    dated = [("year", str(date.year)), ("month", MONTHS[date.month - 1])]
    if paper.secondhand:
        fields = [*dated, ("eprint", paper.id), ("archivePrefix", "arXiv"), ("url", f"https://arxiv.org/abs/{paper.id}")]
        return _entry(key or citation_key(paper), fields)
    fields = [("title", "{" + latex_title(paper) + "}"), ("author", _author_field(paper)), *dated]
    if paper.is_arxiv:
        fields += [("eprint", paper.versioned_id), ("archivePrefix", "arXiv")]
        if paper.primary_category:
            fields.append(("primaryClass", paper.primary_category))
    doi = _verbatim(paper.doi)
    if doi:
        fields.append(("doi", doi))
    if paper.journal_ref:
        fields.append(("note", latex_escape(paper.journal_ref)))
    url = _verbatim(safe_link(paper.abs_url))
    if url:
        fields.append(("url", url))
    return _entry(key or citation_key(paper), fields)


def _entry(key: str, fields: list[tuple[str, str]]) -> str:
    body = ",\n".join(f"  {name} = {{{value}}}" if name != "month" else f"  {name} = {value}" for name, value in fields)
    return f"@misc{{{key},\n{body}\n}}\n"


def bibtex_entries(papers: Iterable[Paper]) -> str:
    """Entries with unique keys (see `unique_keys`)."""
    papers = list(papers)
    return "\n".join(bibtex_entry(paper, key) for paper, key in zip(papers, unique_keys(papers)))


def unique_keys(papers: list[Paper]) -> list[str]:
    """Each paper's citation key, unique among them (a, b, … suffixes on clashes).

    A suffixed key can equal another paper's own key (`quill2026edge` + `a`
    against a title starting "Edgea"); suffixes go on until the key is free.
    """
    used: set[str] = set()
    suffixes: dict[str, int] = {}
    keys: list[str] = []
    for paper in papers:
        base = key = citation_key(paper)
        count = suffixes.get(base, 0)
        while key in used:
            count += 1
            key = base + (chr(ord("a") + count - 1) if count <= 26 else str(count))
        suffixes[base] = count
        used.add(key)
        keys.append(key)
    return keys
