import pino from 'pino';

/** Keys whose values never reach a log line. */
const REDACT = [
  'req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]',
  '*.password', '*.passwordHash', '*.webhookSecret', '*.crmApiKey', '*.clientSecret', '*.apiKey', '*.token',
];

export type Logger = pino.Logger;

/**
 * JSON lines on stdout. Written asynchronously: lines logged while a write is in flight go out together in
 * the next one, so under load the access log costs a write now and then instead of one per request (a
 * system call per request halved what a small API read could serve). When idle, each line is written at once;
 * at exit pino flushes what is left synchronously.
 */
export function createLogger(level: string, name = 'listing-ads'): Logger {
  return pino({ name, level, redact: { paths: REDACT, censor: '[redacted]' } }, pino.destination({ dest: 1, sync: false }));
}
