"""latex_to_unicode: hand-checked conversions, edge cases and properties."""

from __future__ import annotations

import sys
import unicodedata

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pylatexenc.latex2text import get_default_latex_context_db

from feedtui.text.latex import latex_to_unicode


def converts(pairs: list[tuple[str, str]]) -> pytest.MarkDecorator:
    return pytest.mark.parametrize(("source", "expected"), pairs, ids=[p[0] for p in pairs])


@converts([
    # The three examples from the spec.
    (r"$5.2\times$", "5.2×"),
    (r"$O(n^2)$", "O(n²)"),
    (r"\emph{x}", "x"),
    # The examples from the task.
    (r"$\mathcal{O}(n \log n)$", "𝒪(n log n)"),
    (r"$\mathbb{R}^{d}$", "ℝᵈ"),
    (r"$\tilde{\mathcal{O}}(1/\sqrt{n})$", "𝒪\u0303(1/√n)"),
    (r"$\tilde{O}(1/\sqrt{n})$", "Õ(1/√n)"),
    (r"\textsc{Name}", "Name"),
    (r"$\epsilon$-greedy", "ε-greedy"),
    (r"$\lambda \in [0, 1]$", "λ ∈ [0, 1]"),
    (r"$\beta_2=0.999$", "β₂=0.999"),
    (r"$k \gg 1$", "k ≫ 1"),
    (r'Schr\"odinger', "Schrödinger"),
    (r"Erd\H{o}s", "Erdős"),
    (r"\'e", "é"),
    (r"\%, \&, \_, \$, \#, \{, \}", "%, &, _, $, #, {, }"),
    ("a--b, a---b", "a–b, a—b"),
    ("``quotes''", "“quotes”"),
])
def test_task_examples(source: str, expected: str) -> None:
    assert latex_to_unicode(source) == expected


def test_a_whole_abstract() -> None:
    source = (
        r"We propose \textsc{Flux}, a method that is $5.2\times$ faster than "
        r"prior work and needs $\mathcal{O}(n \log n)$ memory. With "
        r"$\beta_2=0.999$ and $\lambda \in [0, 1]$ it reaches an error of "
        r"$\tilde{O}(1/\sqrt{n})$ on Schr\"odinger-type problems -- without "
        r"\emph{any} tuning; ``robust'' up to 5\% noise."
    )
    assert latex_to_unicode(source) == (
        "We propose Flux, a method that is 5.2× faster than prior work and "
        "needs 𝒪(n log n) memory. With β₂=0.999 and λ ∈ [0, 1] it reaches an "
        "error of Õ(1/√n) on Schrödinger-type problems – without any tuning; "
        "“robust” up to 5% noise."
    )


@converts([
    (r"$\alpha\beta\gamma\delta\epsilon\varepsilon\zeta\eta\theta\vartheta$", "αβγδεεζηθϑ"),
    (r"$\iota\kappa\lambda\mu\nu\xi\pi\rho\sigma\tau\upsilon\phi\varphi\chi\psi\omega$",
     "ικλμνξπρστυφφχψω"),
    (r"$\Gamma\Delta\Theta\Lambda\Xi\Pi\Sigma\Upsilon\Phi\Psi\Omega$", "ΓΔΘΛΞΠΣΥΦΨΩ"),
])
def test_greek(source: str, expected: str) -> None:
    assert latex_to_unicode(source) == expected


@converts([
    (r"$\times \cdot \pm \mp \leq \le \geq \ge \neq \approx$", "× · ± ∓ ≤ ≤ ≥ ≥ ≠ ≈"),
    (r"$\sim \simeq \equiv \propto \ll \gg \in \notin$", "∼ ≃ ≡ ∝ ≪ ≫ ∈ ∉"),
    (r"$\subset \subseteq \cup \cap \to \rightarrow \leftarrow$", "⊂ ⊆ ∪ ∩ → → ←"),
    (r"$\Rightarrow \iff \mapsto \infty \partial \nabla$", "⇒ ⟺ ↦ ∞ ∂ ∇"),
    (r"$\sum \prod \int \forall \exists \ell \hbar$", "∑ ∏ ∫ ∀ ∃ ℓ ℏ"),
    (r"$\circ \ast \star \dagger$", "∘ ∗ ⋆ †"),
    (r"$\{x \mid x > 0\}$", "{x | x > 0}"),
    (r"$\|x\|_2$", "‖x‖₂"),
    (r"$\langle x, y \rangle$", "⟨ x, y ⟩"),
    (r"$\not\in$ and $\not=$", "∉ and ≠"),
    # A rarer symbol comes from pylatexenc's table.
    (r"$\Lsh$", "↰"),
])
def test_operators_and_relations(source: str, expected: str) -> None:
    assert latex_to_unicode(source) == expected


