// Shared test helpers (kept outside test/ so node --test does not run this file as a test): a real local upstream HTTP server (node:http) and the proxy Worker
// running in real workerd (see scripts/local-worker.mjs). Everything listens on 127.0.0.1:0.
import http from "node:http";
import crypto from "node:crypto";
import zlib from "node:zlib";
import { startLocalWorker } from "../scripts/local-worker.mjs";

export { startLocalWorker };

export const PAGE_ORIGIN = "http://localhost:5173";

export function sha256(buf) {
  return crypto.createHash("sha256").update(buf).digest("hex");
}

/** Deterministic pseudo-random bytes (so a corrupted byte anywhere changes the hash). */
export function bytes(n, seed = 1) {
  const out = Buffer.allocUnsafe(n);
  let x = seed >>> 0 || 1;
  for (let i = 0; i < n; i++) {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    out[i] = x & 0xff;
  }
  return out;
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function readBody(req) {
  return new Promise((resolve, reject) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
    req.on("error", reject);
  });
}

/**
 * Upstream test server. Routes:
 *   /echo            -> JSON {method, url, headers, body(utf8), bodyLength, bodySha256}
 *   /echo-raw        -> the request body, byte for byte (application/octet-stream)
 *   /sse?n=&delay=[&gzip=1] -> n SSE events, `delay` ms apart; send times recorded in state.sse
 *   /status/<code>   -> that status with provider-like headers (429 carries Retry-After: 7)
 *   /big?bytes=N     -> N deterministic bytes, x-body-sha256 header
 *   /gzip            -> gzip-encoded JSON (Content-Encoding: gzip)
 *   /redirect        -> 302 to an off-allowlist host
 */
export async function startUpstream() {
  const state = { requests: 0, sse: [] };
  const server = http.createServer(async (req, res) => {
    state.requests++;
    const u = new URL(req.url, "http://upstream.test");
    try {
      if (u.pathname === "/echo") {
        const body = await readBody(req);
        const json = JSON.stringify({
          method: req.method,
          url: req.url,
          headers: req.headers,
          body: body.toString("utf8"),
          bodyLength: body.length,
          bodySha256: sha256(body),
        });
        res.writeHead(200, { "content-type": "application/json", "x-request-id": "req_echo" });
        res.end(json);
      } else if (u.pathname === "/echo-raw") {
        const body = await readBody(req);
        res.writeHead(200, {
          "content-type": "application/octet-stream",
          "content-length": body.length,
          "x-received-length": String(body.length),
          "x-received-sha256": sha256(body),
          "x-received-transfer-encoding": req.headers["transfer-encoding"] ?? "",
          "x-received-content-length": req.headers["content-length"] ?? "",
        });
        res.end(body);
      } else if (u.pathname === "/sse") {
        // ?gzip=1 compresses the stream (Content-Encoding: gzip), flushing after every event.
        const n = Number(u.searchParams.get("n") ?? 4);
        const delay = Number(u.searchParams.get("delay") ?? 500);
        const gzip = u.searchParams.get("gzip") === "1";
        const log = { sentAt: [], finishedAt: 0, closedEarly: false, closedAt: 0 };
        state.sse.push(log);
        let closed = false;
        res.on("close", () => {
          closed = true;
          log.closedAt = Date.now();
          if (!log.finishedAt) log.closedEarly = true;
        });
        res.writeHead(200, {
          "content-type": "text/event-stream",
          "cache-control": "no-cache",
          "x-request-id": "req_sse",
          ...(gzip ? { "content-encoding": "gzip" } : {}),
        });
        res.flushHeaders();
        let out = res;
        if (gzip) {
          out = zlib.createGzip();
          out.pipe(res);
        }
        const send = (text) =>
          new Promise((resolve) => {
            out.write(text);
            if (gzip) out.flush(zlib.constants.Z_SYNC_FLUSH, resolve);
            else resolve();
          });
        for (let i = 0; i < n && !closed; i++) {
          if (i > 0) await sleep(delay);
          if (closed) break;
          log.sentAt.push(Date.now());
          await send(`data: {"i":${i}}\n\n`);
        }
        if (!closed) {
          log.finishedAt = Date.now();
          out.end("data: [DONE]\n\n");
        }
      } else if (u.pathname.startsWith("/status/")) {
        const code = Number(u.pathname.split("/")[2]);
        const headers = {
          "content-type": "application/json",
          "x-request-id": `req_${code}`,
          "x-ratelimit-remaining-requests": "0",
          "anthropic-ratelimit-requests-remaining": "0",
          "set-cookie": "session=upstream-secret; Path=/; HttpOnly",
          "access-control-allow-origin": "*", // upstream's own CORS: must be replaced
          "access-control-allow-credentials": "true",
        };
        if (code === 429) headers["retry-after"] = "7";
        res.writeHead(code, headers);
        res.end(JSON.stringify({ error: { code, message: `upstream said ${code}` } }));
      } else if (u.pathname === "/big") {
        const n = Number(u.searchParams.get("bytes"));
        const body = bytes(n, 7);
        res.writeHead(200, {
          "content-type": "application/octet-stream",
          "content-length": n,
          "x-body-sha256": sha256(body),
        });
        res.end(body);
      } else if (u.pathname === "/gzip") {
        const body = zlib.gzipSync(JSON.stringify({ ok: true, pad: "x".repeat(1000) }));
        res.writeHead(200, {
          "content-type": "application/json",
          "content-encoding": "gzip",
          "content-length": body.length,
        });
        res.end(body);
      } else if (u.pathname === "/redirect") {
        res.writeHead(302, { location: "https://example.com/elsewhere" });
        res.end();
      } else {
        res.writeHead(404, { "content-type": "text/plain" });
        res.end("no such upstream route");
      }
    } catch (err) {
      res.destroy(err);
    }
  });
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  const { port } = server.address();
  return {
    state,
    port,
    base: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections?.();
        server.close(() => r());
      }),
  };
}

/** URL of the proxy for a given target. */
export function proxied(worker, target) {
  return new URL(`/?url=${encodeURIComponent(target)}`, worker.url).href;
}
