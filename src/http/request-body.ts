import type { FastifyInstance, FastifyRequest, preValidationHookHandler } from 'fastify';
import { ClientRequestError } from './http-errors';
import { bodyTextSlot } from '../engine/request-state';

/**
 * How deep a request's JSON may nest: the body object is level 1, its
 * `variables` level 2. The schema's deepest input is far shallower; the limit
 * is there so that nothing downstream (JSON.stringify in the response cache's
 * key, the cost estimate's memo, Apollo) can overflow the stack on a small,
 * deeply nested body.
 */
export const MAX_JSON_DEPTH = 64;

/** Decodes UTF-8 and throws on any invalid byte sequence, instead of putting U+FFFD in its place. */
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * JSON request bodies: the raw bytes must be valid UTF-8, and the text must
 * nest no deeper than MAX_JSON_DEPTH, both checked before the text is parsed
 * (by Fastify's own parser, which also refuses `__proto__` keys). Each
 * failure is a 400 BAD_REQUEST that says which.
 */
export function registerJsonBodyParser(fastify: FastifyInstance): void {
  const parseJson = fastify.getDefaultJsonParser('error', 'error');
  fastify.addContentTypeParser('application/json', { parseAs: 'buffer' }, (request, body, done) => {
    let text: string;
    try {
      text = strictUtf8.decode(body as Buffer);
    } catch {
      done(new ClientRequestError('request body is not valid UTF-8'), undefined);
      return;
    }
    if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
      done(new ClientRequestError(`request body is nested deeper than ${MAX_JSON_DEPTH} levels`), undefined);
      return;
    }
    bodyTextSlot.set(request, text);
    // Fastify's own parser calls done itself (synchronously); it returns nothing.
    void parseJson(request, text, done);
  });
}

/**
 * For GET /graphql: the JSON-valued parameters (`variables`, `extensions`)
 * nest no deeper than MAX_JSON_DEPTH either (a 12 KB URL holds 6,000 levels).
 */
export const checkGetParameters: preValidationHookHandler = (request: FastifyRequest, _reply, done) => {
  const query = request.query as Record<string, unknown> | undefined;
  for (const name of ['variables', 'extensions']) {
    const values = query?.[name];
    for (const value of Array.isArray(values) ? values : [values]) {
      if (typeof value === 'string' && nestsDeeperThan(value, MAX_JSON_DEPTH)) {
        done(new ClientRequestError(`${name} are nested deeper than ${MAX_JSON_DEPTH} levels`));
        return;
      }
    }
  }
  done();
};

/**
 * Whether JSON text opens more than `limit` arrays or objects inside one
 * another, counted in one pass without recursion. Brackets inside strings do
 * not count. The text need not be valid JSON: the parser judges that after.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === BACKSLASH) i++;
      else if (c === QUOTE) inString = false;
    } else if (c === QUOTE) inString = true;
    else if (c === OPEN_BRACE || c === OPEN_BRACKET) {
      if (++depth > limit) return true;
    } else if (c === CLOSE_BRACE || c === CLOSE_BRACKET) depth--;
  }
  return false;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const CLOSE_BRACE = 0x7d;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACKET = 0x5d;
