import type { FastifyError, FastifyInstance } from 'fastify';

/** Largest request body accepted (413 beyond). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

/** A GraphQL-shaped error body, so every client can read every failure the same way. */
export function errorBody(message: string, code: string, requestId?: string) {
  return { errors: [{ message, extensions: requestId === undefined ? { code } : { code, requestId } }] };
}

/** A request refused before GraphQL runs, with a message written for the client (400 BAD_REQUEST unless told). */
export class ClientRequestError extends Error {
  constructor(
    message: string,
    readonly statusCode = 400,
    readonly code = 'BAD_REQUEST',
  ) {
    super(message);
  }
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
    if (error instanceof ClientRequestError) {
      void reply.code(error.statusCode).send(errorBody(error.message, error.code));
      return;
    }
    const status = error.statusCode && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    if (status === 500) {
      request.log.error({ err: error, requestId: request.id }, 'unexpected HTTP error');
      void reply.code(status).send(errorBody(httpErrorMessage(error, status), httpErrorCode(status), request.id));
      return;
    }
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
  if (error.code === 'FST_ERR_CTP_INVALID_CONTENT_LENGTH') return 'request body size did not match Content-Length';
  if (error instanceof SyntaxError || error.code?.startsWith('FST_ERR_CTP')) return 'request body is not valid JSON';
  return 'bad request';
}
