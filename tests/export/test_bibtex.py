from __future__ import annotations

import unicodedata

import pytest

from feedtui.export.bibtex import KEY_PART, bibtex_entries, bibtex_entry, citation_key, latex_escape

from tests.factories import make_paper


def test_arxiv_entry_hand_checked():
    paper = make_paper(
        "2609.01234",
        version=2,
        title="Gr\u00fcnwald & Co: 100% of $a_b$ #1",
        title_display="Grünwald & Co: 100% of a_b #1",
        published="2026-09-28T10:00:00",
        authors=(("Søren Åberg", ()), ("Zoë Dvořák", ())),
        categories=("cs.DC", "cs.LG"),
        doi="10.99999/synthetic.12345",
    )
    assert bibtex_entry(paper) == (
        "@misc{aberg2026grunwald,\n"
        "  title = {{Gr{\\\"u}nwald {\\&} Co: 100{\\%} of $a_b$ {\\#}1}},\n"
        "  author = {S{\\o}ren {\\r{A}}berg and Zo{\\\"e} Dvo{\\v{r}}{\\'a}k},\n"
        "  year = {2026},\n"
        "  month = sep,\n"
        "  eprint = {2609.01234v2},\n"
        "  archivePrefix = {arXiv},\n"
        "  primaryClass = {cs.DC},\n"
        "  doi = {10.99999/synthetic.12345},\n"
        "  url = {https://arxiv.org/abs/2609.01234v2}\n"
        "}\n"
    )


def test_math_in_a_title_is_kept_as_the_authors_wrote_it():
    """Rebuilt from its Unicode rendering, O(n log n) came out as
    `{\\ensuremath{\\mathscr{O}}}(n log n)` (mathrsfs, and the \\log lost) and
    x²ᵢ as `x{\\texttwosuperior}ᵢ`, which pdflatex does not compile."""
    cases = {
        r"Preemption in $\mathcal{O}(n\log n)$ Time": r"Preemption in $\mathcal{O}(n\log n)$ Time",
        r"Sparse $x^{2}_{i}$ Codes \& Na\"ive Bounds": r"Sparse $x^{2}_{i}$ Codes {\&} Na{\"\i}ve Bounds",
        r"Costs \$5, or $k$ Tokens": r"Costs {\$}5, or $k$ Tokens",
    }
    for source, title in cases.items():
        entry = bibtex_entry(make_paper(title=source))
        assert f"  title = {{{{{title}}}}},\n" in entry, entry


def test_math_that_cannot_be_copied_safely_falls_back_to_the_rendering():
    paper = make_paper(title=r"Broken $\frac{a}{$ Math", title_display="Broken a/ Math")
    assert "  title = {{Broken a/ Math}},\n" in bibtex_entry(paper)


@pytest.mark.parametrize(
    "title",
    [
        r"Leak $\input{/etc/passwd}$ now",  # a feed's title is untrusted: no TeX but math reaches the entry
        r"Run $\immediate\write18{touch x}$ it",
        r"Stop $\end{document}$ here",
        r"Define $\def\a{b}\a$ it",
        r"Align $a & b$ cells",  # a bare & or # does not compile
        r"Display $$x^2$$ math",  # display math is not copied either
        r"Hat $x^^5cinput^^7b/etc/passwd^^7d$ trick",  # TeX reads ^^5c as \\
        r"Sets $\{x_i$ and more",  # BibTeX counts the escaped brace: the file would break
        r"Greek $α$ letter",  # pdflatex wants \alpha in math
    ],
)
def test_math_with_anything_but_standard_math_is_rendered_not_copied(title):
    entry = bibtex_entry(make_paper(title=title, title_display="shown"))
    assert "  title = {{shown}},\n" in entry


def test_dollars_in_a_blog_title_are_prices_not_math():
    post = make_paper("web:0123456789ab", title="Grants of $5 and $10 million", title_display="Grants of $5 and $10 million")
    assert "  title = {{Grants of {\\$}5 and {\\$}10 million}},\n" in bibtex_entry(post)


def test_braces_and_tildes_are_escaped():
    paper = make_paper(title_display="Sets {x} ~ y^2 \\ z")
    entry = bibtex_entry(paper)
    assert "Sets {\\{}x{\\}} {\\textasciitilde} y{\\textasciicircum}2 {\\textbackslash} z" in entry


