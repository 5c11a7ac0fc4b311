"""Lookup tables for `feedtui.text.latex`: symbols, scripts, alphabets, accents.

The hand-written `SYMBOLS` table covers what arXiv titles and abstracts
actually use, with the output chosen for reading in a terminal. Rarer symbol
macros fall back to pylatexenc's latex2text database (`extra_symbol`), which
is loaded once, on the first macro this table does not know, and filtered to
plain symbol replacements.
"""

from __future__ import annotations

import unicodedata
from functools import cache

# Macros that stand for a fixed piece of text, in math and in text mode.
SYMBOLS: dict[str, str] = {
    # Greek, lower case. \epsilon is drawn as ε because that is what readers
    # expect in "ε-greedy"; \phi likewise as φ.
    "alpha": "α", "beta": "β", "gamma": "γ", "delta": "δ", "epsilon": "ε",
    "varepsilon": "ε", "zeta": "ζ", "eta": "η", "theta": "θ", "vartheta": "ϑ",
    "iota": "ι", "kappa": "κ", "varkappa": "ϰ", "lambda": "λ", "mu": "μ",
    "nu": "ν", "xi": "ξ", "omicron": "ο", "pi": "π", "varpi": "ϖ", "rho": "ρ",
    "varrho": "ϱ", "sigma": "σ", "varsigma": "ς", "tau": "τ", "upsilon": "υ",
    "phi": "φ", "varphi": "φ", "chi": "χ", "psi": "ψ", "omega": "ω",
    "digamma": "ϝ",
    # Greek, upper case (including the ones LaTeX only has as Latin letters).
    "Alpha": "Α", "Beta": "Β", "Gamma": "Γ", "Delta": "Δ", "Epsilon": "Ε",
    "Zeta": "Ζ", "Eta": "Η", "Theta": "Θ", "Iota": "Ι", "Kappa": "Κ",
    "Lambda": "Λ", "Mu": "Μ", "Nu": "Ν", "Xi": "Ξ", "Omicron": "Ο", "Pi": "Π",
    "Rho": "Ρ", "Sigma": "Σ", "Tau": "Τ", "Upsilon": "Υ", "Phi": "Φ",
    "Chi": "Χ", "Psi": "Ψ", "Omega": "Ω",
    "varGamma": "Γ", "varDelta": "Δ", "varTheta": "Θ", "varLambda": "Λ",
    "varXi": "Ξ", "varPi": "Π", "varSigma": "Σ", "varUpsilon": "Υ",
    "varPhi": "Φ", "varPsi": "Ψ", "varOmega": "Ω",
    # Binary operators.
    "times": "×", "cdot": "·", "pm": "±", "mp": "∓", "div": "÷", "ast": "∗",
    "star": "⋆", "circ": "∘", "bullet": "•", "oplus": "⊕", "otimes": "⊗",
    "ominus": "⊖", "odot": "⊙", "oslash": "⊘", "wedge": "∧", "land": "∧",
    "vee": "∨", "lor": "∨", "cap": "∩", "cup": "∪", "setminus": "∖",
    "smallsetminus": "∖", "sqcup": "⊔", "sqcap": "⊓", "uplus": "⊎",
    "dagger": "†", "ddagger": "‡", "dag": "†", "ddag": "‡", "amalg": "⨿",
    "wr": "≀", "diamond": "⋄", "ltimes": "⋉", "rtimes": "⋊", "bowtie": "⋈",
    "circledast": "⊛", "boxplus": "⊞", "boxtimes": "⊠", "cdotp": "·",
    # Big operators.
    "sum": "∑", "prod": "∏", "coprod": "∐", "int": "∫", "iint": "∬",
    "iiint": "∭", "oint": "∮", "bigcap": "⋂", "bigcup": "⋃",
    "bigoplus": "⨁", "bigotimes": "⨂", "bigvee": "⋁", "bigwedge": "⋀",
    "bigsqcup": "⨆",
    # Relations.
    "leq": "≤", "le": "≤", "geq": "≥", "ge": "≥", "leqslant": "⩽",
    "geqslant": "⩾", "leqq": "≦", "geqq": "≧", "neq": "≠", "ne": "≠",
    "approx": "≈", "approxeq": "≊", "sim": "∼", "simeq": "≃", "cong": "≅",
    "equiv": "≡", "propto": "∝", "ll": "≪", "gg": "≫", "lll": "⋘",
    "ggg": "⋙", "lesssim": "≲", "gtrsim": "≳", "prec": "≺", "succ": "≻",
    "preceq": "⪯", "succeq": "⪰", "asymp": "≍", "doteq": "≐",
    "triangleq": "≜", "coloneqq": "≔", "coloneq": "≔", "eqqcolon": "≕",
    "in": "∈", "notin": "∉", "ni": "∋", "subset": "⊂", "subseteq": "⊆",
    "subsetneq": "⊊", "supset": "⊃", "supseteq": "⊇", "supsetneq": "⊋",
    "sqsubseteq": "⊑", "sqsupseteq": "⊒", "perp": "⊥", "parallel": "∥",
    "nparallel": "∦", "mid": "|", "nmid": "∤", "vdash": "⊢", "dashv": "⊣",
    "models": "⊨", "vDash": "⊨", "nleq": "≰", "ngeq": "≱", "nsim": "≁",
    # Arrows.
    "to": "→", "rightarrow": "→", "leftarrow": "←", "gets": "←",
    "leftrightarrow": "↔", "Rightarrow": "⇒", "Leftarrow": "⇐",
    "Leftrightarrow": "⇔", "iff": "⟺", "implies": "⟹", "impliedby": "⟸",
    "longrightarrow": "⟶", "longleftarrow": "⟵", "longleftrightarrow": "⟷",
    "Longrightarrow": "⟹", "Longleftarrow": "⟸", "Longleftrightarrow": "⟺",
    "mapsto": "↦", "longmapsto": "⟼", "hookrightarrow": "↪",
    "hookleftarrow": "↩", "uparrow": "↑", "downarrow": "↓", "updownarrow": "↕",
    "Uparrow": "⇑", "Downarrow": "⇓", "nearrow": "↗", "searrow": "↘",
    "nwarrow": "↖", "swarrow": "↙", "rightharpoonup": "⇀",
    "rightleftharpoons": "⇌", "twoheadrightarrow": "↠", "leadsto": "⇝",
    "rightsquigarrow": "⇝", "xrightarrow": "→", "xleftarrow": "←",
    # Letter-like symbols and miscellany.
    "infty": "∞", "partial": "∂", "nabla": "∇", "forall": "∀", "exists": "∃",
    "nexists": "∄", "neg": "¬", "lnot": "¬", "emptyset": "∅",
    "varnothing": "∅", "ell": "ℓ", "hbar": "ℏ", "hslash": "ℏ", "Re": "ℜ",
    "Im": "ℑ", "wp": "℘", "aleph": "ℵ", "beth": "ℶ", "top": "⊤", "bot": "⊥",
    "angle": "∠", "prime": "′", "surd": "√", "therefore": "∴",
    "because": "∵", "square": "□", "Box": "□", "blacksquare": "■",
    "triangle": "△", "checkmark": "✓", "sharp": "♯", "flat": "♭",
    "natural": "♮", "degree": "°", "imath": "ı", "jmath": "ȷ",
    "ldots": "…", "dots": "…", "dotsc": "…", "dotsb": "⋯", "cdots": "⋯",
    "vdots": "⋮", "ddots": "⋱", "colon": ":",
    # Delimiters.
    "langle": "⟨", "rangle": "⟩", "lceil": "⌈", "rceil": "⌉",
    "lfloor": "⌊", "rfloor": "⌋", "lvert": "|", "rvert": "|", "vert": "|",
    "lVert": "‖", "rVert": "‖", "Vert": "‖", "lbrace": "{", "rbrace": "}",
    "lbrack": "[", "rbrack": "]", "backslash": "\\",
    # Spacing: all of it becomes one space (doubled spaces are collapsed).
    "quad": " ", "qquad": " ", "enspace": " ", "enskip": " ",
    "thinspace": " ", "medspace": " ", "thickspace": " ", "space": " ",
    "hfill": " ", "newline": " ", "linebreak": " ", "par": " ",
    "negthinspace": "", "allowbreak": "", "nobreak": "",
    # Text-mode symbols.
    "textbackslash": "\\", "textasciitilde": "~", "textasciicircum": "^",
    "textbar": "|", "textless": "<", "textgreater": ">",
    "textendash": "–", "textemdash": "—", "textquoteleft": "‘",
    "textquoteright": "’", "textquotedblleft": "“", "textquotedblright": "”",
    "textbullet": "•", "textperiodcentered": "·", "textellipsis": "…",
    "textdegree": "°", "textmu": "µ", "textpm": "±", "texttimes": "×",
    "textdiv": "÷", "textsection": "§", "S": "§", "textparagraph": "¶",
    "P": "¶", "copyright": "©", "textcopyright": "©", "textregistered": "®",
    "texttrademark": "™", "pounds": "£", "textsterling": "£", "euro": "€",
    "texteuro": "€", "textdollar": "$", "textunderscore": "_",
    "textcelsius": "℃", "textdagger": "†", "textdaggerdbl": "‡",
    "item": "•", "slash": "/",
    # Letters that text mode builds from macros.
    "i": "ı", "j": "ȷ", "o": "ø", "O": "Ø", "l": "ł", "L": "Ł", "ss": "ß",
    "aa": "å", "AA": "Å", "ae": "æ", "AE": "Æ", "oe": "œ", "OE": "Œ",
    "dh": "ð", "DH": "Ð", "th": "þ", "TH": "Þ", "ng": "ŋ", "NG": "Ŋ",
}

