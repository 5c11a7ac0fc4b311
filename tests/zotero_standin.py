"""A loopback stand-in for the Zotero desktop app's connector server: a
real HTTP server on 127.0.0.1 that answers as Zotero does (`GET
/connector/ping` 200, `POST /connector/saveItems` 201) and records every
request it receives, to be checked."""

from __future__ import annotations

import json
import socket
import threading
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass
class Received:
    method: str
    path: str
    headers: dict[str, str]  # names in lower case, as HTTP compares them
    body: Any


@dataclass
class ZoteroStandIn:
    """Answers saveItems with `save_status` (and `save_answer` as its JSON body)."""

    save_status: int = 201
    save_answer: dict | None = None
    received: list[Received] = field(default_factory=list)
    server: ThreadingHTTPServer | None = None

    @property
    def url(self) -> str:
        host, port = self.server.server_address[:2]
        return f"http://{host}:{port}"

    def saved_items(self) -> list[dict]:
        return [item for r in self.received if r.path == "/connector/saveItems" for item in r.body["items"]]

    def start(self) -> ZoteroStandIn:
        stand_in = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args) -> None:
                pass

            def do_GET(self) -> None:
                stand_in.received.append(Received("GET", self.path, {name.lower(): value for name, value in self.headers.items()}, None))
                if self.path == "/connector/ping":
                    self._answer(200, b"<!DOCTYPE html><html><body>Zotero is running</body></html>", "text/html")
                else:
                    self._answer(404, b"No endpoint found", "text/plain")

            def do_POST(self) -> None:
                length = int(self.headers.get("Content-Length", "0"))
                raw = self.rfile.read(length)
                try:
                    body = json.loads(raw)
                except ValueError:
                    body = raw
                stand_in.received.append(Received("POST", self.path, {name.lower(): value for name, value in self.headers.items()}, body))
                if self.path != "/connector/saveItems":
                    self._answer(404, b"No endpoint found", "text/plain")
                    return
                answer = json.dumps(stand_in.save_answer).encode() if stand_in.save_answer is not None else b""
                self._answer(stand_in.save_status, answer, "application/json")

            def _answer(self, status: int, body: bytes, kind: str) -> None:
                self.send_response(status)
                self.send_header("Content-Type", kind)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self.server.serve_forever, daemon=True).start()
        return self

    def stop(self) -> None:
        if self.server is not None:
            self.server.shutdown()
            self.server.server_close()


def closed_port_url() -> str:
    """An address on 127.0.0.1 where nothing listens (Zotero not running)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}"