@converts([
    (r"$\log \exp \sin \max \min \arg$", "log exp sin max min arg"),
    (r"$n\log n$", "n log n"),
    (r"$\arg\max_x f(x)$", "arg maxₓ f(x)"),
    (r"$\operatorname{Tr}(A)$", "Tr(A)"),
    (r"$\operatorname*{arg\,min}_w$", "arg min_w"),
    (r"$\limsup_n$", "lim supₙ"),
])
def test_operator_names(source: str, expected: str) -> None:
    assert latex_to_unicode(source) == expected


@converts([
    (r"$n^2$", "n²"),
    (r"$x_i$", "xᵢ"),
    (r"$10^{-3}$", "10⁻³"),
    (r"$\beta_2$", "β₂"),
    (r"$2^{n - 1}$", "2ⁿ⁻¹"),
    (r"$x_{ij}$", "xᵢⱼ"),
    (r"$x^{(t)}$", "x⁽ᵗ⁾"),
    (r"$A^\top$ and $A^{-1}$", "Aᵀ and A⁻¹"),
    (r"$90^\circ$", "90°"),
    (r"$\sum_{i=1}^{n} x_i$", "∑ᵢ₌₁ⁿ xᵢ"),
    (r"$x_{\text{train}}$", "xₜᵣₐᵢₙ"),
    (r"$\log^2 n$", "log² n"),
    # Fallbacks: a marker, and parentheses around more than one character.
    (r"$x^*$ and $\theta^\star$", "x* and θ⋆"),
    (r"$x^q$", "x^q"),
    (r"$x^{q+1}$", "x^(q+1)"),
    (r"$x^{ab c}$", "x^(ab c)"),
    (r"$x_{i,j}$", "x_(i,j)"),
    (r"$\mathcal{L}_{\text{CE}}$", "ℒ_(CE)"),
    (r"$\lim_{n \to \infty}$", "lim_(n → ∞)"),
    (r"$x^{}$", "x"),
    # Outside math, ^ and _ are left as typed.
    ("file_name x^2", "file_name x^2"),
    (r"file_name \emph{x^2}", "file_name x^2"),
])
def test_scripts(source: str, expected: str) -> None:
    assert latex_to_unicode(source) == expected


@converts([
    (r"$\mathcal{L}$", "ℒ"),
    (r"$\mathcal{AB}$", "𝒜ℬ"),
    (r"$\mathscr{F}$", "ℱ"),
    (r"$\mathfrak{g}$", "𝔤"),
    (r"$\mathbb{E}$", "𝔼"),
    (r"$\mathbb{N} \subset \mathbb{Z}$", "ℕ ⊂ ℤ"),
    (r"$\mathbb{1}$", "𝟙"),
    (r"$\mathbb{R}_+$", "ℝ₊"),
    # No Unicode alphabet for these characters: they stay plain.
    (r"$\mathcal{1}$", "1"),
    (r"$\mathbf{x}$", "x"),
    (r"$\mathrm{d}x$", "dx"),
    (r"\textbf{bold} \textit{it} \texttt{tt} \textrm{rm}", "bold it tt rm"),
    (r"{\bf bold} {\em emph}", "bold emph"),
    (r"$\text{if } x > 0$", "if x > 0"),
    (r"\textbf{\emph{nested}}", "nested"),
])
def test_fonts(source: str, expected: str) -> None:
    assert latex_to_unicode(source) == expected


