import {
  agentActivityStatus,
  campaignGoalBadge,
  campaignStatusLabel,
  formatUsd,
  type AdminAgentRow,
  type AdminCampaign,
  type GoalBadgeTone,
} from '@app/contracts';
import { Button, Intent, Tag } from '@blueprintjs/core';
import { Fragment } from 'react';
import { useApiBase } from '../../store/apiBase';
import { useAdminToast } from '../toasts/AdminToaster';
import styles from './AgentsArea.module.css';

const TONE_INTENT: Record<GoalBadgeTone, Intent> = { complete: Intent.SUCCESS, warning: Intent.WARNING, low: Intent.DANGER, active: Intent.PRIMARY };
const CAMPAIGNS_SHOWN = 2;

function CampaignLine({ campaign }: { campaign: AdminCampaign }) {
  const badge = campaignGoalBadge(campaign);
  return (
    <li className={styles.campaign}>
      <span className={styles.campaignName}>{campaign.headline ?? `Campaign #${campaign.id}`}</span>
      <span className={styles.muted}>
        {campaign.impressionsDelivered.toLocaleString('en-US')} / {campaign.impressionsRequested.toLocaleString('en-US')} impressions
      </span>
      {badge && (
        <Tag minimal intent={TONE_INTENT[badge.tone]}>
          {badge.label}
        </Tag>
      )}
      <span className={styles.campaignStatus}>{campaignStatusLabel(campaign.status)}</span>
    </li>
  );
}

/** "Autopilot on · card · 2 scheduled · 3 launched", or "Autopilot off". */
export function autopilotLine(a: AdminAgentRow['autopilot']): string {
  if (!a.enabled) return a.launched ? `Autopilot off · ${a.launched} launched` : 'Autopilot off';
  return ['Autopilot on', a.hasCard ? 'card saved' : 'no card', `${a.scheduled} scheduled`, `${a.launched} launched`].join(' · ');
}

/** An agent's row: who, status and autopilot, the first campaigns, spend, Login As; expanded, all its campaigns. */
export function AgentRow({ agent, expanded, onToggle }: { agent: AdminAgentRow; expanded: boolean; onToggle: () => void }) {
  const toast = useAdminToast();
  const apiBase = useApiBase();
  const status = agentActivityStatus(agent.activeCampaigns);
  const firstCampaigns = agent.campaigns.slice(0, CAMPAIGNS_SHOWN);
  const more = agent.campaigns.length - firstCampaigns.length;
  function loginAs() {
    toast({ title: 'Opening Agent Dashboard', description: `Logging in as ${agent.name}...`, intent: Intent.PRIMARY });
    window.open(`${apiBase}/api/admin/login-as/${agent.id}`, '_blank', 'noopener');
  }
  return (
    <Fragment>
      <tr data-testid="admin-agent-row">
        <td>
          <Button
            variant="minimal"
            size="small"
            icon={expanded ? 'chevron-down' : 'chevron-right'}
            aria-label={expanded ? `Hide campaigns of ${agent.name}` : `Show campaigns of ${agent.name}`}
            aria-expanded={expanded}
            onClick={onToggle}
          />
        </td>
        <td>
          <div className={styles.name}>{agent.name}</div>
          <div className={styles.muted}>{agent.email ?? '—'}</div>
        </td>
        <td>
          <span className={status === 'Active' ? styles.statusActive : styles.statusInactive}>{status}</span>
          <div className={styles.muted} data-testid="admin-agent-autopilot">
            {autopilotLine(agent.autopilot)}
          </div>
        </td>
        <td>
          {firstCampaigns.length === 0 ? (
            <span className={styles.muted}>No campaigns</span>
          ) : (
            <ul className={styles.campaigns}>
              {firstCampaigns.map((c) => (
                <CampaignLine key={c.id} campaign={c} />
              ))}
              {more > 0 && <li className={styles.muted}>+{more} more</li>}
            </ul>
          )}
        </td>
        <td className={styles.num}>
          {agent.activeCampaigns} / {agent.totalCampaigns}
        </td>
        <td className={styles.num}>{formatUsd(agent.totalSpent)}</td>
        <td>{new Date(agent.createdAt).toLocaleDateString('en-US')}</td>
        <td>
          <Button size="small" icon="log-in" onClick={loginAs}>
            Login As
          </Button>
        </td>
      </tr>
      {expanded && (
        <tr className={styles.details}>
          <td />
          <td colSpan={7}>
            {agent.campaigns.length === 0 ? (
              <span className={styles.muted}>No campaigns</span>
            ) : (
              <ul className={styles.campaigns} aria-label={`Campaigns of ${agent.name}`}>
                {agent.campaigns.map((c) => (
                  <CampaignLine key={c.id} campaign={c} />
                ))}
              </ul>
            )}
          </td>
        </tr>
      )}
    </Fragment>
  );
}
