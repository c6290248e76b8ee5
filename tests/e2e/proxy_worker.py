"""The CORS proxy Worker, run locally in real workerd for the e2e tests."""

from __future__ import annotations

import re
import subprocess
import threading
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
READY = re.compile(r"^wiggum-proxy ready (http://\S+)$")


class ProxyWorker:
    """``node proxy/scripts/serve-local.mjs`` on a free port, allowing loopback targets."""

    def __init__(self, *vars: str, timeout: float = 60.0) -> None:
        if not (ROOT / "proxy" / "node_modules").is_dir():
            raise RuntimeError("proxy packages missing: run `npm ci --prefix proxy` first")
        args = ["node", str(ROOT / "proxy/scripts/serve-local.mjs"), "--port", "0"]
        args += ["--exit-on-stdin-close"]
        for var in ("ALLOWED_ORIGINS=http://127.0.0.1:*", "ALLOW_INSECURE_LOOPBACK=true", *vars):
            args += ["--var", var]
        self.process = subprocess.Popen(
            args,
            cwd=ROOT,
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            env={"WRANGLER_SEND_METRICS": "false", **_env()},
        )
        self.url = self._wait_ready(timeout)
        #: ``{href}`` template the page's settings take.
        self.template = self.url + "?url={href}"

    def _wait_ready(self, timeout: float) -> str:
        found: list[str] = []
        lines: list[str] = []
        done = threading.Event()

        def read() -> None:
            for line in self.process.stdout:
                lines.append(line.rstrip())
                m = READY.match(line.strip())
                if m and not found:
                    found.append(m.group(1))
                    done.set()
            done.set()

        threading.Thread(target=read, daemon=True).start()
        if not done.wait(timeout) or not found:
            self.stop()
            raise RuntimeError("proxy Worker did not start:\n" + "\n".join(lines[-20:]))
        return found[0]

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(10)
            except subprocess.TimeoutExpired:
                self.process.kill()


def _env() -> dict[str, str]:
    import os

    return dict(os.environ)
