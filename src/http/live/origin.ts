import type { IncomingHttpHeaders } from 'node:http';

/**
 * Whether a request that opens a live connection (a WebSocket upgrade, an
 * event stream) may come from the browser origin it names. Browsers always
 * send `Origin` on these, and a page cannot forge it, so a page on another
 * site cannot use a visitor's browser (and its network position) to read the
 * registry: cross-site WebSocket hijacking. Allowed: no Origin (not a browser:
 * a service, the CLI), the server's own origin (same host as the request's
 * Host header), and the CORS_ORIGINS list.
 */
export function originAllowed(headers: IncomingHttpHeaders, corsOrigins: ReadonlySet<string>): boolean {
  const origin = headers.origin;
  if (origin === undefined) return true;
  if (corsOrigins.has(origin)) return true;
  let host: string;
  try {
    host = new URL(origin).host;
  } catch {
    return false; // "null" (a sandboxed page, a file) or garbage: no origin of ours
  }
  return host !== '' && host === headers.host;
}
