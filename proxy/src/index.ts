/**
 * Wiggum CORS proxy — a tiny, allowlisted, streaming CORS proxy for Cloudflare Workers.
 *
 *   <METHOD> /?url=<encodeURIComponent(target URL)>
 *
 * Forwards method, headers and body to the target and streams the upstream response
 * back unbuffered, adding CORS headers for allowed page origins. It is NOT an open
 * proxy: the page origin and the target host must both be on an allowlist taken from
 * Worker configuration (see wrangler.toml and README.md).
 *
 * Privacy: this Worker never logs anything — no console.* calls at all, so neither
 * request bodies nor Authorization headers can end up in logs.
 */
import { Hono } from "hono";
import type { Context } from "hono";
import { cors } from "hono/cors";
import {
  ALLOWED_METHODS,
  DEFAULT_ALLOWED_HOSTS,
  DEFAULT_ALLOWED_ORIGINS,
  forwardableRequestHeaders,
  hostAllowed,
  isLoopbackHost,
  originAllowed,
  responseHeaderForwardable,
  splitList,
} from "./policy";

/** Minimal shape of Cloudflare's rate-limiting binding (`[[ratelimits]]` in wrangler.toml). */
interface RateLimitBinding {
  limit(options: { key: string }): Promise<{ success: boolean }>;
}

interface Env {
  /** Comma-separated page origins, e.g. "https://me.github.io,http://localhost:*". */
  ALLOWED_ORIGINS?: string;
  /** Comma-separated target hosts, e.g. "api.openai.com,*.example.com". */
  ALLOWED_HOSTS?: string;
  /** "true": also allow http(s) targets on loopback (127.0.0.0/8, localhost, [::1]) — tests only. */
  ALLOW_INSECURE_LOOPBACK?: string;
  /** "true": also serve requests that carry no Origin header (curl, scripts). Default: refuse. */
  ALLOW_NO_ORIGIN?: string;
  /** Optional Cloudflare rate-limiting binding; used only when configured. */
  RATE_LIMITER?: RateLimitBinding;
}

type AppEnv = { Bindings: Env };
type Ctx = Context<AppEnv>;

/** A proxy-generated refusal: one plain-text line. CORS headers are added by the middleware. */
function refuse(status: 400 | 403 | 404 | 405 | 429 | 502, reason: string): Response {
  return new Response(`proxy: ${reason}\n`, {
    status,
    headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-store" },
  });
}

function originPatterns(env: Env): string[] {
  return splitList(env?.ALLOWED_ORIGINS, DEFAULT_ALLOWED_ORIGINS);
}

function requestOrigin(c: Ctx): string | undefined {
  return c.req.header("origin") || undefined;
}

const app = new Hono<AppEnv>();

// A refused origin may read why (and which variable lets it in), nothing more: the
// refusal is a 403, so a CORS preflight fails and the browser never sends the real
// request (or its API key); a simple GET, the page's probe, can read the text.
function refuseOrigin(origin: string): Response {
  const res = refuse(
    403,
    `origin not allowed: ${origin} (add it to the proxy's ALLOWED_ORIGINS and deploy again)`,
  );
  res.headers.set("access-control-allow-origin", origin);
  res.headers.set("vary", "Origin");
  return res;
}

// 1) Origin gate — before CORS, so a refused origin is never forwarded anything.
app.use("*", async (c, next) => {
  const origin = requestOrigin(c);
  if (origin === undefined) {
    if (c.env?.ALLOW_NO_ORIGIN === "true") return next();
    return refuse(403, "missing Origin header (browser requests only)");
  }
  if (!originAllowed(origin, originPatterns(c.env))) return refuseOrigin(origin);
  return next();
});

// 2) CORS — answers preflight (OPTIONS) and decorates every later response, refusals included.
app.use(
  "*",
  cors({
    origin: (origin, c) => (origin && originAllowed(origin, originPatterns(c.env)) ? origin : null),
    allowMethods: ALLOWED_METHODS,
    allowHeaders: [], // empty => reflect Access-Control-Request-Headers
    maxAge: 86400,
    credentials: false,
  }),
);

// 3) Optional rate limiting through Cloudflare's rate-limiting binding.
app.use("*", async (c, next) => {
  const limiter = c.env?.RATE_LIMITER;
  if (limiter && typeof limiter.limit === "function") {
    const key = c.req.header("cf-connecting-ip") || requestOrigin(c) || "anonymous";
    const { success } = await limiter.limit({ key });
    if (!success) return refuse(429, "rate limit exceeded");
  }
  return next();
});

// 4) The proxy itself.
app.all("/", async (c) => {
  const env = c.env ?? {};
  const method = c.req.method.toUpperCase();
  if (!ALLOWED_METHODS.includes(method)) return refuse(405, `method ${method} not allowed`);

  const params = new URL(c.req.url).searchParams;
  const rawTarget = params.get("url");
  if (rawTarget === null || rawTarget.trim() === "") return refuse(400, "missing url parameter");

  let target: URL;
  try {
    target = new URL(rawTarget.trim());
  } catch {
    return refuse(400, "malformed url parameter (must be an absolute, URL-encoded https URL)");
  }
  if (target.protocol !== "https:" && target.protocol !== "http:") {
    return refuse(400, "only https targets are allowed");
  }
  if (target.username || target.password) return refuse(400, "credentials in url are not allowed");

  const loopbackOk = env.ALLOW_INSECURE_LOOPBACK === "true" && isLoopbackHost(target.hostname);
  if (target.protocol !== "https:" && !loopbackOk) return refuse(400, "only https targets are allowed");
  if (!loopbackOk && !hostAllowed(target, splitList(env.ALLOWED_HOSTS, DEFAULT_ALLOWED_HOSTS))) {
    return refuse(403, `host not allowed: ${target.hostname}`);
  }
  target.hash = "";

  const outHeaders = forwardableRequestHeaders(c.req.raw.headers);
  const hasBody = method !== "GET" && method !== "HEAD" && c.req.raw.body !== null;

  let upstream: Response;
  try {
    upstream = await fetch(target.toString(), {
      method,
      headers: outHeaders,
      body: hasBody ? c.req.raw.body : undefined,
      // Never follow redirects here: a redirect could lead to a host outside the allowlist.
      redirect: "manual",
    });
  } catch {
    return refuse(502, `upstream unreachable: ${target.hostname}`);
  }

  const headers = new Headers();
  const exposed: string[] = [];
  for (const [name, value] of upstream.headers) {
    if (!responseHeaderForwardable(name)) continue;
    headers.append(name, value);
    if (!exposed.includes(name)) exposed.push(name);
  }
  if (exposed.length) headers.set("access-control-expose-headers", exposed.join(", "));

  // Pass the body stream straight through: no buffering, SSE chunks flow as they arrive.
  return new Response(method === "HEAD" ? null : upstream.body, {
    status: upstream.status,
    statusText: upstream.statusText,
    headers,
  });
});

app.notFound(() => refuse(404, "not found (use /?url=<encoded target URL>)"));
app.onError(() => refuse(502, "proxy error"));

export default app;
