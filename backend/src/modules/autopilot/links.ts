import type { Context } from 'koa';
import { AUTOPILOT_LINK_ACTIONS, AUTOPILOT_MESSAGES, type AutopilotLinkAction, type AutopilotLinkResult, type AutopilotLinkView } from '@app/contracts';
import { verifyLink } from '../../platform/crypto/signed-links';
import { logInFromEmailLink } from '../agents';
import { AUTOPILOT_LINK_PURPOSE } from '../notifications';
import type { AutopilotDeps } from './deps';
import { launchNow, resumeRun, skipRun, WAITING } from './launch';
import { findRun, presentRuns, type RunRow } from './runs';
import { linkExpired, linkInvalid, linkUsed, runMovedOn } from './autopilot.errors';

/**
 * The emailed one-tap links (DESIGN §7): signed (platform/crypto/signed-links.ts), no login needed, each
 * usable once, expiring at the draft's launch time. Opening one shows a page that says what it does
 * (`peekLink`); the page's button uses it (`useLink`), so a mail scanner that follows links changes nothing.
 * Edit, card and confirm log the browser in as the agent (the link went to the agent's address) and lead on.
 */

/** Which run statuses each action applies to. */
const APPLIES: Record<AutopilotLinkAction, readonly string[]> = {
  launch: ['scheduled', ...WAITING],
  edit: ['scheduled'],
  skip: ['scheduled', ...WAITING],
  card: ['scheduled', ...WAITING],
  confirm: ['needs_authentication'],
  resume: ['offered'],
};

async function check(deps: AutopilotDeps, token: string): Promise<{ action: AutopilotLinkAction; run: RunRow }> {
  const link = verifyLink(deps.config, token, AUTOPILOT_LINK_PURPOSE, deps.now?.());
  if (!link.ok) throw link.reason === 'expired' ? linkExpired() : linkInvalid();
  const action = link.claims.action as AutopilotLinkAction;
  if (!AUTOPILOT_LINK_ACTIONS.includes(action)) throw linkInvalid();
  const run = await findRun(deps.db, Number(link.claims.subject));
  if (!run) throw linkInvalid();
  return { action, run };
}

async function used(deps: AutopilotDeps, runId: number, action: AutopilotLinkAction): Promise<boolean> {
  return !!(await deps.db('autopilotLinkUses').where({ runId, action }).first('runId'));
}

/** GET /api/autopilot/links/:token: what the link does, and whether it still can. */
export async function peekLink(deps: AutopilotDeps, token: string): Promise<AutopilotLinkView> {
  const { action, run } = await check(deps, token);
  const [view] = await presentRuns([run]);
  if (await used(deps, run.id, action)) return { action, usable: false, message: AUTOPILOT_MESSAGES.linkUsed, run: view };
  if (!APPLIES[action].includes(run.status)) return { action, usable: false, message: `This ad is ${view.status.replace('_', ' ')}.`, run: view };
  return { action, usable: true, message: null, run: view };
}

/** POST /api/autopilot/links/:token: do what the link says, once. */
export async function useLink(deps: AutopilotDeps, ctx: Context, token: string): Promise<AutopilotLinkResult> {
  const { action, run } = await check(deps, token);
  if (!APPLIES[action].includes(run.status)) throw runMovedOn(`This ad is ${run.status.replace('_', ' ')}.`);
  // Once per run and action, whatever happens next (two taps, two tabs).
  const [first] = await deps.db('autopilotLinkUses').insert({ runId: run.id, action }).onConflict(['runId', 'action']).ignore().returning('runId');
  if (!first) throw linkUsed();
  let after: RunRow = run;
  let message: string;
  let redirect: string | null = null;
  switch (action) {
    case 'launch':
      after = await launchNow(deps, run.id);
      message = after.status === 'launched' ? 'Your ad is launching now.' : 'Your ad could not launch: see why below.';
      break;
    case 'skip':
      after = await skipRun(deps, run.id, 'Skipped from the email');
      message = 'Skipped: this ad will not run, and nothing was charged.';
      break;
    case 'resume':
      after = await resumeRun(deps, run.id);
      message = 'Your ad is running again.';
      break;
    case 'edit':
      await logInFromEmailLink(ctx, run.agentId);
      message = 'Opening your ad in the editor.';
      redirect = `/?edit=${run.campaignId}`;
      break;
    case 'card':
      await logInFromEmailLink(ctx, run.agentId);
      message = 'Add a card to launch your ad.';
      redirect = `/autopilot-card?agent=${run.agentId}`;
      break;
    case 'confirm':
      await logInFromEmailLink(ctx, run.agentId);
      message = 'Confirm the payment with your bank.';
      redirect = `/checkout/${run.campaignId}`;
      break;
  }
  const [view] = await presentRuns([after]);
  return { action, message, redirect, run: view };
}
