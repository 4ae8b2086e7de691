import pino, { type Logger } from 'pino';

/** The server's logger: JSON lines, with credentials redacted wherever they might appear. */
export function createLogger(level: string): Logger {
  return pino({
    level,
    redact: { paths: ['req.headers.authorization', 'headers.authorization', 'authorization', 'token'], censor: '[redacted]' },
  });
}
