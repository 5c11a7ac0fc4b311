"""Synthetic arXiv feeds for benchmarks and tests, byte-identical per arguments.

    python bench/feeds.py OUT --feeds 50 --entries 100 --seed 1 --now 2026-11-29
    python bench/feeds.py OUT --feeds 3 --entries 20 --seed 7 --style rss

writes OUT/feed-000.xml ... and OUT/manifest.json (the arguments, and per
file its category, entry count, size and SHA-256).

`--style api` (the default) is the arXiv API's Atom layout: opensearch totals,
per-author `arxiv:affiliation`, `arxiv:primary_category`, `category` terms,
sometimes `arxiv:comment` / `arxiv:journal_ref` / `arxiv:doi`, abstract and
PDF links, and abstracts of about 1,200 characters hard-wrapped at 80 columns
like the API sends them. `--style rss` is an arXiv category feed
(rss.arxiv.org): the id, version and announce type in the description, an
`arxiv:announce_type` element and one comma-separated `dc:creator`.

Every word comes from the invented vocabularies below. Ids are arXiv-style
YYMM.NNNNN (the month is the paper's first submission) and unique across all
feeds of a set, so a set of F x E entries holds exactly F x E papers. Each
feed has its own `random.Random` seeded from (seed, feed index), so one feed
can be regenerated alone and the output never depends on hash ordering.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import sys
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, timezone
from email.utils import format_datetime
from pathlib import Path
from xml.sax.saxutils import escape

ATOM_NS = "http://www.w3.org/2005/Atom"
ARXIV_NS = "http://arxiv.org/schemas/atom"
OPENSEARCH_NS = "http://a9.com/-/spec/opensearch/1.1/"
DC_NS = "http://purl.org/dc/elements/1.1/"
# arXiv announces at midnight US Eastern; the feeds carry that offset.
EASTERN = timezone(timedelta(hours=-5))
# arXiv numbers have five digits; ids are a permutation of 1..ID_SPACE.
ID_SPACE = 99_999
ID_STRIDE = 7_919  # prime, coprime with ID_SPACE, so k -> k*stride mod space is a bijection
STYLES = ("api", "rss")

CATEGORIES = (
    "cs.DC", "cs.LG", "cs.CL", "cs.CV", "cs.AR", "cs.PF", "cs.NI", "cs.OS",
    "cs.RO", "cs.CR", "cs.DB", "cs.IR", "cs.SE", "cs.PL", "cs.AI", "stat.ML",
    "math.OC", "math.NA", "eess.SP", "eess.SY", "q-bio.QM", "physics.comp-ph",
    "quant-ph", "astro-ph.IM", "cond-mat.dis-nn", "econ.EM",
)

# --- invented vocabularies ------------------------------------------------

SYSTEMS = (
    "Quillon", "Marrowbench", "TESSERA", "Vantle", "Orrin", "Kestrelnet", "Brisa",
    "Lumenfold", "Pallas-R", "Sorrel", "Hexwick", "Tarn", "Gloam", "Cindra",
    "Ostrakon", "Vell", "Nimbra", "Fathom-2", "Corvid", "Halyard", "Ember-X", "Skein",
)
QUALITIES = (
    "scalable", "asynchronous", "energy-aware", "provably stable", "lightweight",
    "heterogeneous", "memory-bounded", "communication-efficient", "calibrated",
    "robust", "low-rank", "streaming", "decentralised", "hardware-conscious",
    "interpretable", "causal", "equivariant", "adaptive", "sparse", "elastic",
)
METHODS = (
    "sparse attention", "expert router", "graph sampler", "diffusion prior",
    "state-space model", "tensor sketch", "kernel fusion pass", "pipeline scheduler",
    "quantised adapter", "spectral encoder", "contrastive objective", "retrieval index",
    "cache-aware planner", "neural operator", "rounding scheme", "federated optimiser",
    "token pruner", "ray-marching renderer", "symbolic verifier", "message-passing network",
    "checkpointing policy", "gradient compressor", "load balancer", "speculative decoder",
)
TASKS = (
    "edge inference", "protein docking", "climate downscaling", "code repair",
    "speech enhancement", "traffic forecasting", "particle tracking", "legal retrieval",
    "molecule generation", "visual odometry", "query optimisation", "seismic inversion",
    "dialogue grounding", "power-grid control", "satellite imagery", "tabular reasoning",
    "robot grasping", "malware triage", "weather nowcasting", "genome assembly",
)
HARDWARE = ("GPUs", "CPU sockets", "edge devices", "FPGA boards", "accelerator tiles", "storage nodes", "phones", "racks")
UNITS = ("tokens", "nodes", "frames", "queries", "layers", "clients", "samples", "edges")
QUANTITIES = ("variance", "curvature", "staleness", "skew", "entropy", "latency", "contention", "drift")
COMPONENTS = ("warm-start heuristic", "two-level cache", "bucketed all-reduce", "learned prior", "lookahead buffer", "residual gate", "overlap schedule")
DATASETS = ("Fenwick-12", "OrrisQA", "TidalSet", "Kiln-3D", "MarlSpeech", "Gorse-Code", "Pennant", "Stratus-40", "BrackenGraph", "Loam-Tab")
VERBS = ("outperforms", "matches", "improves on", "halves the error of", "generalises beyond", "scales past", "undercuts")
GERUNDS = ("sharding", "caching", "reordering", "pruning", "batching", "pipelining", "replicating", "coarsening")
ADVERBS = ("surprisingly", "strictly", "only mildly", "almost entirely", "deliberately")
ASYMPTOTICS = (
    r"$O(n^2)$", r"$O(n \log n)$", r"$\mathcal{O}(\sqrt{T})$", r"$O(k^3 d)$",
    r"$\Theta(n/p)$", r"$O(n^{1.5})$", r"$\Omega(\log n)$", r"$O(d^2 + n)$",
)
CONDITIONS = (
    r"$\epsilon \to 0$", r"$\alpha \leq 1/2$", r"$k \ll n$", r"$\lambda > 0$",
    r"$\sigma^2$ is bounded", r"$x \in \mathbb{R}^d$", r"$\|w\|_2 \le B$", r"$p \geq 3$",
)

GIVEN_HEADS = ("Al", "Bre", "Cas", "Dor", "El", "Fen", "Gil", "Hal", "Is", "Jor", "Ka", "Lio", "Mar", "Ne", "Or", "Pe", "Ro", "Sa", "Te", "Ul", "Va", "Wen", "Yi", "Zo", "Ás", "Ør")
GIVEN_TAILS = ("ra", "mund", "ine", "ko", "ssa", "vin", "dric", "na", "los", "ja", "rin", "bel", "to", "lé", "wyn", "ek")
FAMILY_HEADS = ("Var", "Tolv", "Kesh", "Brann", "Mirel", "Ost", "Quen", "Drav", "Lind", "Sorv", "Hask", "Pell", "Ruv", "Zhal", "Ny", "Okon", "Wyr", "Ćar", "Lø")
FAMILY_TAILS = ("ik", "holm", "ari", "escu", "owski", "berg", "ani", "ez", "sson", "ová", "ley", "ić", "oglu", "ström", "elli", "ama", "uru")
AFFILIATION_KINDS = ("Institute for", "Department of", "Laboratory of", "School of", "Centre for", "Research Group on")
AFFILIATION_FIELDS = (
    "Distributed Systems", "Computational Physics", "Applied Statistics", "Machine Perception",
    "Networked Computing", "Quantum Information", "Biosignal Analysis", "Data Engineering",
    "Robotics and Control", "Numerical Methods",
)
PLACES = (
    "Varnholm", "Osterby", "Quillmouth", "Saint Aubrel", "Kettering Vale", "Drummarra",
    "Lysaker Heights", "Pontevrac", "Halvard Bay", "Nuvarre", "Elstow", "Tirmaghan",
    "Vell-sur-Orne", "Marisdal", "Coldharbour Fen", "Brisk Harbour",
)
ORGANISATIONS = ("University", "Polytechnic", "Institute of Technology", "Research Centre", "Labs")
VENUES = ("SysLearn", "EuroArch", "ICOMP", "the Vertex Symposium", "NeurAlps", "DataWorks Forum")
JOURNALS = ("J. Synth. Comput.", "Trans. Parallel Fiction", "Ann. Invented Phys.", "Proc. Imag. Soc. A")


@dataclass(frozen=True, slots=True)
class FeedSetSpec:
    feeds: int
    entries: int
    seed: int
    now: datetime
    weeks: int = 16
    style: str = "api"

    def __post_init__(self) -> None:
        if self.feeds < 1 or self.entries < 1:
            raise ValueError("--feeds and --entries must be at least 1")
        if self.feeds * self.entries > ID_SPACE:
            raise ValueError(f"at most {ID_SPACE:,} entries in one set (arXiv numbers have five digits)")
        if self.weeks < 1:
            raise ValueError("--weeks must be at least 1")
        if self.style not in STYLES:
            raise ValueError(f"--style must be one of {', '.join(STYLES)}")

    def feed_category(self, index: int) -> str:
        return CATEGORIES[index % len(CATEGORIES)]

    def to_json(self) -> dict:
        return {
            "feeds": self.feeds, "entries": self.entries, "seed": self.seed,
            "now": self.now.isoformat(), "weeks": self.weeks, "style": self.style,
        }


@dataclass(frozen=True, slots=True)
class Creator:
    name: str
    affiliations: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class SyntheticPaper:
    arxiv_id: str
    version: int
    published: datetime
    updated: datetime
    title: str
    abstract: str  # one paragraph, unwrapped
    creators: tuple[Creator, ...]
    primary: str
    categories: tuple[str, ...]  # primary first
    comment: str
    journal_ref: str
    doi: str
    announce_type: str  # for the RSS style: new, cross, replace, replace-cross

    @property
    def versioned_id(self) -> str:
        return f"{self.arxiv_id}v{self.version}"


class PaperWriter:
    """Makes one invented paper at a time from a feed's own random stream."""

    def __init__(self, rng: random.Random) -> None:
        self.rng = rng

    def pick(self, options: tuple[str, ...]) -> str:
        return self.rng.choice(options)

    def speedup(self) -> str:
        return f"${self.rng.uniform(1.2, 40):.1f}\\times$"

    def percent(self) -> str:
        return f"{self.rng.uniform(0.5, 60):.1f}\\%"

    def title(self, system: str) -> str:
        r = self.pick
        quality, method, task = r(QUALITIES), r(METHODS), r(TASKS)
        shapes = (
            f"{system}: {_title_case(quality)} {_title_case(method)}s for {_title_case(task)}",
            f"{_title_case(quality)} {_title_case(method)}s for {_title_case(task)} at Scale",
            f"Towards {_title_case(quality)} {_title_case(task)} with {_title_case(method)}s",
            f"On the {_title_case(r(QUANTITIES))} of {_title_case(quality)} {_title_case(method)}s",
            f"When Does a {_title_case(method)} Help {_title_case(task)}?",
            f"{r(ASYMPTOTICS)}-Time {_title_case(method)}s for {_title_case(task)}",
            f"{system}: {_title_case(task)} in {self.speedup()} Less Time",
        )
        return self.rng.choice(shapes)

    def abstract(self, system: str, target_chars: int) -> str:
        """Sentences in a shuffled order, none twice until all were used."""
        sentences = [self.opening(system)]
        order: list = []
        while sum(len(s) + 1 for s in sentences) < target_chars:
            if not order:
                order = list(self.BODY)
                self.rng.shuffle(order)
            sentences.append(order.pop()(self, system))
        sentences.append(self.closing(system))
        return " ".join(sentences)

    def opening(self, system: str) -> str:
        r = self.pick
        shape = self.rng.randrange(3)
        if shape == 0:
            quality = r(QUALITIES)
            return f"We present {system}, {_article(quality)} {quality} {r(METHODS)} for {r(TASKS)}."
        if shape == 1:
            return f"Existing approaches to {r(TASKS)} rely on {r(QUALITIES)} {r(METHODS)}s whose cost grows as {r(ASYMPTOTICS)} in the number of {r(UNITS)}."
        return f"This paper asks whether a {r(METHODS)} can be made \\emph{{{r(QUALITIES)}}} without losing accuracy on {r(TASKS)}."

    def _cost(self, system: str) -> str:
        return f"{system} reduces this cost to {self.pick(ASYMPTOTICS)} by {self.pick(GERUNDS)} the {self.pick(METHODS)} across {self.rng.randint(2, 512)} {self.pick(HARDWARE)}."

    def _speed(self, system: str) -> str:
        return f"On {self.pick(DATASETS)}, {system} is {self.speedup()} faster than the strongest baseline while staying within {self.percent()} of its accuracy."

    def _rate(self, system: str) -> str:
        quality = self.pick(QUALITIES)
        return f"We prove that the {quality} variant converges at rate {self.pick(ASYMPTOTICS)} whenever {self.pick(CONDITIONS)}."

    def _generality(self, system: str) -> str:
        return f"The analysis is \\emph{{{self.pick(ADVERBS)}}} general: it holds for any {self.pick(METHODS)} with bounded {self.pick(QUANTITIES)}."

    def _benchmarks(self, system: str) -> str:
        return f"Experiments on {self.rng.randint(3, 40)} {self.pick(TASKS)} benchmarks show that {system} {self.pick(VERBS)} {self.pick(METHODS)} pipelines by {self.percent()} on average."

    def _ablation(self, system: str) -> str:
        return f"Ablations attribute most of the gain to the {self.pick(QUALITIES)} {self.pick(COMPONENTS)}, not to the {self.pick(METHODS)} itself."

    def _assumption(self, system: str) -> str:
        return f"Unlike prior work, we do not assume {self.pick(CONDITIONS)}; instead the {self.pick(COMPONENTS)} absorbs the {self.pick(QUANTITIES)}."

    def _case_study(self, system: str) -> str:
        return f"A case study on {self.pick(TASKS)} with {self.rng.randint(10, 900)}k {self.pick(UNITS)} shows a {self.speedup()} reduction in {self.pick(QUANTITIES)}."

    def _tightness(self, system: str) -> str:
        return f"For {self.pick(CONDITIONS)} the bound is tight, and we give a matching lower bound of {self.pick(ASYMPTOTICS)}."

    def _attribution(self, system: str) -> str:
        return f"We also find that \\textit{{{self.pick(GERUNDS)}}} alone explains {self.percent()} of the improvement."

    BODY = (_cost, _speed, _rate, _generality, _benchmarks, _ablation, _assumption, _case_study, _tightness, _attribution)

    def closing(self, system: str) -> str:
        return self.rng.choice((
            f"Code and the {self.pick(DATASETS)} splits are released.",
            f"We discuss where {system} fails and what it would take to fix it.",
            f"{system} is open source.",
            "Our results suggest that the bottleneck lies elsewhere.",
        ))

    def person(self) -> str:
        r = self.pick
        given = r(GIVEN_HEADS) + r(GIVEN_TAILS)
        family = r(FAMILY_HEADS) + r(FAMILY_TAILS)
        if self.rng.random() < 0.08:
            family += "-" + r(FAMILY_HEADS) + r(FAMILY_TAILS)
        if self.rng.random() < 0.1:
            return f"{given} {r(GIVEN_HEADS)[0]}. {family}"
        return f"{given} {family}"

    def affiliation(self) -> str:
        r = self.pick
        if self.rng.random() < 0.6:
            return f"{r(AFFILIATION_KINDS)} {r(AFFILIATION_FIELDS)}, {r(PLACES)}"
        return f"{r(PLACES)} {r(ORGANISATIONS)}"

    def creators(self) -> tuple[Creator, ...]:
        roll = self.rng.random()
        count = self.rng.randint(20, 64) if roll < 0.06 else self.rng.randint(1, 9)
        pool = _unique(self.affiliation() for _ in range(self.rng.randint(1, 5)))
        result = []
        for _ in range(count):
            held = self.rng.randint(0, 2) if self.rng.random() < 0.85 else 0
            result.append(Creator(self.person(), tuple(_unique(self.rng.choice(pool) for _ in range(held)))))
        return tuple(result)

    def comment(self) -> str:
        roll = self.rng.random()
        if roll < 0.5:
            return ""
        pages = f"{self.rng.randint(4, 60)} pages, {self.rng.randint(1, 18)} figures"
        if roll < 0.7:
            return f"{pages}; accepted at {self.pick(VENUES)} {self.rng.randint(2026, 2027)}"
        return pages

    def journal_ref(self) -> str:
        if self.rng.random() >= 0.15:
            return ""
        first = self.rng.randint(1, 900)
        return f"{self.pick(JOURNALS)} {self.rng.randint(3, 88)} ({self.rng.randint(2025, 2027)}) {first}-{first + self.rng.randint(5, 30)}"

    def doi(self) -> str:
        if self.rng.random() >= 0.12:
            return ""
        return f"10.{self.rng.randint(1000, 99999)}/synth.{self.rng.randint(2025, 2027)}.{self.rng.randint(1, 99999):05d}"


