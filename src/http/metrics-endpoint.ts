import type { FastifyInstance } from 'fastify';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { Metrics } from '../observability/metrics';
import { errorBody } from '../engine/error-mapping';

/**
 * `GET /metrics`: the Prometheus text exposition (METRICS=true). With
 * METRICS_TOKEN set, a scrape must send it as `Authorization: Bearer <token>`
 * (compared in constant time, through digests); anything else is a 401.
 */
export function registerMetricsEndpoint(fastify: FastifyInstance, metrics: Metrics, token: string | null): void {
  const expected = token === null ? null : digest(token);
  fastify.get('/metrics', async (request, reply) => {
    if (expected !== null) {
      const given = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(request.headers.authorization ?? '')?.[1];
      if (given === undefined || !timingSafeEqual(digest(given), expected)) {
        return reply
          .code(401)
          .header('www-authenticate', 'Bearer realm="metrics"')
          .send(errorBody('GET /metrics needs the METRICS_TOKEN as a bearer token', 'UNAUTHENTICATED'));
      }
    }
    return reply.type(metrics.contentType).send(await metrics.exposition());
  });
}

function digest(token: string): Buffer {
  return createHash('sha256').update(token, 'utf8').digest();
}
