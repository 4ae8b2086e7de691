import fastifyCors from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

/** Response headers a browser script on an allowed origin may read. */
const EXPOSED_HEADERS = ['x-request-id', 'x-registry-cache', 'etag', 'retry-after'];

/** How long a browser may keep a preflight's answer before asking again. */
const PREFLIGHT_MAX_AGE_SECONDS = 600;

/**
 * Cross-origin access for browser clients (CORS_ORIGINS), through
 * @fastify/cors: a request whose Origin is one of `origins` gets
 * Access-Control-Allow-Origin with that origin, preflights included (GET and
 * POST, whatever request headers the client asks for: content-type,
 * authorization, apollo-require-preflight); any other origin gets no CORS
 * header at all, so its browser keeps the answer from the page. With no
 * origins configured the plugin is not registered: no CORS headers.
 * Authorization is a bearer token, never a cookie, so credentials stay off.
 */
export async function registerCors(fastify: FastifyInstance, origins: readonly string[]): Promise<void> {
  if (origins.length === 0) return;
  const allowed = new Set(origins);
  await fastify.register(fastifyCors, {
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin) ? origin : false),
    methods: ['GET', 'POST'],
    exposedHeaders: EXPOSED_HEADERS,
    maxAge: PREFLIGHT_MAX_AGE_SECONDS,
    // An OPTIONS request from an allowed origin that is not a full preflight gets the headers too, not a text/plain 400.
    strictPreflight: false,
  });
}
