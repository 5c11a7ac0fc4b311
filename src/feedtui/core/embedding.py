"""The papers of a refresh embedded and indexed as they are parsed, by
worker processes of lower priority than the parsers and the store.

The parse workers hand over, with each feed's papers, the texts to embed
and index (see discovery/at_parse.py); an Embedder sends them on to its
own pool, whose niced workers take what the parsing and storing leave free
of the cores (the model is loaded before they are forked, while the
refresh waits for its first answers). The papers are parsed and stored
nearly as fast as without vectors, and the vectors cost the refresh mostly
the work still left once its papers are stored. What a worker could not do
is done later, from the stored papers (Engine.compute_vectors)."""

from __future__ import annotations

import asyncio
from typing import Any

# How much nicer the embedding workers are than the refresh.
NICER = 10


class Embedder:
    """Embeds and indexes the texts handed to it (`submit`), in the background
    of a refresh: `finish` gives what was computed, then `close`."""

    def __init__(self) -> None:
        self._pool: Any = None
        self._running: list[asyncio.Task] = []
        self._results: list[tuple[dict, Any]] = []

    def _workers(self) -> Any:
        if self._pool is None:
            from feedtui.cpu_pool import CpuPool
            from feedtui.discovery.at_parse import embed_and_index, prepare_embedding

            # The model is loaded here, before the workers are forked: they
            # have it from the start, and it is loaded once.
            self._pool = CpuPool(embed_and_index, initializer=prepare_embedding, nice=NICER)
        return self._pool

    def start(self) -> None:
        """Load the model and fork the workers now, in a background thread,
        while the refresh waits for its first answers (see CpuPool.start)."""
        self._workers().start(fork=True)

    def submit(self, texts: bytes | None) -> None:
        """Embed and index these texts (see at_parse.embedding_texts) in the background."""
        if texts is not None:
            self._running.append(asyncio.ensure_future(self._run(texts)))

    async def _run(self, texts: bytes) -> None:
        try:
            # The few papers of a small feed are done in a thread here (see CpuPool.run).
            self._results.append(await self._workers().run(len(texts), texts))
        except Exception:  # noqa: BLE001 (these papers are embedded later, from what was stored)
            pass

    async def finish(self) -> list[tuple[dict, Any]]:
        """Every submitted text's (vectors by id, WordPart), once all are done."""
        while self._running:
            running, self._running = self._running, []
            await asyncio.gather(*running)
        results, self._results = self._results, []
        return results

    def close(self) -> None:
        """Stop the workers (what they were doing is wanted no more)."""
        for task in self._running:
            task.cancel()
        self._running = []
        if self._pool is not None:
            self._pool.close()
