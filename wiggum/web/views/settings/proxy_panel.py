"""The Settings dialog's "CORS proxy" section: the proxy URL template, the idle
timeout, and "Run your own proxy" (the one deploy command, and the worker's
address made into the template).

Some providers refuse calls from web pages; the proxy (``proxy/``, a
Cloudflare Worker) forwards them.  The deploy command carries this page's
origin as the worker's ``ALLOWED_ORIGINS``, so the person copies it as it is.
"""

from __future__ import annotations

from wiggum.ui.connection import PROXY_DEPLOY

from ...dom import button, el
from ..forms import error_line, field, hint, say, text_input

__all__ = ["ProxyPanel"]


class ProxyPanel:
    def __init__(self) -> None:
        self.template = text_input(
            "set-proxy-template",
            "proxy-template",
            type_="url",
            placeholder="https://your-proxy.example/?url={href}",
        )
        self.template_error = error_line("proxy-template-error")
        self.idle_seconds = el(
            "input",
            None,
            testid="stream-idle-seconds",
            id="set-idle-seconds",
            type="number",
            min="5",
            max="3600",
            step="1",
        )
        self.worker_url = text_input(
            "set-worker-url",
            "worker-url",
            type_="url",
            placeholder="https://wiggum-cors-proxy.you.workers.dev",
        )
        self.worker_error = error_line("worker-url-error")
        self.deploy_cmd = el("code", None, testid="proxy-deploy-command")
        use_it = button("Use it", action="use-worker", testid="use-worker", cls="btn btn-small")
        self.el = el(
            "section",
            "dialog-section",
            el("h3", None, "CORS proxy", id="proxy-title"),
            field(
                "Proxy URL template",
                self.template,
                for_id="set-proxy-template",
                hint=hint(
                    "Some providers refuse calls from web pages. A proxy you run forwards "
                    "them; {href} is replaced by the provider's URL."
                ),
                error=self.template_error,
            ),
            field(
                "Give up on a silent reply after (seconds)",
                self.idle_seconds,
                for_id="set-idle-seconds",
                hint=hint(
                    "When a reply stops arriving for this long, Chief ends it, keeps what "
                    "arrived and offers Retry."
                ),
            ),
            el(
                "details",
                "proxy-howto",
                el("summary", None, "Run your own proxy"),
                el(
                    "p",
                    None,
                    "The proxy is a small Cloudflare Worker (the proxy/ folder of Wiggum's "
                    "source) that forwards your requests; it keeps nothing and only serves the "
                    "pages you allow.",
                ),
                el(
                    "p",
                    None,
                    "Deploy it (free Cloudflare account) with this one command, which also "
                    "sets ALLOWED_ORIGINS to this page's origin:",
                ),
                el("pre", "proxy-cmd", self.deploy_cmd),
                field(
                    "Your worker's URL",
                    el("div", "model-row", self.worker_url, use_it),
                    for_id="set-worker-url",
                    hint=hint(
                        "Paste the URL wrangler printed; Wiggum fills in the proxy URL "
                        "template above and turns the proxy on."
                    ),
                    error=self.worker_error,
                ),
                testid="proxy-howto",
            ),
            aria_labelledby="proxy-title",
        )

    def load(self, template: str, idle_seconds: float, origin: str) -> None:
        self.template.value = template
        self.idle_seconds.value = f"{idle_seconds:g}"
        self.template_error.hidden = True
        self.deploy_cmd.textContent = PROXY_DEPLOY.format(origin=origin or "https://you.example")

    def show_worker(self, template: str, problem: str | None) -> None:
        """The worker's address became ``template``, or ``problem`` says why not."""
        say(self.worker_error, problem)
        if problem is not None:
            self.worker_url.focus()
            return
        self.template.value = template
        say(self.template_error, None)