# Macros that produce a word; a space separates them from a neighbouring
# letter, digit or macro (`n\log n`, `\arg\max`), as LaTeX's spacing does.
# Unknown macros are shown as their name and treated the same way; listing
# the common ones here spares them the lookup in pylatexenc's table.
WORD_MACROS: dict[str, str] = {
    **{name: name for name in (
        "log", "ln", "lg", "exp", "sin", "cos", "tan", "cot", "sec", "csc",
        "sinh", "cosh", "tanh", "coth", "arcsin", "arccos", "arctan", "arg",
        "max", "min", "sup", "inf", "lim", "det", "dim", "ker", "deg", "gcd",
        "lcm", "hom", "Pr", "mod", "argmax", "argmin", "tr", "Tr", "rank",
        "diag", "sgn", "sign", "Var", "Cov", "KL", "poly", "polylog", "softmax",
        "LaTeX", "TeX", "BibTeX",
    )},
    "limsup": "lim sup", "liminf": "lim inf", "bmod": "mod", "LaTeXe": "LaTeX2ε",
}

# In text mode LaTeX swallows the space after any control word. That is
# kept only where it reads better: for letters (`Bj\o rn` is "Bjørn",
# `Stra\ss e` is "Straße") and opening quotes. Elsewhere the space stays, as
# abstract writers expect (`\ldots and`).
GLUED_MACROS = frozenset({
    "i", "j", "o", "O", "l", "L", "ss", "aa", "AA", "ae", "AE", "oe", "OE",
    "dh", "DH", "th", "TH", "ng", "NG", "textquoteleft", "textquotedblleft",
})

