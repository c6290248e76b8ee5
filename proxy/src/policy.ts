/**
 * Pure allowlist / header policy helpers for the proxy (no runtime state, no logging).
 * Kept out of src/index.ts because every named export of a Worker's main module is
 * treated as an entrypoint by the Workers runtime.
 */

// Defaults used when the corresponding var is unset (wrangler.toml sets the same values).
// Closed by default: only pages served from this machine. A deployed proxy serves the
// origins its owner names in ALLOWED_ORIGINS (their own Pages site), never every site.
export const DEFAULT_ALLOWED_ORIGINS = "http://localhost:*,http://127.0.0.1:*,http://[::1]:*";
export const DEFAULT_ALLOWED_HOSTS = [
  "api.openai.com",
  "api.anthropic.com",
  "openrouter.ai",
  "api.deepseek.com",
  "generativelanguage.googleapis.com",
  "api.groq.com",
  "api.mistral.ai",
  "api.together.xyz",
  "api.x.ai",
  "api.fireworks.ai",
].join(",");

export const ALLOWED_METHODS = ["GET", "HEAD", "POST", "PUT", "PATCH", "DELETE", "OPTIONS"];

// Hop-by-hop headers (RFC 9110 §7.6.1) — never forwarded in either direction.
const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
]);

// Request headers that identify the browser page/user or the client network; not forwarded.
const STRIP_REQUEST = new Set([
  "origin",
  "referer",
  "cookie",
  "host",
  "content-length", // recomputed by the runtime from the streamed body
  "x-forwarded-for",
  "x-forwarded-proto",
  "x-forwarded-host",
  "x-real-ip",
  "forwarded",
  "true-client-ip",
  "cf-connecting-ip",
  "cf-connecting-ipv6",
  "cf-ipcountry",
  "cf-ray",
  "cf-visitor",
  "cf-worker",
  "cdn-loop",
]);

// Response headers never passed back to the page.
const STRIP_RESPONSE = new Set(["set-cookie", "set-cookie2"]);

export function splitList(value: string | undefined, fallback: string): string[] {
  return (value ?? fallback)
    .split(",")
    .map((s) => s.trim())
    .filter(Boolean);
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

/**
 * Origin patterns: "*" (anything), "https://app.example.com" (exact, default port),
 * "https://*.github.io" (any subdomain), "http://localhost:*" (any port, or none).
 */
export function originAllowed(origin: string, patterns: string[]): boolean {
  const o = origin.toLowerCase();
  for (const raw of patterns) {
    const p = raw.toLowerCase().replace(/\/+$/, "");
    if (p === "*") return true;
    if (p === o) return true;
    if (!p.includes("*")) continue;
    let re = escapeRegExp(p);
    re = re.replace(/:\\\*$/, "(?::\\d{1,5})?"); // ":*"  -> any port or none
    re = re.replace(/\/\/\\\*\\\./, "//(?:[a-z0-9-]+\\.)+"); // "//*." -> one or more labels
    if (re.includes("\\*")) continue; // other wildcards are not supported
    if (new RegExp(`^${re}$`).test(o)) return true;
  }
  return false;
}

/** Host patterns: "api.openai.com" (default port only), "*.example.com", "host:8443". */
export function hostAllowed(url: URL, patterns: string[]): boolean {
  const host = url.hostname.toLowerCase();
  const port = url.port; // "" when it is the scheme's default
  for (const raw of patterns) {
    const p = raw.toLowerCase();
    const m = /^(.*?)(?::(\d{1,5}))?$/.exec(p);
    if (!m) continue;
    const [, hp, pp = ""] = m;
    if (pp !== port) continue;
    if (hp === host) return true;
    if (hp.startsWith("*.") && host.endsWith(hp.slice(1)) && host.length > hp.length - 1) return true;
  }
  return false;
}

export function isLoopbackHost(hostname: string): boolean {
  const h = hostname.toLowerCase();
  return (
    h === "localhost" ||
    h.endsWith(".localhost") ||
    h === "[::1]" ||
    /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(h)
  );
}


function headerListedInConnection(headers: Headers): Set<string> {
  const listed = new Set<string>();
  for (const token of (headers.get("connection") ?? "").split(",")) {
    const t = token.trim().toLowerCase();
    if (t) listed.add(t);
  }
  return listed;
}

export function forwardableRequestHeaders(incoming: Headers): Headers {
  const connListed = headerListedInConnection(incoming);
  const out = new Headers();
  for (const [name, value] of incoming) {
    const n = name.toLowerCase();
    if (HOP_BY_HOP.has(n) || STRIP_REQUEST.has(n) || connListed.has(n)) continue;
    if (n.startsWith("proxy-")) continue;
    if (n.startsWith("sec-fetch-")) continue; // browser-page metadata, meaningless upstream
    out.append(name, value);
  }
  return out;
}

export function responseHeaderForwardable(name: string): boolean {
  const n = name.toLowerCase();
  if (HOP_BY_HOP.has(n) || STRIP_RESPONSE.has(n) || n.startsWith("proxy-")) return false;
  // The upstream's own CORS headers are replaced by ours.
  if (n.startsWith("access-control-")) return false;
  return true;
}