@converts([
    (r"$\sqrt{x}$", "√x"),
    (r"$\sqrt{n+1}$", "√(n+1)"),
    (r"$\sqrt x$", "√x"),
    (r"$\sqrt[3]{x}$", "∛x"),
    (r"$\sqrt[n]{x}$", "ⁿ√x"),
    (r"$\frac{a}{b}$", "a/b"),
    (r"$\frac{n+1}{2}$", "(n+1)/2"),
    (r"$\frac{a}{b c}$", "a/(b c)"),
    (r"$\frac12$", "1/2"),
    (r"$\frac{1}{\sqrt{n}}$", "1/√n"),
    (r"$\frac{(a+b)}{2}$", "(a+b)/2"),
    (r"$\left( \frac{a}{b} \right)$", "( a/b )"),
    (r"$\left.\frac{d}{dx}\right|_0$", "d/dx|₀"),
    (r"$\Omega(\sqrt{d/\epsilon})$", "Ω(√(d/ε))"),
    (r"$\binom{n}{k}$", "C(n, k)"),
])
def test_roots_and_fractions(source: str, expected: str) -> None:
    assert latex_to_unicode(source) == expected


@converts([
    (r"$\tilde{x}$", "x̃"),
    (r"$\hat{\theta}$", "θ\u0302"),
    (r"$\bar{x}$", "x̄"),
    (r"$\vec{v}$", "v\u20d7"),
    (r"$\dot{x}$", "ẋ"),
    (r"$\hat{xy}$", "x̂ŷ"),
    # Accent floods are capped at two marks per character.
    (r"$\hat{\hat{\hat{\hat{x}}}}$", "x\u0302\u0302"),
])
def test_math_accents(source: str, expected: str) -> None:
    assert latex_to_unicode(source) == expected


@converts([
    (r'\"o \'e \`a \^o \~n \=a \.z \u{a} \r{a} \k{a}', "ö é à ô ñ ā ż ă å ą"),
    (r'\c{c} \H{o} \v{s} {\"u} \"{u} \" u', "ç ő š ü ü ü"),
    (r"\ss{} \o{} \O{} \aa{} \AA{} \ae{} \AE{} \oe{} \l{} \L{}", "ß ø Ø å Å æ Æ œ ł Ł"),
    (r'\"{\i} and \'\i', "ï and í"),
    (r"Bj\o rn Stra\ss e", "Bjørn Straße"),
    (r"\AA ngstr\"om", "Ångström"),
    (r"Erd\H{o}s--R\'enyi", "Erdős–Rényi"),
    (r"\~{}user and \^{}", "~user and ^"),
])
def test_text_accents(source: str, expected: str) -> None:
    assert latex_to_unicode(source) == expected


@converts([
    ("a~b", "a b"),
    ("https://example.org/~user", "https://example.org/~user"),
    (r"x\,y\;z\:w\quad v\qquad u\ t", "x y z w v u t"),
    (r"a \\ b", "a b"),
    (r"a\!b", "ab"),
    ("``quoted'' and `single'", "“quoted” and `single'"),
    ("it's fine", "it's fine"),
    ("pre-trained -- and --- dashes; ----", "pre-trained – and — dashes; —-"),
    (r"a -{}- b", "a -- b"),
    (r"$a--b$", "a--b"),
    ("{Grouping} braces {vanish}", "Grouping braces vanish"),
    (r"\LaTeX{} and \TeX", "LaTeX and TeX"),
    (r"\textquotedblleft x\textquotedblright{} and \ldots and", "“x” and … and"),
    (r"5\textsuperscript{th} and CO\textsubscript{2}, \textsuperscript{a.b}", "5ᵗʰ and CO₂, a.b"),
    (r"R\&D and R&D", "R&D and R&D"),
    (r"5\% and 5% fewer", "5% and 5% fewer"),
    (r"a  \emph{b}  c", "a b c"),
    (r"\textcolor{red}{warning}", "warning"),
    (r"see\label{sec:x} here", "see here"),
])
def test_text_mode(source: str, expected: str) -> None:
    assert latex_to_unicode(source) == expected


@converts([
    (r"$$E = mc^2$$", "E = mc²"),
    (r"\(a+b\)", "a+b"),
    (r"\[x^2\]", "x²"),
    (r"\begin{equation}x^2\end{equation}", "x²"),
    (r"a \begin{align*} x &= 1 \\ y &= 2 \end{align*} b", "a x = 1 y = 2 b"),
    (r"\begin{itemize}\item one \item two\end{itemize}", "• one • two"),
    (r"a \( b", "a ( b"),
    (r"a \[ b", "a [ b"),
])
def test_math_delimiters_and_environments(source: str, expected: str) -> None:
    assert latex_to_unicode(source) == expected