# One-character control symbols (`\%`, `\,`, ...). Accents are separate.
CONTROL_SYMBOLS: dict[str, str] = {
    "%": "%", "&": "&", "_": "_", "$": "$", "#": "#", "{": "{", "}": "}",
    ",": " ", ";": " ", ":": " ", ">": " ", " ": " ", "\n": " ", "\t": " ",
    "\\": " ", "!": "", "-": "", "/": "", "@": "", "|": "‖",
}

# Accents, as combining characters. The spacing form is used for an empty
# argument: `\~{}` is a tilde.
TEXT_ACCENTS: dict[str, tuple[str, str]] = {
    '"': ("\u0308", "¨"), "'": ("\u0301", "´"), "`": ("\u0300", "`"),
    "^": ("\u0302", "^"), "~": ("\u0303", "~"), "=": ("\u0304", "¯"),
    ".": ("\u0307", "˙"), "u": ("\u0306", "˘"), "v": ("\u030c", "ˇ"),
    "H": ("\u030b", "˝"), "c": ("\u0327", "¸"), "r": ("\u030a", "˚"),
    "k": ("\u0328", "˛"), "d": ("\u0323", "."), "b": ("\u0331", "_"),
    "t": ("\u0361", ""),
}
MATH_ACCENTS: dict[str, str] = {
    "tilde": "\u0303", "widetilde": "\u0303", "hat": "\u0302",
    "widehat": "\u0302", "bar": "\u0304", "overline": "\u0305",
    "underline": "\u0332", "vec": "\u20d7", "overrightarrow": "\u20d7",
    "dot": "\u0307", "ddot": "\u0308", "dddot": "\u20db", "check": "\u030c",
    "breve": "\u0306", "acute": "\u0301", "grave": "\u0300",
    "mathring": "\u030a",
}

