import type { FastifyError, FastifyInstance } from 'fastify';

/** Largest request body accepted (413 beyond). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** A GraphQL-shaped error body, so every client can read every failure the same way. */
export function errorBody(message: string, code: string) {
  return { errors: [{ message, extensions: { code } }] };
}

/**
 * JSON errors for everything that fails before GraphQL runs (bad JSON,
 * oversized bodies, unknown routes): never an HTML page or a stack.
 */
export function registerHttpErrorHandlers(fastify: FastifyInstance): void {
  fastify.setNotFoundHandler((request, reply) => {
    void reply.code(404).send(errorBody(`no route ${request.method} ${request.url.split('?')[0]}`, 'NOT_FOUND'));
  });
  fastify.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) request.log.error({ err: error }, 'unexpected HTTP error');
    void reply.code(status).send(errorBody(httpErrorMessage(error, status), httpErrorCode(status)));
  });
}

function httpErrorCode(status: number): string {
  if (status === 500) return 'INTERNAL_SERVER_ERROR';
  if (status === 413) return 'PAYLOAD_TOO_LARGE';
  if (status === 415) return 'UNSUPPORTED_MEDIA_TYPE';
  return 'BAD_REQUEST';
}

function httpErrorMessage(error: FastifyError, status: number): string {
  if (status === 500) return 'Internal server error';
  if (status === 413) return `request body is larger than ${BODY_LIMIT_BYTES} bytes`;
  if (status === 415) return 'unsupported content type; send application/json';
  if (error instanceof SyntaxError || error.code?.startsWith('FST_ERR_CTP')) return 'request body is not valid JSON';
  return 'bad request';
}
