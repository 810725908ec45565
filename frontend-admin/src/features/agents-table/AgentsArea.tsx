import { ADMIN_PAGE_SIZE_DEFAULT, formatUsd, type AdminAgentsQueryInput } from '@app/contracts';
import { Button, ButtonGroup, Card, H4, HTMLSelect, HTMLTable, InputGroup, NonIdealState, Spinner } from '@blueprintjs/core';
import { VisuallyHidden } from '@app/ui';
import { useDeferredValue, useState } from 'react';
import { errorText } from '../../store/api';
import { useAdminAgentsQuery } from './adminAgentsApi';
import { AgentRow } from './AgentRow';
import styles from './AgentsArea.module.css';

type Filters = Required<Pick<AdminAgentsQueryInput, 'status' | 'campaigns' | 'created' | 'search'>>;
const NO_FILTERS: Filters = { status: 'all', campaigns: 'all', created: 'all', search: '' };

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