SUPERSCRIPTS: dict[str, str] = {
    **dict(zip("0123456789+-−=()", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁻⁼⁽⁾", strict=True)),
    **dict(zip("abcdefghijklmnoprstuvwxyz", "ᵃᵇᶜᵈᵉᶠᵍʰⁱʲᵏˡᵐⁿᵒᵖʳˢᵗᵘᵛʷˣʸᶻ", strict=True)),
    **dict(zip("ABDEGHIJKLMNOPRTUVW", "ᴬᴮᴰᴱᴳᴴᴵᴶᴷᴸᴹᴺᴼᴾᴿᵀᵁⱽᵂ", strict=True)),
    **dict(zip("βγδθιφχε", "ᵝᵞᵟᶿᶥᵠᵡᵋ", strict=True)),
    # Marks that already sit high: x^* is "x*", 90^\circ is "90°".
    "*": "*", "∗": "*", "⋆": "⋆", "′": "′", "″": "″", "†": "†", "‡": "‡",
    "∘": "°", "°": "°", "⊤": "ᵀ",
}
SUBSCRIPTS: dict[str, str] = {
    **dict(zip("0123456789+-−=()", "₀₁₂₃₄₅₆₇₈₉₊₋₋₌₍₎", strict=True)),
    **dict(zip("aehijklmnoprstuvx", "ₐₑₕᵢⱼₖₗₘₙₒₚᵣₛₜᵤᵥₓ", strict=True)),
    **dict(zip("βγρφχə", "ᵦᵧᵨᵩᵪₔ", strict=True)),
}


def _alphabet(upper: int, lower: int | None, digits: int | None,
              exceptions: dict[str, str]) -> dict[int, str]:
    """A str.translate table onto one of Unicode's mathematical alphabets.

    The alphabets have holes where a letter was encoded earlier in the
    Letterlike Symbols block (script B is ℬ, not U+1D49D); `exceptions` fills them.
    """
    table: dict[int, str] = {}
    for offset in range(26):
        table[ord("A") + offset] = chr(upper + offset)
        if lower is not None:
            table[ord("a") + offset] = chr(lower + offset)
    if digits is not None:
        for offset in range(10):
            table[ord("0") + offset] = chr(digits + offset)
    for plain, fancy in exceptions.items():
        table[ord(plain)] = fancy
    return table


_SCRIPT = _alphabet(0x1D49C, 0x1D4B6, None, {
    "B": "ℬ", "E": "ℰ", "F": "ℱ", "H": "ℋ", "I": "ℐ", "L": "ℒ", "M": "ℳ",
    "R": "ℛ", "e": "ℯ", "g": "ℊ", "o": "ℴ",
})
_DOUBLE_STRUCK = _alphabet(0x1D538, 0x1D552, 0x1D7D8, {
    "C": "ℂ", "H": "ℍ", "N": "ℕ", "P": "ℙ", "Q": "ℚ", "R": "ℝ", "Z": "ℤ",
})
_FRAKTUR = _alphabet(0x1D504, 0x1D51E, None, {
    "C": "ℭ", "H": "ℌ", "I": "ℑ", "R": "ℜ", "Z": "ℨ",
})

# Font macros that have a Unicode alphabet; characters outside it stay plain.
ALPHABETS: dict[str, dict[int, str]] = {
    "mathcal": _SCRIPT, "mathscr": _SCRIPT, "mathbb": _DOUBLE_STRUCK,
    "mathbbm": _DOUBLE_STRUCK, "mathds": _DOUBLE_STRUCK, "mathfrak": _FRAKTUR,
}

# Font and box macros shown as their argument, in math mode ...
MATH_ARGUMENT_MACROS = frozenset({
    "mathbf", "mathrm", "mathit", "mathsf", "mathtt", "mathnormal",
    "boldsymbol", "bm", "pmb", "mathop", "mathbin", "mathrel", "ensuremath",
    "overbrace", "underbrace",
})
# ... and in text mode.
TEXT_ARGUMENT_MACROS = frozenset({
    "text", "textrm", "textbf", "textit", "textsl", "textsc", "texttt",
    "textsf", "textup", "textmd", "textnormal", "emph", "mbox", "hbox",
    "uppercase", "lowercase",
    "MakeUppercase", "MakeLowercase", "intertext",
})

# Declarations and sizing macros without visible output.
DECLARATIONS = frozenset({
    "bf", "it", "em", "rm", "sc", "sf", "tt", "sl", "up", "bfseries",
    "itshape", "scshape", "ttfamily", "rmfamily", "sffamily", "upshape",
    "mdseries", "slshape", "normalfont", "tiny", "scriptsize",
    "footnotesize", "small", "normalsize", "large", "Large", "LARGE",
    "huge", "Huge", "displaystyle", "textstyle", "scriptstyle",
    "scriptscriptstyle", "limits", "nolimits", "centering", "noindent",
    "indent", "protect", "relax", "nonumber", "notag", "boldmath",
    "unboldmath", "mathstrut", "strut",
})

# Delimiter sizing: dropped, and the `.` of `\left.` (an invisible delimiter) with it.
SIZING_MACROS = frozenset({
    "left", "right", "middle", "big", "Big", "bigg", "Bigg", "bigl", "bigr",
    "Bigl", "Bigr", "biggl", "biggr", "Biggl", "Biggr", "bigm", "Bigm",
})

# Macros whose (single, braced) argument is a name, not text.
DROPPED_ARGUMENT_MACROS = frozenset({
    "label", "hspace", "vspace", "color", "pagecolor", "bibliographystyle",
    "phantom", "vphantom", "hphantom",
})

# \begin{...} environments whose body is mathematics.
MATH_ENVIRONMENTS = frozenset({
    "math", "displaymath", "equation", "equation*", "align", "align*",
    "aligned", "gather", "gather*", "gathered", "multline", "multline*",
    "eqnarray", "eqnarray*", "flalign", "flalign*", "alignat", "alignat*",
    "split", "dmath", "dmath*",
})


@cache
def _pylatexenc_symbols() -> dict[str, str]:
    """Symbol macros from pylatexenc's latex2text database.

    Only plain replacements are taken: non-ASCII, printable, with no
    argument placeholder (`%s`) and no combining or format characters.
    """
    from pylatexenc.latex2text import get_default_latex_context_db

    symbols: dict[str, str] = {}
    for spec in get_default_latex_context_db().iter_macro_specs():
        replacement = spec.simplify_repl
        if not isinstance(replacement, str) or not replacement or replacement.isascii():
            continue
        if "%" in replacement:
            continue
        if any(unicodedata.category(ch)[0] in "CMZ" for ch in replacement):
            continue
        symbols.setdefault(spec.macroname, replacement)
    return symbols


def extra_symbol(name: str) -> str | None:
    """The replacement for a symbol macro the hand-written table lacks."""
    return _pylatexenc_symbols().get(name)
