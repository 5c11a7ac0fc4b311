"""An invented, labelled corpus for measuring discovery: papers in themes, and questions with known answers.

    python bench/discovery_corpus.py OUT [--seed 1] [--now 2026-12-01] [--per-theme 92]

writes OUT/disc-NNN.xml (arXiv API Atom, one file per primary category, in
bench/feeds.py's layout), OUT/labels.json (each paper's theme, focus,
technique and setting; each question with its answer paper) and
OUT/manifest.json. The same arguments write the same bytes.

Papers are composed from the themes of bench/discovery_themes.py: a paper is
about one focus of its theme, using one technique, in one setting, worded with
the concepts' *paper* wordings, among sentences shared by all themes. Each
theme has one question per focus, written with the concepts' *ask* wordings
(synonyms, other word forms) about a paper whose (focus, technique, setting)
no other paper has; no question shares three words in a row with its answer.
Relevance for nDCG: the answer paper 2, the other papers of its theme 1.

Authors come from per-theme pools of invented names; some names are in two
themes' pools. Ids are arXiv-style and, with `--id-start` / `--id-seed`,
continue bench/feeds.py's numbering of a generated set, so the corpus and such
a set can share one cache without clashing ids.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import re
import sys
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from xml.sax.saxutils import escape

if __package__ in (None, ""):  # run as a script: make `bench` importable
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from bench import feeds
from bench.discovery_themes import THEMES, Concept, Theme

GIVEN = (
    "Amara", "Tomasz", "Ingrid", "Kwame", "Lucia", "Haruto", "Priya", "Mateo", "Sofia", "Dmitri",
    "Aisha", "Jonas", "Mei", "Rafael", "Elif", "Oskar", "Nadia", "Chidi", "Hannah", "Ravi",
    "Yuki", "Beatriz", "Lars", "Fatima", "Emeka", "Clara", "Arjun", "Zofia", "Kenji", "Leila",
    "Marcus", "Ananya", "Pieter", "Sana", "Diego", "Freya", "Tariq", "Min-jun", "Olga", "Joaquín",
    "Noor", "Henrik", "Valentina", "Samuel", "Ayumi", "Tobias", "Imani", "Luca", "Shreya", "Mikko",
)
FAMILY = (
    "Okafor", "Lindqvist", "Haddad", "Nakamura", "Ferreira", "Kowalczyk", "Mensah", "Varga", "Iyer", "Castellano",
    "Bergström", "Adeyemi", "Chen", "Rossi", "Petrov", "Yilmaz", "Moreau", "Sato", "Novak", "Banerjee",
    "Oliveira", "Schreiber", "Kim", "Duarte", "Halvorsen", "Abebe", "Tanaka", "Gallagher", "Nwosu", "Horvat",
    "Delacroix", "Kapoor", "Eriksen", "Zhou", "Marchetti", "Osei", "Vasquez", "Lehmann", "Park", "Rahman",
    "Sørensen", "Kovács", "Mwangi", "Dubois", "Takahashi", "Ortega", "Virtanen", "Singh", "Brennan", "Nieminen",
    "Alvarez", "Kaur", "Wójcik", "Fujita", "Grünewald", "Achebe", "Lombardi", "Ivanova", "Quispe", "Haas",
)
SYSTEM_HEADS = ("Quor", "Tal", "Vex", "Mir", "Sol", "Kin", "Bram", "Lyr", "Cor", "Fen", "Hal", "Nov", "Pel", "Ros", "Tor", "Ves", "Zin", "Ard", "Bel", "Dun", "Grai", "Oru")
SYSTEM_TAILS = ("a", "ix", "on", "ar", "is", "el", "us", "en", "or", "ett", "ine", "o", "Net", "Flow")

WEAKNESSES = (
    "scale poorly as the problem grows", "ignore heterogeneity", "need extensive manual tuning",
    "break down under realistic conditions", "trade accuracy for speed", "rely on strong assumptions",
    "are evaluated only on small benchmarks", "leave much of the available performance unused",
)
BASELINES = ("the strongest baseline", "prior work", "a carefully tuned baseline", "the state of the art", "standard heuristics")
PROPERTIES = (
    "needs no manual tuning", "adds little overhead", "is simple to implement", "comes with a convergence guarantee",
    "scales to much larger instances", "stays robust when its assumptions are violated", "is modular and easy to extend",
)
GENERIC = (
    "We release code and data to support future work.",
    "Our analysis also shows when the approach fails.",
    "Ablation studies show that each component contributes to the gain.",
    "We further provide a theoretical analysis under mild assumptions.",
    "Experiments across several benchmarks confirm these findings.",
    "The results suggest a simple and practical recipe.",
    "We discuss limitations and directions for future research.",
    "Our framework is efficient, scalable and easy to deploy.",
    "These findings challenge a common assumption in the literature.",
    "A user study and a large-scale evaluation support the design.",
)
TITLE_SHAPES = (
    "{system}: {Technique} for {Focus} {setting}",
    "{Focus} {setting} with {Technique}",
    "Towards Better {Focus} via {Technique}",
    "{Technique} Meets {Focus}",
    "Rethinking {Focus} {setting}",
    "{system}: Scalable {Focus} Using {Technique}",
    "What Does {Technique} Bring to {Focus}?",
    "{Focus} {setting}: A {Technique} Approach",
)
QUESTION_SHAPES = (
    "{focus} {setting} using {technique}",
    "how can {technique} help with {focus} {setting}?",
    "{technique} applied to {focus} {setting}",
    "looking for work on {focus} {setting} based on {technique}",
    "is there research combining {technique} and {focus} {setting}?",
    "approaches to {focus} {setting} that rely on {technique}",
)
THEME_PAPERS = 92
# Neighbouring fields: a paper borrows its setting, technique or opening from
# its theme's neighbour now and then, as interdisciplinary papers do.
NEIGHBOURS = {
    "gpu_sched": "llm_serving", "llm_serving": "sparse_attn", "sparse_attn": "code_llm", "federated": "privacy",
    "protein": "molgen", "gnn": "recsys", "asr": "edge_offload", "edge_offload": "gpu_sched", "qec": "gw",
    "weather": "ts_anomaly", "grasping": "offline_rl", "privacy": "causal", "compilers": "gpu_sched",
    "recsys": "offline_rl", "med_seg": "single_cell", "gw": "weather", "molgen": "single_cell", "lsm": "ts_anomaly",
    "causal": "recsys", "nerf": "grasping", "offline_rl": "grasping", "ts_anomaly": "lsm", "code_llm": "compilers",
    "single_cell": "protein",
}
BORROW_SETTING = 0.3
BORROW_TECHNIQUE = 0.15
BORROW_OPENING = 0.15
QUESTIONS_PER_THEME = 5  # one per focus
AUTHOR_POOL = 26
SHARED_AUTHORS = 3  # of a theme's pool, also in the next theme's
_SMALL = {"a", "an", "and", "as", "at", "by", "for", "from", "in", "into", "of", "on", "or", "the", "to", "with", "without"}
_WORD = re.compile(r"[^\W_]+", re.UNICODE)


@dataclass(frozen=True, slots=True)
class CorpusPaper:
    paper: feeds.SyntheticPaper
    theme: str
    focus: int
    technique: int
    setting: int
    technique_from: str  # the theme whose technique list `technique` indexes
    setting_from: str

    @property
    def id(self) -> str:
        return self.paper.arxiv_id


@dataclass(frozen=True, slots=True)
class Question:
    text: str
    answer: str  # the paper it was written about
    theme: str


@dataclass(frozen=True, slots=True)
class Corpus:
    papers: tuple[CorpusPaper, ...]
    questions: tuple[Question, ...]
    seed: int
    now: datetime

    def theme_of(self) -> dict[str, str]:
        return {p.id: p.theme for p in self.papers}

    def relevance(self, question: Question) -> dict[str, int]:
        """Graded relevance: the answer 2, the other papers of its theme 1."""
        grades = {p.id: 1 for p in self.papers if p.theme == question.theme}
        grades[question.answer] = 2
        return grades


def title_case(phrase: str, *, inner: bool = False) -> str:
    """Headline capitals; small words stay small except first (never first when `inner`)."""
    words = phrase.split(" ")
    out = []
    for index, word in enumerate(words):
        if (index or inner) and word in _SMALL:
            out.append(word)
        elif word[:1].islower():
            out.append(word[:1].upper() + word[1:])
        else:
            out.append(word)
    return " ".join(out)


def words(text: str) -> list[str]:
    return [w.lower() for w in _WORD.findall(text)]


def trigrams(text: str) -> set[tuple[str, str, str]]:
    w = words(text)
    return {tuple(w[i : i + 3]) for i in range(len(w) - 2)}


def _sentence(text: str) -> str:
    return text[:1].upper() + text[1:]


class _Writer:
    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def system(self) -> str:
        return self.rng.choice(SYSTEM_HEADS) + self.rng.choice(SYSTEM_TAILS)

    def title(self, system: str, focus: str, technique: str, setting: str) -> str:
        shape = self.rng.choice(TITLE_SHAPES)
        setting_words = title_case(setting, inner=True) if self.rng.random() < 0.6 else ""
        text = shape.format(system=system, Technique=title_case(technique), Focus=title_case(focus), setting=setting_words)
        return " ".join(text.split()).replace(" :", ":").replace(" ?", "?")

    def abstract(self, theme: Theme, system: str, focus: Concept, technique: Concept, setting: Concept, opening: Theme) -> str:
        r = self.rng
        f1, f2 = r.sample(focus.paper, 2) if len(focus.paper) > 1 else (focus.paper[0], focus.paper[0])
        t1 = r.choice(technique.paper)
        s1 = r.choice(setting.paper)
        problem = r.choice((
            f"We study {f1} {s1}.",
            f"This paper revisits {f1} {s1}, where existing methods {r.choice(WEAKNESSES)}.",
            f"We address {f1} {s1}; current approaches {r.choice(WEAKNESSES)}.",
            f"Existing work on {f1} tends to {r.choice(WEAKNESSES).replace('are ', 'be ')}, especially {s1}.",
        ))
        method = r.choice((
            f"We propose {system}, which uses {t1} to {r.choice(theme.goals)}.",
            f"Our method, {system}, relies on {t1} to {r.choice(theme.goals)}.",
            f"{system} combines {t1} with a lightweight controller to {r.choice(theme.goals)}.",
        ))
        contrast = f"Unlike prior approaches to {f2}, {system} {r.choice(PROPERTIES)}."
        result = (
            f"On {r.choice(theme.datasets)}, {system} improves {r.choice(theme.metrics)} by "
            f"{r.uniform(3, 45):.1f}% over {r.choice(BASELINES)}."
        )
        sentences = [r.choice(opening.context), problem, method]
        if r.random() < 0.7:
            sentences.append(contrast)
        sentences.append(result)
        sentences += r.sample(GENERIC, r.randint(1, 2))
        return " ".join(sentences)


def _author_pools(rng: random.Random) -> list[list[str]]:
    names = [f"{g} {f}" for g in GIVEN for f in FAMILY]
    rng.shuffle(names)
    own = AUTHOR_POOL - SHARED_AUTHORS
    pools = [names[i * own : (i + 1) * own] for i in range(len(THEMES))]
    for index, pool in enumerate(pools):
        pool += pools[(index + 1) % len(pools)][:SHARED_AUTHORS]
    return pools


def _combos(theme: Theme) -> list[tuple[int, int, int]]:
    return [(f, t, s) for f in range(len(theme.focuses)) for t in range(len(theme.techniques)) for s in range(len(theme.settings))]


def build_corpus(
    seed: int = 1, now: datetime | None = None, *, per_theme: int = THEME_PAPERS, weeks: int = 2,
    id_start: int = 0, id_seed: int = 0,
) -> Corpus:
    """The corpus for these arguments; the same arguments give the same corpus."""
    now = now or datetime(2026, 12, 1, tzinfo=UTC)
    by_key = {theme.key: theme for theme in THEMES}
    rng = random.Random(f"feedtui-discovery/{seed}")
    writer = _Writer(rng)
    pools = _author_pools(rng)
    span = weeks * 7 * 86_400
    papers: list[CorpusPaper] = []
    targets: list[tuple[Theme, CorpusPaper]] = []
    ordinal = id_start
    for theme_index, theme in enumerate(THEMES):
        combos = _combos(theme)
        rng.shuffle(combos)
        # One target per focus, each with a combination no other paper has.
        chosen: list[tuple[int, int, int]] = []
        for combo in combos:
            if combo[0] not in {f for f, _, _ in chosen}:
                chosen.append(combo)
        rest = [combo for combo in combos if combo not in chosen]
        plan = [(combo, True) for combo in chosen]
        plan += [(rest[i % len(rest)] if i < len(rest) else rng.choice(rest), False) for i in range(per_theme - len(chosen))]
        rng.shuffle(plan)
        neighbour = by_key[NEIGHBOURS[theme.key]]
        for (f, t, s), is_target in plan:
            # Targets stay within their theme: their combination is theirs alone.
            setting_from = neighbour if not is_target and rng.random() < BORROW_SETTING else theme
            technique_from = neighbour if not is_target and rng.random() < BORROW_TECHNIQUE else theme
            opening = neighbour if not is_target and rng.random() < BORROW_OPENING else theme
            s = s if setting_from is theme else rng.randrange(len(neighbour.settings))
            t = t if technique_from is theme else rng.randrange(len(neighbour.techniques))
            focus, technique, setting = theme.focuses[f], technique_from.techniques[t], setting_from.settings[s]
            system = writer.system()
            published = now - timedelta(seconds=rng.randrange(3_600, span))
            primary = theme.categories[0] if rng.random() < 0.7 else theme.categories[1]
            others = rng.sample(theme.categories, rng.randint(0, len(theme.categories) - 1))
            pool = pools[theme_index]
            creators = tuple(
                feeds.Creator(name, ()) for name in feeds._unique(rng.choice(pool) for _ in range(rng.randint(1, 6)))
            )
            paper = feeds.SyntheticPaper(
                arxiv_id=f"{published:%y%m}.{feeds.arxiv_number(ordinal, id_seed):05d}",
                version=1, published=published, updated=published,
                title=writer.title(system, rng.choice(focus.paper), rng.choice(technique.paper), rng.choice(setting.paper)),
                abstract=writer.abstract(theme, system, focus, technique, setting, opening),
                creators=creators, primary=primary, categories=tuple(feeds._unique([primary, *others])),
                comment="", journal_ref="", doi="", announce_type="new",
            )
            ordinal += 1
            item = CorpusPaper(paper, theme.key, f, t, s, technique_from.key, setting_from.key)
            papers.append(item)
            if is_target:
                targets.append((theme, item))
    questions = tuple(_question(rng, theme, item) for theme, item in targets)
    return Corpus(tuple(papers), questions, seed, now)


def _question(rng: random.Random, theme: Theme, item: CorpusPaper) -> Question:
    """A question about `item` in the ask wordings, sharing no three words in a row with it."""
    focus, technique, setting = theme.focuses[item.focus], theme.techniques[item.technique], theme.settings[item.setting]
    seen = trigrams(item.paper.title + " . " + item.paper.abstract)
    options = [
        (shape, f, t, s)
        for shape in QUESTION_SHAPES for f in focus.ask for t in technique.ask for s in setting.ask
    ]
    rng.shuffle(options)
    for shape, f, t, s in options:
        text = shape.format(focus=f, technique=t, setting=s)
        if not trigrams(text) & seen:
            return Question(_sentence(text), item.id, theme.key)
    raise ValueError(f"no question about {item.id} avoids its wording")


# --- files ------------------------------------------------------------------

def atom_document(category: str, papers: list[feeds.SyntheticPaper], now: datetime) -> str:
    """An arXiv API answer holding `papers`, newest first, as bench/feeds.py writes them."""
    papers = sorted(papers, key=lambda p: (p.published, p.arxiv_id), reverse=True)
    query = f"search_query=cat:{category}&id_list=&start=0&max_results={len(papers)}"
    token = hashlib.sha1(query.encode()).hexdigest()[:27]
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<feed xmlns="{feeds.ATOM_NS}" xmlns:opensearch="{feeds.OPENSEARCH_NS}" xmlns:arxiv="{feeds.ARXIV_NS}">',
        f'  <title type="html">ArXiv Query: {escape(query)}</title>',
        f"  <id>http://arxiv.org/api/{token}</id>",
        f"  <updated>{now.astimezone(feeds.EASTERN):%Y-%m-%dT00:00:00-05:00}</updated>",
        f"  <opensearch:totalResults>{len(papers)}</opensearch:totalResults>",
        "  <opensearch:startIndex>0</opensearch:startIndex>",
        f"  <opensearch:itemsPerPage>{len(papers)}</opensearch:itemsPerPage>",
    ]
    out += [feeds._api_entry(paper) for paper in papers]
    out.append("</feed>")
    return "\n".join(out) + "\n"


def feed_groups(corpus: Corpus) -> dict[str, list[feeds.SyntheticPaper]]:
    """The corpus's papers by primary category, in category order."""
    groups: dict[str, list[feeds.SyntheticPaper]] = {}
    for item in corpus.papers:
        groups.setdefault(item.paper.primary, []).append(item.paper)
    return dict(sorted(groups.items()))