def test_doi_and_url_are_written_verbatim():
    """BibLaTeX and the url package read them as they are: `{\\_}` or `\\%`
    would be printed in the DOI and break the link."""
    post = make_paper("web:0123456789ab", title_display="A post", doi="10.99999/abc_def.%7")
    post.abs_url = "https://blog.example.org/b/1?a=1&b=%20x#part_2"
    entry = bibtex_entry(post)
    assert "  doi = {10.99999/abc_def.%7},\n" in entry
    assert "  url = {https://blog.example.org/b/1?a=1&b=%20x#part_2}\n" in entry


@pytest.mark.parametrize(
    "value",
    [
        "10.99999/open{brace",  # unbalanced: the entry would end early or swallow the next
        "10.99999/close}brace",
        "10.99999/\\input{x}",
        "10.99999/^^5cinput",  # TeX reads ^^5c as a backslash
        "10.99999/with space",
    ],
)
def test_a_doi_or_url_that_cannot_be_written_verbatim_is_left_out(value):
    paper = make_paper(title_display="Kept", doi=value)
    paper.abs_url = "https://blog.example.org/" + value
    entry = bibtex_entry(paper)
    assert "doi" not in entry and "url" not in entry
    assert entry.count("{") == entry.count("}") and "title = {{Kept}}" in entry


def test_keys_skip_stopwords_and_stay_unique():
    first = make_paper("2609.00001", title_display="On the Edge of Inference", authors=(("Ada Quill", ()),))
    second = make_paper("2609.00002", title_display="On the Edge of Reason", authors=(("Ada Quill", ()),))
    assert citation_key(first) == "quill2026edge"
    text = bibtex_entries([first, second])
    assert "@misc{quill2026edge," in text and "@misc{quill2026edgea," in text


def test_non_arxiv_paper_has_no_eprint_and_unsafe_links_are_dropped():
    paper = make_paper("web:0123456789ab", title_display="A blog post")
    paper.abs_url = "javascript:alert(1)"
    entry = bibtex_entry(paper)
    assert "eprint" not in entry and "archivePrefix" not in entry and "url" not in entry


@pytest.mark.parametrize(
    ("name", "title", "key"),
    [
        ("O'Brien, Pat", "[bold]Faster[/bold] Sorting of Ropes", "obrien2026faster"),  # Last, First; markup skipped
        ("van der Berg, Jan", "[@click=app.quit]quit[/] Tiling", "vanderberg2026quit"),
        ("Author 0", "Very Small Caches", "author2026very"),  # a key starts with a letter
        ("Ada Quill 3rd", "Edge Cases", "quill2026edge"),
        ("0, Author", "Edge Cases", "arxiv260901234"),  # no family name to start a key with
        ("Zoë Dvořák", "[Re] Reproducing Tiny Models", "dvorak2026reproducing"),
    ],
)
def test_key_family_names_and_title_words(name, title, key):
    assert citation_key(make_paper(title=title, title_display=title, authors=((name, ()),))) == key


@pytest.mark.parametrize(
    ("paper_id", "name", "key"),
    [
        ("2609.01234", "张伟", "arxiv260901234"),
        ("2609.04321", "محمد علي", "arxiv260904321"),
        ("cs/0112017", "김민준", "arxivcs0112017"),
        ("web:0123456789abcdef", "山田太郎", "web0123456789abcdef"),
    ],
)
def test_an_author_with_no_ascii_letters_gives_an_id_key(paper_id, name, key):
    paper = make_paper(paper_id, title="稀疏注意力机制", authors=((name, ()),))
    assert citation_key(paper) == key


def test_a_paper_with_no_author_is_anon():
    assert citation_key(make_paper(title="Edge Cases", authors=())) == "anon2026edge"


def test_suffixed_keys_do_not_take_another_papers_key():
    authors = (("Ada Quill", ()),)
    papers = [
        make_paper("2609.00001", title_display="Edge Cases", authors=authors),
        make_paper("2609.00002", title_display="Edge Effects", authors=authors),
        make_paper("2609.00003", title_display="Edgea: a Made-up Word", authors=authors),
    ]
    text = bibtex_entries(papers)
    keys = [line[len("@misc{") : -1] for line in text.splitlines() if line.startswith("@misc{")]
    assert keys == ["quill2026edge", "quill2026edgea", "quill2026edgeaa"]


