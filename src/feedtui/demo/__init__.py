"""The bundled offline demo: invented papers in the arXiv API's Atom format.

The files in `data/` are written by `scripts/make_demo.py` (deterministic, fixed
seed) and are meant to go through the normal arXiv API parser. Their dates lie
in the weeks before the demo epoch recorded in `data/manifest.json`; the engine
shifts them by whole weeks so the demo always looks current while keeping
Monday-started weeks intact.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from functools import cache
from importlib import resources
from importlib.resources.abc import Traversable

MANIFEST = "manifest.json"


def demo_data_dir() -> Traversable:
    return resources.files(__package__) / "data"


def demo_files() -> list[Traversable]:
    """The demo's Atom documents (one arXiv API answer each), sorted by name."""
    return sorted(
        (item for item in demo_data_dir().iterdir() if item.name.endswith(".xml")),
        key=lambda item: item.name,
    )


def demo_epoch() -> datetime:
    """The moment the demo data was written for (UTC): every paper is older."""
    return datetime.strptime(demo_manifest()["epoch"], "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


@cache
def demo_manifest() -> dict:
    """The generator's record: epoch, seed, files, and papers written per topic."""
    return json.loads((demo_data_dir() / MANIFEST).read_text(encoding="utf-8"))