def _article(word: str) -> str:
    return "an" if word[:1] in "aeiou" else "a"


def _title_case(phrase: str) -> str:
    return " ".join(w[:1].upper() + w[1:] for w in phrase.split(" "))


def _unique(items) -> list[str]:
    seen: list[str] = []
    for item in items:
        if item not in seen:
            seen.append(item)
    return seen


def arxiv_number(ordinal: int, seed: int) -> int:
    """The five-digit number for the ordinal-th entry of a set; unique per set."""
    return 1 + (ordinal * ID_STRIDE + seed * 131) % ID_SPACE


def papers_for_feed(spec: FeedSetSpec, index: int) -> list[SyntheticPaper]:
    """The feed's papers, newest first (sortBy=submittedDate, descending)."""
    rng = random.Random(f"feedtui-bench/{spec.seed}/{index}")
    writer = PaperWriter(rng)
    category = spec.feed_category(index)
    span = spec.weeks * 7 * 86_400
    drafts = []
    for entry in range(spec.entries):
        published = spec.now - timedelta(seconds=rng.randrange(60, span))
        version = 1 if rng.random() < 0.8 else rng.randint(2, 4)
        updated = published if version == 1 else min(spec.now, published + timedelta(days=rng.randint(1, 30), seconds=rng.randrange(86_400)))
        cross = spec.style == "rss" and rng.random() < 0.15
        primary = rng.choice([c for c in CATEGORIES if c != category]) if cross else category
        others = _unique(rng.choice(CATEGORIES) for _ in range(rng.choice((0, 0, 1, 1, 2, 3))))
        categories = tuple(_unique([primary, *([category] if cross else []), *others]))
        system = writer.pick(SYSTEMS)
        announce = ("replace-cross" if cross else "replace") if version > 1 else ("cross" if cross else "new")
        drafts.append(SyntheticPaper(
            arxiv_id=f"{published:%y%m}.{arxiv_number(index * spec.entries + entry, spec.seed):05d}",
            version=version,
            published=published,
            updated=updated,
            title=writer.title(system),
            abstract=writer.abstract(system, rng.randint(1050, 1350)),
            creators=writer.creators(),
            primary=primary,
            categories=categories,
            comment=writer.comment(),
            journal_ref=writer.journal_ref(),
            doi=writer.doi(),
            announce_type=announce,
        ))
    drafts.sort(key=lambda p: (p.published, p.arxiv_id), reverse=True)
    return drafts


