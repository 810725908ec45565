import type { Config } from '../../../platform/config';
import { signLink } from '../../../platform/crypto/signed-links';
import { publicOrigin, type AutopilotLinkMaker } from './templates';

/** The purpose autopilot's signed links carry (platform/crypto/signed-links.ts); the autopilot module verifies it. */
export const AUTOPILOT_LINK_PURPOSE = 'autopilot';

/**
 * Autopilot's links, signed when the email is sent (no bearer link is stored with the message):
 * `/autopilot/<token>`, a page that says what the link does and asks before doing it.
 */
export function autopilotLinkMaker(config: Config): AutopilotLinkMaker {
  return (runId, action, expiresAt) =>
    `${publicOrigin(config)}/autopilot/${signLink(config, { purpose: AUTOPILOT_LINK_PURPOSE, subject: String(runId), action, expiresAt: Date.parse(expiresAt) / 1000 })}`;
}