@converts([
    # "$<digit>" is currency when the next `$` is followed by a digit too ...
    ("costs $5 and $10", "costs $5 and $10"),
    ("between $5-$10.", "between $5-$10."),
    # ... or when what lies between is words without macros.
    ("$5 per run and $x$ here", "$5 per run and x here"),
    ("a lone $ sign", "a lone $ sign"),
    ("it costs $5", "it costs $5"),
    # Math that starts with a digit, or ends before one, is still math.
    (r"$5.2\times$ cheaper, saving $3", "5.2× cheaper, saving $3"),
    (r"$10^{-3}$ and $2^{10}$ params", "10⁻³ and 2¹⁰ params"),
    (r"$5 \text{ and } 6$", "5 and 6"),
    (r"$\sim$50\% and $\times$10", "∼50% and ×10"),
    ("$x$10", "x10"),
    # Math never spans a paragraph break.
    ("costs $5.\n\nThe $x$ is", "costs $5.\n\nThe x is"),
])
def test_dollar_as_currency(source: str, expected: str) -> None:
    assert latex_to_unicode(source) == expected


@converts([
    (r"\foo bar", "foo bar"),
    (r"\unknownmacro{arg}", "unknownmacro arg"),
    (r"a\method b", "a method b"),
    (r"$\newop\alpha$", "newop α"),
    (r"\cite{smith2020} and Eq.~\eqref{eq:1}", "[smith2020] and Eq. (eq:1)"),
    (r"\url{https://github.com/x/my\_repo}", "https://github.com/x/my_repo"),
    (r"\href{https://x.org}{the site}", "the site"),
])
def test_unknown_and_reference_macros(source: str, expected: str) -> None:
    assert latex_to_unicode(source) == expected


@converts([
    ("", ""),
    ("\\", "\\"),
    ("x\\", "x\\"),
    ("{{{a", "a"),
    ("a}}}", "a"),
    ("$", "$"),
    ("$x^", "$x^"),
    (r"$\frac{a}", "$a/"),
    (r"$x^{2$", "x²"),
    (r"\begin{equation", "begin equation"),
    (r"\sqrt", "√"),
    ("a\tb\x1b[2Jc\x00", "a b[2Jc"),
])
def test_broken_input(source: str, expected: str) -> None:
    assert latex_to_unicode(source) == expected


def test_plain_text_is_returned_as_the_same_object() -> None:
    text = "We study sparse, state-of-the-art models (5% fewer); it's plain - really."
    assert latex_to_unicode(text) is text


def test_plain_text_with_newlines_and_double_spaces_is_unchanged() -> None:
    text = "Two  spaces\nand a line break."
    assert latex_to_unicode(text) is text


def test_paragraphs_and_line_breaks_are_kept() -> None:
    source = "First $x$ paragraph.\n\nSecond one,\nwrapped."
    assert latex_to_unicode(source) == "First x paragraph.\n\nSecond one,\nwrapped."


@pytest.mark.parametrize(("source", "kept"), [
    ("{" * 1000 + "x" + "}" * 1000, "x"),
    ("{" * 1000 + "x", "x"),
    ("}" * 1000 + "x", "x"),
    ("$" + r"\sqrt" * 1000 + " x$", "√√√"),
    ("$" + r"\sqrt{" * 1000 + "x" + "}" * 1000 + "$", "x"),
    ("$x" + "^{" * 1000 + "2" + "}" * 1000 + "$", "²"),
    ('\\"' * 1000 + "o", "ö"),
    ("$" + r"\frac{" * 1000 + "$", "/"),
    (r"\begin{equation}" * 2000 + "x", "x"),
    (r"\[" * 5000, "[[["),
], ids=["braces", "unclosed-braces", "stray-closing-braces", "bare-sqrt-chain", "sqrt-chain",
        "superscript-chain", "accent-chain", "unclosed-fracs", "unclosed-equations",
        "unclosed-display-math"])