@pytest.mark.parametrize(
    ("name", "written", "family"),
    [
        ("Research and Development Team", "{Research and Development Team}", "research"),
        ("Tools AND Methods Working Party", "{Tools AND Methods Working Party}", "tools"),  # BibTeX splits on AND too
        ("The ATLAS Collaboration", "{The ATLAS Collaboration}", "atlas"),
        ("Open Quill Consortium", "{Open Quill Consortium}", "open"),
        ("Lab for Tiny Models Group", "{Lab for Tiny Models Group}", "lab"),
        ("Grünwald Modelling Initiative", "{Gr{\\\"u}nwald Modelling Initiative}", "grunwald"),
        ("Ada Quill", "Ada Quill", "quill"),  # people are left for BibTeX to split into names
        ("Randal Anderson", "Randal Anderson", "anderson"),
        ("Teamo Groupe", "Teamo Groupe", "groupe"),  # the words count only whole
        ("QUILLSAT", "QUILLSAT", "quillsat"),  # one word: BibTeX takes it whole as it is
    ],
)
def test_an_organisation_is_one_braced_author(name, written, family):
    paper = make_paper(title="Edge Cases", authors=((name, ()), ("Ada Quill", ())))
    entry = bibtex_entry(paper)
    assert f"  author = {{{written} and Ada Quill}},\n" in entry
    assert entry.startswith(f"@misc{{{family}2026edge,\n")


def test_authors_past_the_limit_end_in_and_others():
    paper = make_paper(title="Edge Cases", authors=(("Ada Quill", ()), ("Bo Lantern", ())), authors_omitted=9_000)
    assert "  author = {Ada Quill and Bo Lantern and others},\n" in bibtex_entry(paper)
    assert "  author = {Ada Quill and Bo Lantern},\n" in bibtex_entry(make_paper(title="Edge Cases", authors=(("Ada Quill", ()), ("Bo Lantern", ()))))


def test_straight_double_quotes_open_and_close():
    """Both straight quotes of `"Attention"` became closing quotes ({''})."""
    entry = bibtex_entry(make_paper("2611.00001", title='On "Attention" and ("Router") choices'))
    assert (
        "title = {{On {\\textquotedblleft}Attention{\\textquotedblright} and "
        "({\\textquotedblleft}Router{\\textquotedblright}) choices}},"
    ) in entry


@pytest.mark.parametrize(
    ("title", "escaped"),
    [
        ('"Learning $k$" is hard', "{\\textquotedblleft}Learning $k${\\textquotedblright} is hard"),
        ('The "$O(n)$" bound', "The {\\textquotedblleft}$O(n)${\\textquotedblright} bound"),
    ],
)
def test_a_straight_quote_right_after_math_closes(title, escaped):
    """The text between math spans was escaped piece by piece, and a quote
    starting a piece was taken for an opening one."""
    assert f"title = {{{{{escaped}}}}}," in bibtex_entry(make_paper("2611.00001", title=title))


@pytest.mark.parametrize(
    ("paper_id", "published", "key", "year", "month"),
    [
        ("2612.40001", "2027-01-04T05:00:00", "quill2026year", "2026", "dec"),  # announced after New Year
        ("2611.30001", "2026-12-01T05:00:00", "quill2026year", "2026", "nov"),  # announced the next month
        ("hep-th/9901001", "1999-02-02T00:00:00", "quill1999year", "1999", "jan"),  # old-style ids have YYMM too
    ],
)
def test_an_arxiv_papers_year_and_month_are_its_ids(paper_id, published, key, year, month):
    """A category feed dates a paper by its announcement: a December paper
    announced on 4 January was cited as 2027. The id's YYMM is the month its
    first version was submitted."""
    paper = make_paper(paper_id, title="Year Boundary Paper", published=published)
    entry = bibtex_entry(paper)
    assert entry.startswith(f"@misc{{{key},\n")
    assert f"  year = {{{year}}},\n  month = {month},\n" in entry


def test_a_web_item_keeps_its_own_date():
    post = make_paper("web:0123456789abcdef", title="Year Boundary Post", published="2027-01-04T05:00:00")
    entry = bibtex_entry(post)
    assert entry.startswith("@misc{quill2027year,\n") and "  year = {2027},\n  month = jan,\n" in entry