def _stamp(moment: datetime) -> str:
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


def hard_wrap(text: str, width: int, first_indent: str = "") -> list[str]:
    """Greedy wrap at spaces; the first line starts with first_indent and counts it.

    A word longer than the width gets a line of its own.
    """
    lines: list[str] = []
    current = first_indent
    for word in text.split(" "):
        if current.strip() and len(current) + 1 + len(word) > width:
            lines.append(current)
            current = word
        else:
            current = f"{current} {word}" if current.strip() else current + word
    if current.strip():
        lines.append(current)
    return lines


def _wrapped_summary(text: str) -> str:
    return "\n".join(hard_wrap(text, 80, first_indent="  ")) + "\n"


def _wrapped_title(text: str) -> str:
    return "\n  ".join(hard_wrap(text, 72))


def api_document(spec: FeedSetSpec, index: int, papers: list[SyntheticPaper]) -> str:
    category = spec.feed_category(index)
    count = len(papers)
    query = f"search_query=cat:{category}&id_list=&start=0&max_results={count}"
    token = hashlib.sha1(f"{spec.seed}/{index}/{query}".encode()).hexdigest()[:27]
    out = [
        '<?xml version="1.0" encoding="UTF-8"?>',
        f'<feed xmlns="{ATOM_NS}" xmlns:opensearch="{OPENSEARCH_NS}" xmlns:arxiv="{ARXIV_NS}">',
        f'  <link href="http://arxiv.org/api/query?{escape(query.replace("=", "%3D").replace("&", "%26").replace(":", "%3A"))}" rel="self" type="application/atom+xml"/>',
        f'  <title type="html">ArXiv Query: {escape(query)}</title>',
        f"  <id>http://arxiv.org/api/{token}</id>",
        f"  <updated>{spec.now.astimezone(EASTERN):%Y-%m-%dT00:00:00-05:00}</updated>",
        f"  <opensearch:totalResults>{count}</opensearch:totalResults>",
        "  <opensearch:startIndex>0</opensearch:startIndex>",
        f"  <opensearch:itemsPerPage>{count}</opensearch:itemsPerPage>",
    ]
    for paper in papers:
        out.append(_api_entry(paper))
    out.append("</feed>")
    return "\n".join(out) + "\n"