def labels(corpus: Corpus) -> dict:
    return {
        "generator": "feedtui bench/discovery_corpus.py",
        "seed": corpus.seed,
        "now": corpus.now.isoformat(),
        "themes": {theme.key: theme.label for theme in THEMES},
        "papers": {
            p.id: {
                "theme": p.theme, "focus": p.focus, "technique": [p.technique_from, p.technique],
                "setting": [p.setting_from, p.setting],
            }
            for p in corpus.papers
        },
        "questions": [{"question": q.text, "answer": q.answer, "theme": q.theme} for q in corpus.questions],
    }


def write_corpus(corpus: Corpus, out: Path) -> dict:
    """Write the feeds, labels.json and manifest.json; returns the manifest."""
    out.mkdir(parents=True, exist_ok=True)
    files = []
    for index, (category, papers) in enumerate(feed_groups(corpus).items()):
        body = atom_document(category, papers, corpus.now).encode("utf-8")
        name = f"disc-{index:03d}.xml"
        (out / name).write_bytes(body)
        files.append({"file": name, "category": category, "entries": len(papers), "sha256": hashlib.sha256(body).hexdigest()})
    (out / "labels.json").write_text(json.dumps(labels(corpus), indent=1, ensure_ascii=False) + "\n", encoding="utf-8")
    manifest = {
        "generator": "feedtui bench/discovery_corpus.py", "seed": corpus.seed, "now": corpus.now.isoformat(),
        "papers": len(corpus.papers), "questions": len(corpus.questions), "themes": len(THEMES), "files": files,
    }
    (out / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return manifest


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="discovery_corpus.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("out", type=Path)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--now", type=feeds.parse_now, default=datetime(2026, 12, 1, tzinfo=UTC), help="papers are dated in the weeks before this (UTC)")
    parser.add_argument("--weeks", type=int, default=2)
    parser.add_argument("--per-theme", type=int, default=THEME_PAPERS)
    parser.add_argument("--id-start", type=int, default=0, help="first ordinal of bench/feeds.py's id numbering")
    parser.add_argument("--id-seed", type=int, default=0, help="the feeds.py seed whose numbering the ids continue")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    if args.per_theme < QUESTIONS_PER_THEME + 1:
        print(f"discovery_corpus.py: --per-theme must be at least {QUESTIONS_PER_THEME + 1}", file=sys.stderr)
        return 2
    corpus = build_corpus(args.seed, args.now, per_theme=args.per_theme, weeks=args.weeks, id_start=args.id_start, id_seed=args.id_seed)
    manifest = write_corpus(corpus, args.out)
    print(
        f"wrote {manifest['papers']:,} papers in {manifest['themes']} themes, {manifest['questions']} questions, "
        f"{len(manifest['files'])} feeds to {args.out}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
