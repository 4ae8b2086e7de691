import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest, FastifyServerOptions } from 'fastify';
import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';

/** Largest request body accepted (413 beyond). */
export const BODY_LIMIT_BYTES = 1024 * 1024;

import { errorBody } from '../engine/error-mapping';

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

/**
 * Fastify's `clientErrorHandler`: what Node's HTTP parser refuses before
 * there is a request at all (headers or URL over the size limit, broken
 * framing such as a bad chunk size or both Content-Length and chunked, a
 * request timeout). Written straight to the socket, in the same GraphQL shape
 * as every other error, then the connection is closed.
 */
export function clientErrorHandler(
  this: { log: { debug(details: object, message: string): void } },
  error: Error & { code?: string },
  socket: Socket,
): void {
  // A reset connection has nobody left to answer.
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message, code] =
    error.code === 'HPE_HEADER_OVERFLOW'
      ? [
          431,
          'request headers (the URL included) are larger than the server accepts',
          'REQUEST_HEADER_FIELDS_TOO_LARGE',
        ]
      : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? [408, 'the request took too long to arrive', 'REQUEST_TIMEOUT']
        : [400, 'malformed HTTP request', 'BAD_REQUEST'];
  this.log.debug({ err: error, status }, 'client error');
  if (socket.writable) {
    const body = JSON.stringify(errorBody(message, code));
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy();
}

/**
 * Fastify's `frameworkErrors`: requests Fastify refuses before routing (a URL
 * whose percent-encoding does not decode, a path parameter over the length
 * limit), in the same shape, with the request id.
 */
export const frameworkErrors: NonNullable<FastifyServerOptions['frameworkErrors']> = (
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
) => {
  void reply.header('x-request-id', request.id);
  if (error.code === 'FST_ERR_BAD_URL') {
    void reply.code(400).send(errorBody('the URL is not valid (bad percent-encoding)', 'BAD_REQUEST'));
  } else if (error.code === 'FST_ERR_MAX_PARAM_LENGTH') {
    void reply.code(414).send(errorBody('the URL is too long', 'URI_TOO_LONG'));
  } else {
    request.log.error({ err: error, requestId: request.id }, 'unexpected HTTP error');
    void reply.code(500).send(errorBody('Internal server error', 'INTERNAL_SERVER_ERROR', request.id));
  }
};