def _api_entry(paper: SyntheticPaper) -> str:
    url = f"http://arxiv.org/abs/{paper.versioned_id}"
    lines = [
        "  <entry>",
        f"    <id>{url}</id>",
        f"    <updated>{_stamp(paper.updated)}</updated>",
        f"    <published>{_stamp(paper.published)}</published>",
        f"    <title>{escape(_wrapped_title(paper.title))}</title>",
        f"    <summary>{escape(_wrapped_summary(paper.abstract))}</summary>",
    ]
    for creator in paper.creators:
        lines.append("    <author>")
        lines.append(f"      <name>{escape(creator.name)}</name>")
        for affiliation in creator.affiliations:
            lines.append(f"      <arxiv:affiliation>{escape(affiliation)}</arxiv:affiliation>")
        lines.append("    </author>")
    if paper.doi:
        lines.append(f"    <arxiv:doi>{escape(paper.doi)}</arxiv:doi>")
        lines.append(f'    <link title="doi" href="http://dx.doi.org/{escape(paper.doi)}" rel="related"/>')
    if paper.comment:
        lines.append(f"    <arxiv:comment>{escape(paper.comment)}</arxiv:comment>")
    if paper.journal_ref:
        lines.append(f"    <arxiv:journal_ref>{escape(paper.journal_ref)}</arxiv:journal_ref>")
    lines.append(f'    <link href="{url}" rel="alternate" type="text/html"/>')
    lines.append(f'    <link title="pdf" href="http://arxiv.org/pdf/{paper.versioned_id}" rel="related" type="application/pdf"/>')
    lines.append(f'    <arxiv:primary_category term="{paper.primary}" scheme="{ARXIV_NS}"/>')
    for term in paper.categories:
        lines.append(f'    <category term="{term}" scheme="{ARXIV_NS}"/>')
    lines.append("  </entry>")
    return "\n".join(lines)


