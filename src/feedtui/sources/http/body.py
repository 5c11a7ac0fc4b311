"""A response body, read within the size cap.

Bodies are decompressed here with a bounded zlib output, so a gzip bomb is
cut off at the cap instead of a whole network chunk being inflated (up to
~1000×) in memory first.
"""

from __future__ import annotations

import zlib

import httpx

from feedtui.sources.http.failures import Failure, host_label, shown, size_text


async def read_body(response: httpx.Response, url: httpx.URL, cap: int) -> bytes:
    """The decoded body of `response`; a Failure when it is over `cap` bytes
    (announced or as it arrives) or in an encoding feedtui does not read."""
    too_large = f"response from {host_label(url)} larger than {size_text(cap)} cap"
    declared = response.headers.get("content-length", "")
    if declared.isdigit() and int(declared) > cap:
        raise Failure(f"{too_large} (it announced {size_text(int(declared))})")
    decoder = BoundedDecoder.for_encoding(response.headers.get("content-encoding", ""))
    if decoder is None:
        encoding = shown(response.headers.get("content-encoding", ""), 40)
        raise Failure(f"{host_label(url)} sent the response in an unsupported encoding ({encoding})")
    chunks: list[bytes] = []
    size = 0
    async for raw in response.aiter_raw():
        piece = decoder.decode(raw, cap - size)
        size += len(piece)
        if size > cap:
            raise Failure(too_large)
        chunks.append(piece)
    tail = decoder.flush()
    if size + len(tail) > cap:
        raise Failure(too_large)
    chunks.append(tail)
    return b"".join(chunks)


class BoundedDecoder:
    """Decodes a Content-Encoding without ever producing much more than asked for."""

    def __init__(self, encoding: str) -> None:
        self.encoding = encoding
        self._inflater = _new_inflater(encoding)
        self._started = False

    @classmethod
    def for_encoding(cls, header: str) -> BoundedDecoder | None:
        """A decoder for a Content-Encoding header value; None when unsupported."""
        encoding = header.strip().lower()
        if encoding in ("", "identity"):
            return cls("identity")
        if encoding in ("gzip", "x-gzip", "deflate"):
            return cls(encoding)
        return None

    def decode(self, data: bytes, room: int) -> bytes:
        """The decoded bytes of `data`, at most `room + 1` of them when compressed:
        getting `room + 1` back means the body is over the cap."""
        if self._inflater is None:
            return data
        try:
            out = self._inflater.decompress(data, max(room, 0) + 1)
        except zlib.error:
            # "deflate" is meant to be zlib-wrapped, but some servers send it raw.
            if self.encoding != "deflate" or self._started:
                raise
            self._inflater = zlib.decompressobj(-zlib.MAX_WBITS)
            out = self._inflater.decompress(data, max(room, 0) + 1)
        self._started = True
        return out

    def flush(self) -> bytes:
        return self._inflater.flush() if self._inflater is not None else b""


def _new_inflater(encoding: str) -> zlib._Decompress | None:
    if encoding in ("gzip", "x-gzip"):
        return zlib.decompressobj(16 + zlib.MAX_WBITS)
    if encoding == "deflate":
        return zlib.decompressobj(zlib.MAX_WBITS)
    return None
