// Start the proxy Worker locally in real workerd (via wrangler's programmatic dev API),
// fully offline: no Cloudflare account, no metrics, no update check, no Request.cf download.
//
//   import { startLocalWorker } from "./scripts/local-worker.mjs";
//   const w = await startLocalWorker({ port: 0, vars: { ALLOW_INSECURE_LOOPBACK: "true" } });
//   await fetch(new URL("/?url=...", w.url));
//   await w.stop();
import { fileURLToPath } from "node:url";
import path from "node:path";
import os from "node:os";
import fs from "node:fs";

export const PROXY_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "..");

/** Environment that keeps wrangler/miniflare from phoning home. Applied before wrangler loads. */
export const OFFLINE_ENV = {
  WRANGLER_SEND_METRICS: "false",
  WRANGLER_SEND_ERROR_REPORTS: "false",
  WRANGLER_HIDE_BANNER: "true", // the banner is what triggers the npm update check
  CLOUDFLARE_CF_FETCH_ENABLED: "false", // don't download Request.cf data from workers.cloudflare.com
  NO_UPDATE_NOTIFIER: "1",
};

for (const [k, v] of Object.entries(OFFLINE_ENV)) process.env[k] ??= v;

/**
 * @param {object} [opts]
 * @param {number} [opts.port=0]            0 = pick a free port
 * @param {string} [opts.host="127.0.0.1"]
 * @param {Record<string,string>} [opts.vars]  override/add [vars] from wrangler.toml
 * @param {{limit:number, period:10|60}} [opts.rateLimit]  add a RATE_LIMITER binding
 * @param {string} [opts.logLevel="error"]
 * @param {boolean} [opts.watch=false]     reload on source/config changes
 * @returns {Promise<{url: URL, port: number, stop: () => Promise<void>}>}
 */
export async function startLocalWorker(opts = {}) {
  const { port = 0, host = "127.0.0.1", vars = {}, rateLimit, logLevel = "error", watch = false } = opts;
  const { unstable_startWorker } = await import("wrangler");

  const bindings = {};
  for (const [k, v] of Object.entries(vars)) bindings[k] = { type: "plain_text", value: String(v) };
  if (rateLimit) {
    bindings.RATE_LIMITER = {
      type: "ratelimit",
      namespace_id: "1001",
      simple: { limit: rateLimit.limit, period: rateLimit.period ?? 60 },
    };
  }

  // Keep wrangler's local state out of the repo and out of other runs' way.
  const persistDir = fs.mkdtempSync(path.join(os.tmpdir(), "wiggum-proxy-"));
  const worker = await unstable_startWorker({
    config: path.join(PROXY_DIR, "wrangler.toml"),
    bindings,
    dev: {
      remote: false,
      server: { hostname: host, port },
      inspector: false,
      watch,
      liveReload: false,
      persist: persistDir,
      logLevel,
      enableContainers: false,
    },
  });
  const url = await worker.url;
  return {
    url,
    port: Number(url.port),
    async stop() {
      await worker.dispose();
      fs.rmSync(persistDir, { recursive: true, force: true });
    },
  };
}