def _announce_day(moment: datetime) -> datetime:
    """The next weekday midnight (US Eastern) after a submission: its listing."""
    day = (moment.astimezone(EASTERN) + timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
    while day.weekday() >= 5:
        day += timedelta(days=1)
    return day


def rss_document(spec: FeedSetSpec, index: int, papers: list[SyntheticPaper]) -> str:
    category = spec.feed_category(index)
    built = format_datetime(spec.now.astimezone(EASTERN).replace(hour=0, minute=0, second=0, microsecond=0))
    out = [
        "<?xml version='1.0' encoding='UTF-8'?>",
        f'<rss xmlns:arxiv="{ARXIV_NS}" xmlns:dc="{DC_NS}" xmlns:atom="{ATOM_NS}" xmlns:content="http://purl.org/rss/1.0/modules/content/" version="2.0">',
        "  <channel>",
        f"    <title>{category} updates on arXiv.org</title>",
        f"    <link>http://rss.arxiv.org/rss/{category}</link>",
        f"    <description>{category} updates on the arXiv.org e-print archive.</description>",
        f'    <atom:link href="https://rss.arxiv.org/rss/{category}" rel="self" type="application/rss+xml"/>',
        "    <docs>http://www.rssboard.org/rss-specification</docs>",
        "    <language>en-us</language>",
        f"    <lastBuildDate>{built}</lastBuildDate>",
        "    <managingEditor>rss-help@arxiv.org</managingEditor>",
        f"    <pubDate>{built}</pubDate>",
        "    <skipDays>",
        "      <day>Saturday</day>",
        "      <day>Sunday</day>",
        "    </skipDays>",
    ]
    for paper in papers:
        out.append(_rss_item(paper))
    out.append("  </channel>")
    out.append("</rss>")
    return "\n".join(out) + "\n"


def _rss_item(paper: SyntheticPaper) -> str:
    description = f"arXiv:{paper.versioned_id} Announce Type: {paper.announce_type} \nAbstract: {paper.abstract}"
    lines = [
        "    <item>",
        f"      <title>{escape(paper.title)}</title>",
        f"      <link>https://arxiv.org/abs/{paper.arxiv_id}</link>",
        f"      <description>{escape(description)}</description>",
        f'      <guid isPermaLink="false">oai:arXiv.org:{paper.versioned_id}</guid>',
    ]
    for term in paper.categories:
        lines.append(f"      <category>{term}</category>")
    lines += [
        f"      <pubDate>{format_datetime(_announce_day(paper.updated))}</pubDate>",
        f"      <arxiv:announce_type>{paper.announce_type}</arxiv:announce_type>",
        "      <dc:rights>http://creativecommons.org/licenses/by/4.0/</dc:rights>",
        f"      <dc:creator>{escape(', '.join(c.name for c in paper.creators))}</dc:creator>",
    ]
    if paper.doi:
        lines.append(f"      <arxiv:DOI>{escape(paper.doi)}</arxiv:DOI>")
    if paper.journal_ref:
        lines.append(f"      <arxiv:journal_reference>{escape(paper.journal_ref)}</arxiv:journal_reference>")
    lines.append("    </item>")
    return "\n".join(lines)


def feed_file_name(index: int) -> str:
    return f"feed-{index:03d}.xml"


def render_feed(spec: FeedSetSpec, index: int) -> bytes:
    papers = papers_for_feed(spec, index)
    render = api_document if spec.style == "api" else rss_document
    return render(spec, index, papers).encode("utf-8")


def write_feed_set(spec: FeedSetSpec, out_dir: Path) -> dict:
    """Write every feed and manifest.json; returns the manifest."""
    out_dir.mkdir(parents=True, exist_ok=True)
    files = []
    for index in range(spec.feeds):
        body = render_feed(spec, index)
        name = feed_file_name(index)
        (out_dir / name).write_bytes(body)
        files.append({
            "file": name, "category": spec.feed_category(index), "entries": spec.entries,
            "bytes": len(body), "sha256": hashlib.sha256(body).hexdigest(),
        })
    manifest = {
        "generator": "feedtui bench/feeds.py",
        "spec": spec.to_json(),
        "entries": spec.feeds * spec.entries,
        "bytes": sum(f["bytes"] for f in files),
        "files": files,
    }
    (out_dir / "manifest.json").write_text(json.dumps(manifest, indent=1) + "\n", encoding="utf-8")
    return manifest


def parse_now(text: str) -> datetime:
    try:
        moment = datetime.fromisoformat(text.replace("Z", "+00:00"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a date: {text!r} (use YYYY-MM-DD or YYYY-MM-DDTHH:MM:SS)") from None
    return moment.replace(tzinfo=UTC) if moment.tzinfo is None else moment.astimezone(UTC)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="feeds.py", description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("out", type=Path, help="directory to write feed-NNN.xml and manifest.json into")
    parser.add_argument("--feeds", type=int, default=50)
    parser.add_argument("--entries", type=int, default=100, help="entries per feed")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--now", type=parse_now, default=None, help="anchor date, UTC (default: today 00:00 UTC)")
    parser.add_argument("--weeks", type=int, default=16, help="papers are spread over this many weeks before --now")
    parser.add_argument("--style", choices=STYLES, default="api")
    return parser


def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    now = args.now or datetime.now(UTC).replace(hour=0, minute=0, second=0, microsecond=0)
    try:
        spec = FeedSetSpec(args.feeds, args.entries, args.seed, now, args.weeks, args.style)
    except ValueError as error:
        print(f"feeds.py: {error}", file=sys.stderr)
        return 2
    manifest = write_feed_set(spec, args.out)
    print(
        f"wrote {spec.feeds} feeds x {spec.entries} entries ({manifest['entries']:,} papers, "
        f"{manifest['bytes'] / 1e6:.1f} MB, style {spec.style}) to {args.out}",
        file=sys.stderr,
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
