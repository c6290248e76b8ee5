// End-to-end tests: the proxy runs in real workerd, a real node:http upstream runs on
// 127.0.0.1, and every request goes over real HTTP. Default wrangler.toml allowlists,
// plus ALLOW_INSECURE_LOOPBACK=true so http://127.0.0.1:<port> targets are reachable.
import { test, before, after, describe } from "node:test";
import assert from "node:assert/strict";
import {
  PAGE_ORIGIN,
  bytes,
  proxied,
  sha256,
  startLocalWorker,
  startUpstream,
} from "../test-support/helpers.mjs";

let upstream;
let worker;

before(async () => {
  upstream = await startUpstream();
  worker = await startLocalWorker({ vars: { ALLOW_INSECURE_LOOPBACK: "true" } });
});

after(async () => {
  await worker?.stop();
  await upstream?.close();
});

const page = (extra = {}) => ({ origin: PAGE_ORIGIN, ...extra });

describe("CORS preflight", () => {
  test("allowed origin gets 204 with CORS headers, request headers reflected", async () => {
    const res = await fetch(proxied(worker, `${upstream.base}/echo`), {
      method: "OPTIONS",
      headers: page({
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type, x-api-key, anthropic-version",
      }),
    });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get("access-control-allow-origin"), PAGE_ORIGIN);
    const methods = res.headers.get("access-control-allow-methods");
    for (const m of ["GET", "POST", "PUT", "PATCH", "DELETE"]) assert.match(methods, new RegExp(m));
    const allowHeaders = res.headers.get("access-control-allow-headers").toLowerCase();
    for (const h of ["authorization", "content-type", "x-api-key", "anthropic-version"]) {
      assert.ok(allowHeaders.includes(h), `${h} in ${allowHeaders}`);
    }
    assert.ok(Number(res.headers.get("access-control-max-age")) > 0);
    assert.match(res.headers.get("vary") ?? "", /origin/i);
    assert.equal(res.headers.get("access-control-allow-credentials"), null);
  });

  test("only loopback origins are allowed by default", async () => {
    for (const origin of ["http://127.0.0.1:8000", "http://[::1]:5173", "http://localhost"]) {
      const res = await fetch(proxied(worker, "https://api.openai.com/v1/models"), {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "GET" },
      });
      assert.equal(res.status, 204, origin);
      assert.equal(res.headers.get("access-control-allow-origin"), origin);
    }
  });

  test("refused origin: preflight fails with 403 naming ALLOWED_ORIGINS; upstream never contacted", async () => {
    const before = upstream.state.requests;
    for (const origin of [
      "https://evil.example",
      "https://someone.github.io", // closed by default: no GitHub Pages wildcard
      "https://github.io.evil.example",
      "http://localhost.evil.example:3000",
      "null",
    ]) {
      const res = await fetch(proxied(worker, `${upstream.base}/echo`), {
        method: "OPTIONS",
        headers: { origin, "access-control-request-method": "POST" },
      });
      // A non-2xx preflight fails in the browser: the real request (and its key) is never sent.
      assert.equal(res.status, 403, origin);
      assert.equal(res.headers.get("access-control-allow-methods"), null, origin);
      assert.equal(
        (await res.text()).trim(),
        `proxy: origin not allowed: ${origin} (add it to the proxy's ALLOWED_ORIGINS and deploy again)`,
      );
    }
    assert.equal(upstream.state.requests, before);
  });
});