def test_deep_nesting_does_not_exhaust_the_stack(source: str, kept: str) -> None:
    # Leave only part of the recursion limit, as a caller deep inside a UI would.
    limit = sys.getrecursionlimit()
    try:
        sys.setrecursionlimit(len(_stack()) + 400)
        result = latex_to_unicode(source)
    finally:
        sys.setrecursionlimit(limit)
    assert kept in result


def _stack() -> list[object]:
    frames = []
    frame = sys._getframe()
    while frame is not None:
        frames.append(frame)
        frame = frame.f_back
    return frames


def test_a_100_kb_abstract() -> None:
    sentence = r"We bound the regret by $\mathcal{O}(\sqrt{T})$ for \emph{all} $k \gg 1$. "
    source = sentence * (100_000 // len(sentence))
    result = latex_to_unicode(source)
    assert result.count("𝒪(√T)") == source.count(r"\mathcal{O}")
    assert "\\" not in result and "$" not in result


def test_every_macro_pylatexenc_knows_converts_safely() -> None:
    names = {spec.macroname for spec in get_default_latex_context_db().iter_macro_specs()}
    assert len(names) > 500
    for name in names:
        for source in (f"a \\{name} ", f"a $\\{name}$ b", f"a \\{name}{{x}}{{y}}{{z}} b"):
            result = latex_to_unicode(source)
            assert result.startswith("a"), source
            assert result.endswith("b") or source.endswith(" "), source
            assert all(unicodedata.category(ch) not in ("Cc", "Cf") for ch in result), source


def _no_controls_except_newline(text: str) -> bool:
    return all(ch == "\n" or unicodedata.category(ch) != "Cc" for ch in text)


LATEX_PIECES = st.sampled_from([
    "\\", "$", "$$", "{", "}", "^", "_", "~", "`", "'", "-", "--", "&", "%",
    "[", "]", "(", ")", " ", "\n", "\n\n", "x", "2", "ab", r"\frac", r"\sqrt",
    r"\left", r"\right", r"\begin{equation}", r"\end{equation}", r"\begin{",
    r"\end{", r"\(", r"\)", r"\[", r"\]", r"\mathcal", r"\mathbb", r"\tilde",
    r"\"", r"\'", r"\c", r"\i", r"\ss", r"\text", r"\emph", r"\alpha", r"\not",
    r"\operatorname*", r"\url", r"\cite", r"\label", r"\\", r"\,", "\x1b", "\x00",
    "\t", "é", "\u0301", r"\unknown", "ı",
])


@settings(max_examples=400, deadline=None)
@given(st.lists(LATEX_PIECES, max_size=40).map("".join))
def test_latex_like_input_never_raises_and_has_no_controls(source: str) -> None:
    result = latex_to_unicode(source)
    assert _no_controls_except_newline(result)
    if "\n" not in source:
        assert "\n" not in result


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_any_text_never_raises_and_has_no_controls(source: str) -> None:
    result = latex_to_unicode(source)
    assert _no_controls_except_newline(result)


PLAIN = st.text(
    alphabet=st.characters(
        blacklist_categories=("Cc", "Cs"),
        blacklist_characters="\\$^_{}~`'-",
    )
    | st.sampled_from(" \n"),
)


@settings(max_examples=400, deadline=None)
@given(PLAIN)
def test_text_without_latex_is_returned_unchanged(source: str) -> None:
    assert latex_to_unicode(source) == source


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ("Tips for your ~/.bashrc file", "Tips for your ~/.bashrc file"),
        (r"C:\Windows\System32 and \n", r"C:\Windows\System32 and \n"),
        ("{key: value} -- ``quoted''", "{key: value} -- ``quoted''"),
        (r"\textbf{kept} but $\frac{a}{b}$ is math", r"\textbf{kept} but a/b is math"),
        (r"\(x_{ij}\) and \[n^2\]", "xᵢⱼ and n²"),
        (r"an open \( stays", r"an open ( stays"),
        ("costs $5 and $10", "costs $5 and $10"),
        ("a\x1b[31m red\x07 bell", "a[31m red bell"),
        ("plain", "plain"),
    ],
)
def test_math_only_renders_the_math_and_keeps_the_rest(source: str, expected: str) -> None:
    assert latex_to_unicode(source, math_only=True) == expected
