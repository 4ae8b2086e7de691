import pino, { type Logger } from 'pino';

/**
 * The server's logger: JSON lines (one per request, plus start-up and errors),
 * pretty-printed when stdout is a terminal. Credentials are redacted wherever
 * they might appear.
 */
export function createLogger(level: string, pretty = Boolean(process.stdout.isTTY)): Logger {
  const options: pino.LoggerOptions = {
    level,
    redact: {
      paths: ['req.headers.authorization', 'headers.authorization', 'authorization', 'token'],
      censor: '[redacted]',
    },
  };
  if (!pretty) return pino(options);
  return pino(
    options,
    pino.transport({
      target: 'pino-pretty',
      options: { colorize: true, translateTime: 'SYS:HH:MM:ss.l', ignore: 'pid,hostname' },
    }),
  );
}