describe("refusals", () => {
  async function expectRefusal(url, init, status, reason) {
    const before = upstream.state.requests;
    const res = await fetch(url, init);
    const text = await res.text();
    assert.equal(res.status, status, text);
    assert.equal(text.trim().split("\n").length, 1, "one-line reason");
    assert.match(text, reason);
    assert.match(res.headers.get("content-type"), /^text\/plain/);
    assert.equal(upstream.state.requests, before, "upstream must not be contacted");
    return res;
  }

  test("refused origin on a simple request: 403 the page can read, naming the variable to set", async () => {
    const origin = "https://me.github.io";
    const res = await expectRefusal(
      proxied(worker, `${upstream.base}/echo`),
      { method: "GET", headers: { origin } },
      403,
      /^proxy: origin not allowed: https:\/\/me\.github\.io \(add it to the proxy's ALLOWED_ORIGINS and deploy again\)$/m,
    );
    // Readable by that page (the reason only: nothing was forwarded).
    assert.equal(res.headers.get("access-control-allow-origin"), origin);
  });

  test("no Origin header (curl-like) is refused by default", async () => {
    await expectRefusal(proxied(worker, `${upstream.base}/echo`), {}, 403, /missing Origin header/);
  });

  test("host not on the allowlist: 403 readable by the page (CORS headers present)", async () => {
    for (const target of [
      "https://example.com/v1/chat/completions",
      "https://api.openai.com.evil.example/v1",
      "https://evilapi.openai.com/v1",
      "https://api.openai.com:8443/v1", // non-default port not listed
      "https://10.0.0.1/v1",
    ]) {
      const res = await expectRefusal(proxied(worker, target), { headers: page() }, 403, /host not allowed/);
      assert.equal(res.headers.get("access-control-allow-origin"), PAGE_ORIGIN);
    }
  });

  test("non-https target: 400", async () => {
    for (const target of [
      "http://api.openai.com/v1/models",
      "ftp://api.openai.com/x",
      "ws://api.openai.com/x",
      "file:///etc/passwd",
      "data:text/plain,hi",
    ]) {
      const res = await expectRefusal(proxied(worker, target), { headers: page() }, 400, /only https targets/);
      assert.equal(res.headers.get("access-control-allow-origin"), PAGE_ORIGIN);
    }
  });

  test("missing or malformed url: 400", async () => {
    const base = worker.url.href;
    const cases = [
      [`${base}`, /missing url/],
      [`${base}?url=`, /missing url/],
      [`${base}?other=1`, /missing url/],
      [`${base}?url=not%20a%20url`, /malformed url/],
      [`${base}?url=api.openai.com%2Fv1`, /malformed url/], // no scheme
      [`${base}?url=%E0%A4%A`, /malformed url/], // broken percent-encoding
      [`${base}?url=%%%%25%ZZ`, /malformed url/],
      [`${base}?url=https%3A%2F%2F`, /malformed url/],
      [`${base}?url=https%3A%2F%2Fuser%3Apass%40api.openai.com%2F`, /credentials in url/],
    ];
    for (const [url, reason] of cases) {
      const res = await expectRefusal(url, { headers: page() }, 400, reason);
      assert.equal(res.headers.get("access-control-allow-origin"), PAGE_ORIGIN, url);
    }
  });

  test("other paths: 404", async () => {
    await expectRefusal(new URL("/v1/chat", worker.url).href, { headers: page() }, 404, /not found/);
  });

  test("redirects are not followed (could leave the allowlist)", async () => {
    const res = await fetch(proxied(worker, `${upstream.base}/redirect`), {
      headers: page(),
      redirect: "manual",
    });
    assert.equal(res.status, 302);
    await res.arrayBuffer();
  });
});

describe("forwarding", () => {
  test("method, body, query and Authorization forwarded; Cookie/Origin/Referer/hop-by-hop stripped", async () => {
    const target = `${upstream.base}/echo?model=gpt&x=a%20b&y=1`;
    const res = await fetch(proxied(worker, target), {
      method: "POST",
      headers: page({
        authorization: "Bearer sk-test-123",
        "x-api-key": "key-456",
        "anthropic-version": "2023-06-01",
        "content-type": "application/json",
        cookie: "session=browser-secret",
        referer: "http://localhost:5173/app/page.html",
        "x-forwarded-for": "203.0.113.9",
        "proxy-authorization": "Basic Zm9vOmJhcg==",
        te: "trailers",
        "x-custom": "kept",
      }),
      body: JSON.stringify({ hello: "world" }),
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("access-control-allow-origin"), PAGE_ORIGIN);
    const echo = await res.json();
    assert.equal(echo.method, "POST");
    assert.equal(echo.url, "/echo?model=gpt&x=a%20b&y=1");
    assert.equal(echo.body, '{"hello":"world"}');
    const h = echo.headers;
    assert.equal(h.authorization, "Bearer sk-test-123");
    assert.equal(h["x-api-key"], "key-456");
    assert.equal(h["anthropic-version"], "2023-06-01");
    assert.equal(h["content-type"], "application/json");
    assert.equal(h["x-custom"], "kept");
    for (const gone of ["cookie", "origin", "referer", "x-forwarded-for", "proxy-authorization", "te"]) {
      assert.equal(h[gone], undefined, `${gone} must not be forwarded`);
    }
    assert.equal(h.host, `127.0.0.1:${upstream.port}`, "Host is the target's, not the proxy's");
  });

  for (const method of ["GET", "PUT", "PATCH", "DELETE", "HEAD"]) {
    test(`${method} is forwarded`, async () => {
      const hasBody = method !== "GET" && method !== "HEAD";
      const res = await fetch(proxied(worker, `${upstream.base}/echo`), {
        method,
        headers: page(hasBody ? { "content-type": "text/plain" } : {}),
        body: hasBody ? `body-of-${method}` : undefined,
      });
      assert.equal(res.status, 200);
      if (method === "HEAD") {
        assert.equal(await res.text(), "");
        return;
      }
      const echo = await res.json();
      assert.equal(echo.method, method);
      assert.equal(echo.body, hasBody ? `body-of-${method}` : "");
    });
  }

  test("response headers kept, Set-Cookie stripped, upstream CORS replaced, exposed to page", async () => {
    const res = await fetch(proxied(worker, `${upstream.base}/status/429`), { headers: page() });
    assert.equal(res.status, 429);
    assert.equal(res.headers.get("retry-after"), "7");
    assert.equal(res.headers.get("x-request-id"), "req_429");
    assert.equal(res.headers.get("x-ratelimit-remaining-requests"), "0");
    assert.equal(res.headers.get("set-cookie"), null);
    assert.equal(res.headers.get("access-control-allow-origin"), PAGE_ORIGIN);
    assert.equal(res.headers.get("access-control-allow-credentials"), null);
    const exposed = res.headers
      .get("access-control-expose-headers")
      .split(",")
      .map((s) => s.trim().toLowerCase());
    for (const h of ["retry-after", "x-request-id", "x-ratelimit-remaining-requests", "anthropic-ratelimit-requests-remaining"]) {
      assert.ok(exposed.includes(h), `${h} exposed: ${exposed}`);
    }
    assert.ok(!exposed.includes("set-cookie"));
    assert.deepEqual(await res.json(), { error: { code: 429, message: "upstream said 429" } });
  });

  for (const code of [401, 500]) {
    test(`status ${code} passes through with its body`, async () => {
      const res = await fetch(proxied(worker, `${upstream.base}/status/${code}`), { headers: page() });
      assert.equal(res.status, code);
      assert.equal(res.headers.get("access-control-allow-origin"), PAGE_ORIGIN);
      assert.equal(res.headers.get("x-request-id"), `req_${code}`);
      assert.deepEqual(await res.json(), { error: { code, message: `upstream said ${code}` } });
    });
  }

  test("gzip-encoded upstream response arrives decodable", async () => {
    const res = await fetch(proxied(worker, `${upstream.base}/gzip`), { headers: page() });
    assert.equal(res.status, 200);
    const json = await res.json();
    assert.equal(json.ok, true);
    assert.equal(json.pad.length, 1000);
  });

  test("unreachable upstream: 502 with a one-line reason", async () => {
    // Port 1 on loopback: nothing listens there.
    const res = await fetch(proxied(worker, "http://127.0.0.1:1/v1"), { headers: page() });
    assert.equal(res.status, 502);
    assert.match(await res.text(), /^proxy: upstream unreachable/);
    assert.equal(res.headers.get("access-control-allow-origin"), PAGE_ORIGIN);
  });
});

describe("streaming", () => {
  /** Read an SSE response, noting when each `data: {"i":N}` event arrived. */
  async function readEvents(res) {
    const reader = res.body.getReader();
    const decoder = new TextDecoder();
    let text = "";
    const seen = []; // [eventIndex, receivedAt]
    for (;;) {
      const { value, done } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
      const now = Date.now();
      for (const m of text.matchAll(/data: \{"i":(\d+)\}/g)) {
        const i = Number(m[1]);
        if (!seen.some(([j]) => j === i)) seen.push([i, now]);
      }
    }
    return { text, seen };
  }

  for (const gzip of [false, true]) {
    test(`SSE chunks arrive one by one, before the upstream has finished${gzip ? " (gzip upstream)" : ""}`, async () => {
      const n = 4;
      const delay = 500;
      const t0 = Date.now();
      const res = await fetch(
        proxied(worker, `${upstream.base}/sse?n=${n}&delay=${delay}${gzip ? "&gzip=1" : ""}`),
        {
          method: "POST",
          headers: page({ accept: "text/event-stream", "content-type": "application/json" }),
          body: JSON.stringify({ stream: true }),
        },
      );
      assert.equal(res.status, 200);
      assert.match(res.headers.get("content-type"), /^text\/event-stream/);
      assert.equal(res.headers.get("x-request-id"), "req_sse");

      const { text, seen } = await readEvents(res);
      const log = upstream.state.sse.at(-1);
      assert.equal(log.sentAt.length, n);
      assert.deepEqual(seen.map(([i]) => i), [0, 1, 2, 3]);
      assert.match(text, /data: \[DONE\]\n\n$/);

      const firstReceived = seen[0][1];
      const lastSent = log.sentAt[n - 1];
      // The first event reached the client long before the upstream sent its last one...
      assert.ok(
        firstReceived < lastSent - delay,
        `first chunk received at +${firstReceived - t0} ms, last sent at +${lastSent - t0} ms`,
      );
      // ...and every event arrived promptly after it was sent (no buffering in the proxy;
      // a buffering proxy would make event 0 lag by ~3 x delay).
      for (const [i, at] of seen) {
        const lag = at - log.sentAt[i];
        assert.ok(lag < delay * 0.8, `event ${i} lagged ${lag} ms`);
      }
    });
  }

  test("client abort mid-stream closes the upstream connection (generation stops)", async () => {
    const ac = new AbortController();
    const res = await fetch(proxied(worker, `${upstream.base}/sse?n=20&delay=200`), {
      headers: page(),
      signal: ac.signal,
    });
    const reader = res.body.getReader();
    const first = await reader.read();
    assert.match(new TextDecoder().decode(first.value), /data: \{"i":0\}/);
    const log = upstream.state.sse.at(-1);
    ac.abort();
    await reader.cancel().catch(() => {});
    const deadline = Date.now() + 3000;
    while (!log.closedAt && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
    assert.ok(log.closedEarly, "upstream saw the connection close before it finished");
    assert.ok(log.sentAt.length < 20);
  });
});

describe("large bodies", () => {
  test("5 MB request body is forwarded and echoed back byte for byte", async () => {
    const body = bytes(5 * 1024 * 1024, 42);
    const res = await fetch(proxied(worker, `${upstream.base}/echo-raw`), {
      method: "POST",
      headers: page({ "content-type": "application/octet-stream" }),
      body,
    });
    assert.equal(res.status, 200);
    assert.equal(res.headers.get("x-received-length"), String(body.length));
    assert.equal(res.headers.get("x-received-sha256"), sha256(body));
    const back = Buffer.from(await res.arrayBuffer());
    assert.equal(back.length, body.length);
    assert.equal(sha256(back), sha256(body));
  });

  test("5 MB response body arrives intact", async () => {
    const n = 5 * 1024 * 1024;
    const res = await fetch(proxied(worker, `${upstream.base}/big?bytes=${n}`), { headers: page() });
    assert.equal(res.status, 200);
    const got = Buffer.from(await res.arrayBuffer());
    assert.equal(got.length, n);
    assert.equal(sha256(got), res.headers.get("x-body-sha256"));
    assert.equal(sha256(got), sha256(bytes(n, 7)));
  });
});
