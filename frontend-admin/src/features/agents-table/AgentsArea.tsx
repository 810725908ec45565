import {
  ADMIN_PAGE_SIZE_DEFAULT,
  agentActivityStatus,
  campaignGoalBadge,
  campaignStatusLabel,
  formatUsd,
  type AdminAgentRow,
  type AdminAgentsQueryInput,
  type AdminCampaign,
  type GoalBadgeTone,
} from '@app/contracts';
import { Button, ButtonGroup, Card, H4, HTMLSelect, HTMLTable, InputGroup, Intent, NonIdealState, Spinner, Tag } from '@blueprintjs/core';
import { VisuallyHidden } from '@app/ui';
import { Fragment, useDeferredValue, useState } from 'react';
import { errorText } from '../../store/api';
import { useApiBase } from '../admin-dashboard/apiBase';
import { useAdminToast } from '../toasts/AdminToaster';
import { useAdminAgentsQuery } from './adminAgentsApi';
import styles from './AgentsArea.module.css';

const TONE_INTENT: Record<GoalBadgeTone, Intent> = { complete: Intent.SUCCESS, warning: Intent.WARNING, low: Intent.DANGER, active: Intent.PRIMARY };
const CAMPAIGNS_SHOWN = 2;

type Filters = Required<Pick<AdminAgentsQueryInput, 'status' | 'campaigns' | 'created' | 'search'>>;
const NO_FILTERS: Filters = { status: 'all', campaigns: 'all', created: 'all', search: '' };

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

function AgentRow({ agent, expanded, onToggle }: { agent: AdminAgentRow; expanded: boolean; onToggle: () => void }) {
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

function Total({ label, value }: { label: string; value: string }) {
  return (
    <Card className={styles.total}>
      <div className={styles.muted}>{label}</div>
      <div className={styles.totalValue} data-testid={`total-${label}`}>
        {value}
      </div>
    </Card>
  );
}

/** Totals, filters and the agents table of the unlocked admin dashboard; the server filters, sorts, pages and totals. */
export function AgentsArea() {
  const [filters, setFilters] = useState<Filters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const [expanded, setExpanded] = useState<Set<number>>(new Set());
  const search = useDeferredValue(filters.search.trim());
  const { data, isFetching, error } = useAdminAgentsQuery({ ...filters, search, page, pageSize: ADMIN_PAGE_SIZE_DEFAULT });
  const filtered = filters.status !== 'all' || filters.campaigns !== 'all' || filters.created !== 'all' || search !== '';
  const pages = data ? Math.max(1, Math.ceil(data.total / data.pageSize)) : 1;

  const set = <K extends keyof Filters>(key: K, value: Filters[K]) => {
    setFilters((f) => ({ ...f, [key]: value }));
    setPage(1);
  };
  const toggle = (id: number) =>
    setExpanded((s) => {
      const next = new Set(s);
      if (next.has(id)) next.delete(id);
      else next.add(id);
      return next;
    });

  return (
    <>
      {/* The server totals the agents the filters select: said so, so that "Revenue $0" for a search is not read as the platform's. */}
      <section aria-labelledby="admin-totals-title">
        <h2 id="admin-totals-title" className={styles.totalsTitle} data-testid="totals-scope">
          {filtered ? 'Totals for the agents matching your filters' : 'Platform totals (all agents)'}
        </h2>
        <div className={styles.totals}>
          <Total label="Agents" value={data ? data.totals.agents.toLocaleString('en-US') : '—'} />
          <Total label="Campaigns" value={data ? data.totals.campaigns.toLocaleString('en-US') : '—'} />
          <Total label="Active Campaigns" value={data ? data.totals.activeCampaigns.toLocaleString('en-US') : '—'} />
          <Total label="Revenue" value={data ? formatUsd(data.totals.revenue) : '—'} />
          <Total label="Credits" value={data ? formatUsd(data.totals.credits) : '—'} />
        </div>
      </section>
      <Card className={styles.card}>
        <H4 className={styles.heading}>Agents</H4>
        <div className={styles.filters}>
          <InputGroup
            leftIcon="search"
            placeholder="Search by name or email"
            aria-label="Search by name or email"
            value={filters.search}
            onValueChange={(v) => set('search', v)}
            className={styles.search}
          />
          <HTMLSelect aria-label="Status" value={filters.status} onChange={(e) => set('status', e.currentTarget.value as Filters['status'])}>
            <option value="all">All statuses</option>
            <option value="active">Active</option>
            <option value="inactive">Inactive</option>
          </HTMLSelect>
          <HTMLSelect aria-label="Campaigns" value={filters.campaigns} onChange={(e) => set('campaigns', e.currentTarget.value as Filters['campaigns'])}>
            <option value="all">All agents</option>
            <option value="with">With campaigns</option>
            <option value="none">No campaigns</option>
          </HTMLSelect>
          <HTMLSelect aria-label="Created" value={filters.created} onChange={(e) => set('created', e.currentTarget.value as Filters['created'])}>
            <option value="all">Any time</option>
            <option value="today">Today</option>
            <option value="7d">Last 7 days</option>
            <option value="30d">Last 30 days</option>
            <option value="90d">Last 90 days</option>
          </HTMLSelect>
          {isFetching && <Spinner size={16} />}
        </div>
        {error ? (
          <NonIdealState icon="error" title="Error loading agent data" description={errorText(error)} className={styles.empty} />
        ) : data && data.agents.length === 0 ? (
          <NonIdealState title={filtered ? 'No agents match your filter criteria' : 'No agents found'} className={styles.empty} />
        ) : (
          <div className={styles.tableScroll}>
          <HTMLTable striped className={styles.table}>
            <thead>
              <tr>
                <th>
                  <VisuallyHidden>Details</VisuallyHidden>
                </th>
                <th>Agent</th>
                <th>Status</th>
                <th>Campaigns</th>
                <th className={styles.num}>Active / Total</th>
                <th className={styles.num}>Total Spent</th>
                <th>Joined</th>
                <th>
                  <VisuallyHidden>Actions</VisuallyHidden>
                </th>
              </tr>
            </thead>
            <tbody>
              {data?.agents.map((a) => (
                <AgentRow key={a.id} agent={a} expanded={expanded.has(a.id)} onToggle={() => toggle(a.id)} />
              ))}
            </tbody>
          </HTMLTable>
          </div>
        )}
        {data && pages > 1 && (
          <ButtonGroup className={styles.pager}>
            <Button icon="chevron-left" disabled={page <= 1} onClick={() => setPage((p) => p - 1)} aria-label="Previous page" />
            <Button disabled>
              Page {page} of {pages.toLocaleString('en-US')}
            </Button>
            <Button icon="chevron-right" disabled={page >= pages} onClick={() => setPage((p) => p + 1)} aria-label="Next page" />
          </ButtonGroup>
        )}
      </Card>
    </>
  );
}
