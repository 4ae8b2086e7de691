import pino, { type DestinationStream, type Logger } from 'pino';
import pretty from 'pino-pretty';
import type { LogFormat } from './config';

/**
 * The server's logger. In production (stdout not a terminal, or
 * LOG_FORMAT=json) JSON lines: one per request, plus start-up, shutdown and
 * errors. In development (a terminal, or LOG_FORMAT=pretty) the same entries
 * as one readable line each (see `readableLine`). Credentials are redacted
 * wherever they might appear.
 */
export function createLogger(
  level: string,
  format: LogFormat = 'auto',
  /** Where lines go (tests); stdout by default. */
  destination?: DestinationStream,
): Logger {
  const options: pino.LoggerOptions = {
    level,
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', 'authorization', 'token'],
      censor: '[redacted]',
    },
  };
  const terminal = Boolean(process.stdout.isTTY);
  if (format === 'json' || (format === 'auto' && !terminal)) {
    return destination ? pino(options, destination) : pino(options);
  }
  return pino(
    options,
    pretty({
      colorize: terminal && format === 'auto',
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname',
      hideObject: true,
      messageFormat: (log) => readableLine(log),
      destination: destination ?? 1,
      // Written at once, so that the shutdown's last lines are out before the process exits.
      sync: true,
    }),
  );
}

/** What a log line shows besides its level, time and message. */
const SHOWN_BEFORE = new Set(['level', 'time', 'pid', 'hostname', 'msg', 'reqId']);

/**
 * One log entry as one readable line. A request's is its method, path,
 * operation, status, time and cache use, e.g.
 * `POST /graphql query Demo 200 1.52 ms cache miss`; any other entry is its
 * message and then its fields as `key=value` (an error as its message, and
 * for an error or worse its stack on the lines after).
 */
export function readableLine(log: Record<string, unknown>): string {
  if (log.msg === 'request completed') {
    const parts = [text(log.method), text(log.url)];
    if (log.operationType) parts.push(text(log.operationType));
    if (log.operationName) parts.push(text(log.operationName));
    parts.push(text(log.statusCode), `${text(log.durationMs)} ms`);
    if (log.cache) parts.push(`cache ${text(log.cache)}`);
    if (Array.isArray(log.errorCodes)) parts.push(log.errorCodes.map(text).join(','));
    if (log.actor) parts.push(`by ${text(log.actor)}`);
    return parts.join(' ');
  }
  const fields: string[] = [];
  let stack = '';
  for (const [key, value] of Object.entries(log)) {
    if (SHOWN_BEFORE.has(key) || value === undefined) continue;
    if (key === 'err' && value && typeof value === 'object') {
      const err = value as { message?: unknown; stack?: unknown };
      fields.push(`err=${JSON.stringify(err.message)}`);
      if (typeof err.stack === 'string' && Number(log.level) >= 50) stack = `\n${err.stack}`;
      continue;
    }
    fields.push(`${key}=${typeof value === 'string' && !/\s/.test(value) ? value : JSON.stringify(value)}`);
  }
  return [text(log.msg ?? ''), ...fields].join(' ') + stack;
}

/** A field as text: a string as it is, anything else as JSON. */
function text(value: unknown): string {
  return typeof value === 'string' ? value : JSON.stringify(value);
}
