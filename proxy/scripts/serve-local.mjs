#!/usr/bin/env node
// Run the proxy Worker locally in real workerd, offline, and print one ready line:
//
//   node proxy/scripts/serve-local.mjs --port 8787 --var ALLOWED_ORIGINS=http://127.0.0.1:* \
//        --var ALLOW_INSECURE_LOOPBACK=true
//   -> wiggum-proxy ready http://127.0.0.1:8787/
//
// Options:
//   --port N            port to listen on (default 8787; 0 = pick a free one, see the ready line)
//   --host H            address to bind (default 127.0.0.1)
//   --var K=V           set/override a [vars] entry from wrangler.toml (repeatable)
//   --rate-limit N[/P]  add the optional RATE_LIMITER binding: N requests per P seconds (P = 10 or 60)
//   --watch             reload when src/ or wrangler.toml change
//   --log-level L       wrangler log level: none|error|warn|info|log|debug (default warn;
//                       "info" logs request lines, which include the target URL)
// Stops cleanly on SIGINT/SIGTERM (and when its stdin closes, if --exit-on-stdin-close).
import { startLocalWorker } from "./local-worker.mjs";

function usage(msg) {
  if (msg) process.stderr.write(`serve-local: ${msg}\n`);
  process.stderr.write(
    "usage: serve-local.mjs [--port N] [--host H] [--var K=V]... [--rate-limit N[/10|/60]] [--watch] [--log-level L]\n",
  );
  process.exit(2);
}

const opts = { port: 8787, host: "127.0.0.1", vars: {}, logLevel: "warn", watch: false };
let exitOnStdinClose = false;
const argv = process.argv.slice(2);
for (let i = 0; i < argv.length; i++) {
  const arg = argv[i];
  const [flag, inline] = arg.startsWith("--") && arg.includes("=") && !arg.startsWith("--var=")
    ? [arg.slice(0, arg.indexOf("=")), arg.slice(arg.indexOf("=") + 1)]
    : arg.startsWith("--var=") ? ["--var", arg.slice(6)] : [arg, undefined];
  const value = () => {
    if (inline !== undefined) return inline;
    if (i + 1 >= argv.length) usage(`${flag} needs a value`);
    return argv[++i];
  };
  switch (flag) {
    case "--port": {
      const p = Number(value());
      if (!Number.isInteger(p) || p < 0 || p > 65535) usage("bad --port");
      opts.port = p;
      break;
    }
    case "--host":
    case "--ip":
      opts.host = value();
      break;
    case "--var": {
      const kv = value();
      const eq = kv.indexOf("=");
      if (eq <= 0) usage(`--var expects K=V, got ${JSON.stringify(kv)}`);
      opts.vars[kv.slice(0, eq)] = kv.slice(eq + 1);
      break;
    }
    case "--rate-limit": {
      const m = /^(\d+)(?:\/(10|60))?$/.exec(value());
      if (!m) usage("--rate-limit expects N or N/10 or N/60");
      opts.rateLimit = { limit: Number(m[1]), period: Number(m[2] ?? 60) };
      break;
    }
    case "--watch":
      opts.watch = true;
      break;
    case "--log-level":
      opts.logLevel = value();
      break;
    case "--exit-on-stdin-close":
      exitOnStdinClose = true;
      break;
    case "-h":
    case "--help":
      usage();
      break;
    default:
      usage(`unknown argument ${JSON.stringify(arg)}`);
  }
}

let worker;
try {
  worker = await startLocalWorker(opts);
} catch (err) {
  process.stderr.write(`serve-local: failed to start: ${err?.stack ?? err}\n`);
  process.exit(1);
}
process.stdout.write(`wiggum-proxy ready ${worker.url.href}\n`);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  try {
    await worker.stop();
  } finally {
    process.exit(0);
  }
}
process.on("SIGINT", stop);
process.on("SIGTERM", stop);
if (exitOnStdinClose) {
  process.stdin.resume();
  process.stdin.on("end", stop);
  process.stdin.on("close", stop);
}
