// Configuration variants: custom allowlists from vars, loopback opt-in off, requests
// without Origin opted in, the optional rate-limit binding, and the serve-local CLI.
import { test, before, after, describe } from "node:test";
import assert from "node:assert/strict";
import { spawn } from "node:child_process";
import path from "node:path";
import { PROXY_DIR } from "../scripts/local-worker.mjs";
import { PAGE_ORIGIN, proxied, startLocalWorker, startUpstream } from "../test-support/helpers.mjs";

let upstream;
before(async () => {
  upstream = await startUpstream();
});
after(async () => {
  await upstream?.close();
});

describe("defaults without ALLOW_INSECURE_LOOPBACK", () => {
  let worker;
  before(async () => {
    worker = await startLocalWorker({ vars: { ALLOW_NO_ORIGIN: "true" } });
  });
  after(async () => worker?.stop());

  test("http loopback target is refused as non-https", async () => {
    const res = await fetch(proxied(worker, `${upstream.base}/echo`), { headers: { origin: PAGE_ORIGIN } });
    assert.equal(res.status, 400);
    assert.match(await res.text(), /only https targets/);
  });

  test("https loopback target is refused as host not allowed", async () => {
    const res = await fetch(proxied(worker, `https://127.0.0.1:${upstream.port}/echo`), {
      headers: { origin: PAGE_ORIGIN },
    });
    assert.equal(res.status, 403);
    assert.match(await res.text(), /host not allowed/);
  });

  test("ALLOW_NO_ORIGIN=true lets curl-like requests through (no CORS headers)", async () => {
    const res = await fetch(proxied(worker, "https://example.com/"));
    assert.equal(res.status, 403); // reached the host check, i.e. past the origin gate
    assert.match(await res.text(), /host not allowed/);
    assert.equal(res.headers.get("access-control-allow-origin"), null);
  });
});

describe("custom allowlists via vars", () => {
  let worker;
  before(async () => {
    worker = await startLocalWorker({
      vars: {
        ALLOWED_ORIGINS: "https://me.github.io, http://127.0.0.1:*",
        ALLOWED_HOSTS: "api.openai.com,*.example.org,special.example.net:8443",
        ALLOW_INSECURE_LOOPBACK: "true",
      },
    });
  });
  after(async () => worker?.stop());

  test("only the configured origins are allowed", async () => {
    const cases = [
      ["https://me.github.io", 204],
      ["http://127.0.0.1:4000", 204],
      ["https://someone-else.github.io", 403],
      [PAGE_ORIGIN, 403], // localhost no longer listed
    ];
    for (const [origin, status] of cases) {
      const res = await fetch(proxied(worker, "https://api.openai.com/v1/models"), {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "GET" },
      });
      assert.equal(res.status, status, origin);
    }
  });

  test("only the configured hosts are allowed", async () => {
    const origin = "https://me.github.io";
    const refused = [
      "https://api.anthropic.com/v1/messages", // a default host, not in the custom list
      "https://example.org/", // "*.example.org" means subdomains only
      "https://special.example.net/", // listed with :8443 only
    ];
    for (const target of refused) {
      const res = await fetch(proxied(worker, target), { headers: { origin } });
      assert.equal(res.status, 403, target);
      assert.match(await res.text(), /host not allowed/);
    }
    // Loopback still reachable thanks to ALLOW_INSECURE_LOOPBACK.
    const ok = await fetch(proxied(worker, `${upstream.base}/echo`), { headers: { origin } });
    assert.equal(ok.status, 200);
    assert.equal(ok.headers.get("access-control-allow-origin"), origin);
    await ok.arrayBuffer();
  });
});

describe("rate limiting binding (optional)", () => {
  let worker;
  before(async () => {
    worker = await startLocalWorker({
      vars: { ALLOW_INSECURE_LOOPBACK: "true" },
      rateLimit: { limit: 3, period: 60 },
    });
  });
  after(async () => worker?.stop());

  test("over the limit: 429 with a one-line reason the page can read", async () => {
    const statuses = [];
    let last;
    for (let i = 0; i < 5; i++) {
      last = await fetch(proxied(worker, `${upstream.base}/echo`), { headers: { origin: PAGE_ORIGIN } });
      statuses.push(last.status);
      if (i < 4) await last.arrayBuffer();
    }
    assert.deepEqual(statuses, [200, 200, 200, 429, 429]);
    assert.equal((await last.text()).trim(), "proxy: rate limit exceeded");
    assert.equal(last.headers.get("access-control-allow-origin"), PAGE_ORIGIN);
  });
});

describe("scripts/serve-local.mjs", () => {
  test("starts on the requested port with custom vars, prints a ready line, stops on SIGTERM", async () => {
    const child = spawn(
      process.execPath,
      [
        path.join(PROXY_DIR, "scripts", "serve-local.mjs"),
        "--port",
        "0",
        "--var",
        "ALLOWED_ORIGINS=http://127.0.0.1:*",
        "--var",
        "ALLOW_INSECURE_LOOPBACK=true",
      ],
      { stdio: ["ignore", "pipe", "pipe"] },
    );
    try {
      const url = await new Promise((resolve, reject) => {
        let out = "";
        let err = "";
        const timer = setTimeout(() => reject(new Error(`no ready line: ${out} ${err}`)), 30_000);
        child.stderr.on("data", (d) => (err += d));
        child.stdout.on("data", (d) => {
          out += d;
          const m = /^wiggum-proxy ready (http:\/\/\S+)$/m.exec(out);
          if (m) {
            clearTimeout(timer);
            resolve(m[1]);
          }
        });
        child.on("exit", (code) => reject(new Error(`exited ${code}: ${out} ${err}`)));
      });
      const target = encodeURIComponent(`${upstream.base}/echo`);
      const ok = await fetch(`${url}?url=${target}`, { headers: { origin: "http://127.0.0.1:9999" } });
      assert.equal(ok.status, 200);
      assert.equal(ok.headers.get("access-control-allow-origin"), "http://127.0.0.1:9999");
      await ok.arrayBuffer();
      const refused = await fetch(`${url}?url=${target}`, { headers: { origin: PAGE_ORIGIN } });
      assert.equal(refused.status, 403);
      await refused.arrayBuffer();
    } finally {
      const exited = new Promise((r) => child.once("exit", r));
      child.kill("SIGTERM");
      const code = await exited;
      assert.equal(code, 0);
    }
  });
});
