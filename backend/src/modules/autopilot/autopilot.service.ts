import type { AutopilotRunView, AutopilotSettingsInput, AutopilotView } from '@app/contracts';
import type { Actor } from '../../platform/auth/actor';
import { getAccessibleAgent } from '../agents';
import { savedCardOf } from '../payments';
import type { AutopilotDeps } from './deps';
import { launchNow, resumeRun, skipRun } from './launch';
import { agentRuns, findRun, presentRuns } from './runs';
import { loadSettings, saveSettings } from './settings';
import { needsMlsAgent, runNotFound } from './autopilot.errors';

type Agent = Awaited<ReturnType<typeof getAccessibleAgent>>;

const mlsLinked = (agent: Agent) => agent.source === 'mls' && !!agent.mlsId;

async function viewOf(deps: AutopilotDeps, agent: Agent): Promise<AutopilotView> {
  const [settings, card, runs] = await Promise.all([loadSettings(deps.db, agent.id), savedCardOf(deps.db, agent.id), agentRuns(deps.db, agent.id)]);
  const [scheduled, history] = await Promise.all([presentRuns(runs.scheduled), presentRuns(runs.history)]);
  return { settings, mlsLinked: mlsLinked(agent), card, scheduled, history };
}

/** GET /api/agents/:id/autopilot: the settings, the saved card, the scheduled drafts and the history. Owner only. */
export async function autopilotView(deps: AutopilotDeps, actor: Actor, agentId: number): Promise<AutopilotView> {
  return viewOf(deps, await getAccessibleAgent(actor, agentId, 'signed_in'));
}

/** PUT /api/agents/:id/autopilot: any subset of the settings. Autopilot needs the agent's MLS identity to turn on. */
export async function updateAutopilot(deps: AutopilotDeps, actor: Actor, agentId: number, input: AutopilotSettingsInput): Promise<AutopilotView> {
  const agent = await getAccessibleAgent(actor, agentId, 'signed_in');
  if (input.enabled && !mlsLinked(agent)) throw needsMlsAgent();
  await saveSettings(deps.db, agent.id, input);
  deps.logger.info({ agentId: agent.id, enabled: input.enabled }, 'autopilot settings saved');
  return viewOf(deps, agent);
}

/** The dashboard's buttons on a run: Launch now, Skip, Resume. Owner only; another agent's run is a 404. */
export async function actOnRun(deps: AutopilotDeps, actor: Actor, agentId: number, runId: number, action: 'launch' | 'skip' | 'resume'): Promise<AutopilotRunView> {
  const agent = await getAccessibleAgent(actor, agentId, 'signed_in');
  const run = await findRun(deps.db, runId);
  if (!run || run.agentId !== agent.id) throw runNotFound();
  const after = action === 'launch' ? await launchNow(deps, run.id) : action === 'skip' ? await skipRun(deps, run.id, 'Skipped from the dashboard') : await resumeRun(deps, run.id);
  return (await presentRuns([after]))[0];
}