@pytest.mark.parametrize(
    ("name", "written", "family"),
    [
        ("Ana Núñez Jr.", "N{\\'u}{\\~n}ez, Jr., Ana", "nunez"),  # as the arXiv RSS gives it
        ("Carlos Méndez, Jr.", "M{\\'e}ndez, Jr., Carlos", "mendez"),
        ("Ana María Núñez III", "N{\\'u}{\\~n}ez, III, Ana Mar{\\'\\i}a", "nunez"),
        ("Núñez Jr., Ana", "N{\\'u}{\\~n}ez, Jr., Ana", "nunez"),
        ("Núñez, Jr., Ana", "N{\\'u}{\\~n}ez, Jr., Ana", "nunez"),  # BibTeX's own form stays
        ("Jan van der Berg Sr", "van der Berg, Sr, Jan", "vanderberg"),
        ("Hyejin Van der Berg", "Van der Berg, Hyejin", "vanderberg"),
        ("Juan De La Cruz", "De La Cruz, Juan", "delacruz"),
        ("Smith Jr.", "Smith Jr.", "smith"),  # no given name to put after it
        ("Jan van der Berg", "Jan van der Berg", "berg"),  # BibTeX splits lower-case particles itself
        ("Thanh Van Nguyen", "Thanh Van Nguyen", "nguyen"),  # a lone Van is as often a given name
        ("Kenji Ii", "Kenji Ii", "ii"),  # a family name, not the suffix II
    ],
)
def test_suffixes_and_capitalised_particles_are_written_as_bibtex_splits_them(name, written, family):
    """`Ana Núñez Jr.` was written as it came: BibTeX took `Jr.` for the
    family name (printed "A. N. Jr.", key `jr2026…`), and `Hyejin Van der
    Berg` had `Van` as a middle name."""
    entry = bibtex_entry(make_paper(title="Edge Cases", authors=((name, ()), ("Ada Quill", ()))))
    assert f"  author = {{{written} and Ada Quill}},\n" in entry
    assert entry.startswith(f"@misc{{{family}2026edge,\n")


def test_a_paper_known_only_from_a_post_is_cited_with_what_its_id_tells():
    """A blog post linking arXiv:2612.00077 was cited with the post's title
    and `Anonymous`, as if they were the paper's."""
    post = make_paper(
        "2612.00077", title="A post about a brand new paper", authors=(), categories=("Lab news",),
        published="2027-01-03T09:00:00", secondhand=True, sources=("https://blog.example.org/feed.xml",),
    )
    post.abs_url = "https://blog.example.org/2027/01/new-paper"
    assert bibtex_entry(post) == (
        "@misc{arxiv261200077,\n"
        "  year = {2026},\n"
        "  month = dec,\n"
        "  eprint = {2612.00077},\n"
        "  archivePrefix = {arXiv},\n"
        "  url = {https://arxiv.org/abs/2612.00077}\n"
        "}\n"
    )


def test_a_key_is_short_whatever_the_title_and_name():
    """A web feed's title of one 3,000-letter word gave a key of a thousand characters."""
    paper = make_paper("web:0f1e2d", title="w" * 3000, authors=(("Ada " + "q" * 500, ()),))
    key = citation_key(paper)
    assert key == "q" * KEY_PART + "2026" + "w" * KEY_PART
    assert citation_key(make_paper("2609.01234", title="Heterogeneous Serving", authors=(("Ada Quill", ()),))) == "quill2026heterogeneous"


@pytest.mark.parametrize(
    ("text", "escaped"),
    [
        ("\u017a\u0301", "{\\'z}"),  # ź with a second acute: no mark left hanging after the brace
        ("e\u0301\u0301\u0301x", "{\\'e}x"),
        ("Nguy\u1ec5n", "Nguy\u1ec5n"),  # a letter that composes whole keeps both its marks
        ("Nguye\u0302\u0303n", "Nguy\u1ec5n"),  # the same, decomposed
        ("Ångström", '{\\r{A}}ngstr{\\"o}m'),
    ],
)
def test_stacked_combining_marks_are_written_once(text, escaped):
    assert latex_escape(text) == escaped


@pytest.mark.parametrize(
    "text",
    [
        "\u0645\u064f\u062d\u064e\u0645\u0651\u064e\u062f",  # Arabic, a shadda and a fatha on one letter
        "\u05e9\u05c1\u05b8\u05dc\u05d5\u05b9\u05dd",  # Hebrew, a shin dot and a vowel
        "\u0915\u093c\u094d\u0937",  # Devanagari, a nukta and a virama
        "\u0e15\u0e38\u0e48\u0e21",  # Thai, a vowel and a tone mark
    ],
)
def test_the_marks_of_other_scripts_are_all_kept(text):
    """They are no accents the encoder writes: it keeps the text as it is."""
    assert latex_escape(text) == unicodedata.normalize("NFC", text)
