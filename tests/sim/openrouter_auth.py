"""OpenRouter's sign-in endpoints, simulated on 127.0.0.1 (for Connect with OpenRouter).

``GET /auth?callback_url=…&code_challenge=…&code_challenge_method=S256`` stands
for the person signing in and allowing the app: it answers with a redirect to
``callback_url`` carrying a fresh ``?code=`` (OpenRouter shows its own pages
first; the redirect is what the app sees).  ``POST /api/v1/auth/keys`` with
``{code, code_verifier, code_challenge_method}`` answers ``{"key": …}`` when the
verifier's S256 digest is the challenge the code was issued for, once per code;
else 403.  Both allow any origin, as OpenRouter's key exchange does for pages.

    with OpenRouterAuth() as auth:
        auth.base_url     # "http://127.0.0.1:PORT", in place of https://openrouter.ai
        auth.issued       # keys handed out, in order
"""

from __future__ import annotations

import base64
import hashlib
import http.server
import json
import secrets
import threading
from typing import Any
from urllib.parse import parse_qsl, urlencode, urlsplit

__all__ = ["OpenRouterAuth"]


def _s256(verifier: str) -> str:
    digest = hashlib.sha256(verifier.encode("ascii")).digest()
    return base64.urlsafe_b64encode(digest).rstrip(b"=").decode("ascii")


class OpenRouterAuth:
    def __init__(self) -> None:
        #: code -> its challenge, until the code is traded
        self.codes: dict[str, str] = {}
        self.issued: list[str] = []
        self.requests: list[tuple[str, str]] = []
        self._lock = threading.Lock()
        self._server: http.server.ThreadingHTTPServer | None = None

    @property
    def base_url(self) -> str:
        assert self._server is not None, "not started"
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def __enter__(self) -> OpenRouterAuth:
        sim = self

        class Handler(http.server.BaseHTTPRequestHandler):
            def log_message(self, *args: Any) -> None:
                pass

            def _send(self, status: int, body: dict | None, headers: dict | None = None):
                data = json.dumps(body).encode() if body is not None else b""
                self.send_response(status)
                self.send_header("Access-Control-Allow-Origin", self.headers.get("Origin") or "*")
                self.send_header("Access-Control-Allow-Headers", "Content-Type")
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                for k, v in (headers or {}).items():
                    self.send_header(k, v)
                self.end_headers()
                self.wfile.write(data)

            def do_OPTIONS(self) -> None:
                self._send(204, None, {"Access-Control-Allow-Methods": "POST"})

            def do_GET(self) -> None:
                url = urlsplit(self.path)
                sim.requests.append(("GET", url.path))
                query = dict(parse_qsl(url.query))
                if url.path != "/auth" or not query.get("callback_url"):
                    self._send(404, {"error": {"message": "Not found"}})
                    return
                if query.get("code_challenge_method") != "S256" or not query.get("code_challenge"):
                    self._send(400, {"error": {"message": "S256 challenge required"}})
                    return
                code = secrets.token_urlsafe(16)
                with sim._lock:
                    sim.codes[code] = query["code_challenge"]
                back = urlsplit(query["callback_url"])
                params = [*parse_qsl(back.query), ("code", code)]
                location = back._replace(query=urlencode(params)).geturl()
                self._send(302, None, {"Location": location})

            def do_POST(self) -> None:
                sim.requests.append(("POST", urlsplit(self.path).path))
                length = int(self.headers.get("Content-Length") or 0)
                try:
                    body = json.loads(self.rfile.read(length) or b"{}")
                except ValueError:
                    body = {}
                if urlsplit(self.path).path != "/api/v1/auth/keys":
                    self._send(404, {"error": {"message": "Not found"}})
                    return
                with sim._lock:
                    expected = sim.codes.pop(body.get("code", ""), None)
                verifier = body.get("code_verifier") or ""
                if expected is None or _s256(verifier) != expected:
                    self._send(403, {"error": {"code": 403, "message": "Invalid code"}})
                    return
                key = "sk-or-v1-" + secrets.token_hex(16)
                sim.issued.append(key)
                self._send(200, {"key": key, "user_id": "user_sim"})

        self._server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        return self

    def __exit__(self, *exc: object) -> None:
        assert self._server is not None
        self._server.shutdown()
        self._server.server_close()
