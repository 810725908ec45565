import { AUTOPILOT_EXPIRY_HOURS } from '@app/contracts';
import type { Config } from '../../platform/config';
import type { Db } from '../../platform/db/knex';
import type { Logger } from '../../platform/logger';
import type { Queue } from '../../platform/jobs/queue';
import { createPaymentProviders, type PaymentProviders } from '../payments';
import { createMlsProvider, type MlsProvider } from '../mls';

/** What autopilot's commands run with: the app's parts, the payment providers and the MLS (through their doors). */
export interface AutopilotDeps {
  db: Db;
  config: Config;
  logger: Logger;
  queue: Pick<Queue, 'send' | 'sendMany' | 'publish'>;
  payments: PaymentProviders;
  mls: MlsProvider;
  /** The clock (tests). */
  now?: () => Date;
}

const providers = new WeakMap<Config, { payments: PaymentProviders; mls: MlsProvider }>();

/** The deps for a job or a route: the providers are made once per configuration and process. */
export function autopilotDeps(base: { db: Db; config: Config; logger: Logger; queue: Pick<Queue, 'send' | 'sendMany' | 'publish'> }): AutopilotDeps {
  let made = providers.get(base.config);
  if (!made) {
    const log = base.logger.child({ module: 'autopilot' });
    made = { payments: createPaymentProviders(base.config, base.db, log), mls: createMlsProvider(base.config, base.db, log) };
    providers.set(base.config, made);
  }
  return { ...base, ...made };
}

export const nowOf = (deps: Pick<AutopilotDeps, 'now'>) => (deps.now ? deps.now() : new Date());

/** Hours of autopilot time in milliseconds: AUTOPILOT_TIME_SCALE shortens them in tests (production: 1). */
export const scaledMs = (config: Pick<Config, 'AUTOPILOT_TIME_SCALE'>, hours: number) => Math.round(hours * 3_600_000 * config.AUTOPILOT_TIME_SCALE);

/** When a draft detected at `detectedAt` launches, and when it expires unpaid (72 h after its launch time). */
export function draftTimes(config: Pick<Config, 'AUTOPILOT_TIME_SCALE'>, detectedAt: Date, windowHours: number): { launchAt: Date; expiresAt: Date } {
  const launchAt = new Date(detectedAt.getTime() + scaledMs(config, windowHours));
  return { launchAt, expiresAt: new Date(launchAt.getTime() + scaledMs(config, AUTOPILOT_EXPIRY_HOURS)) };
}
