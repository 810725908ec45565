import pino from 'pino';

/** Keys whose values never reach a log line. */
const REDACT = [
  'req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]',
  '*.password', '*.passwordHash', '*.webhookSecret', '*.crmApiKey', '*.clientSecret', '*.apiKey', '*.token',
];

export type Logger = pino.Logger;

export function createLogger(level: string, name = 'listing-ads'): Logger {
  return pino({ name, level, redact: { paths: REDACT, censor: '[redacted]' } });
}
