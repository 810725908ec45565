/// <reference types="jest" />
import type { AgentCampaign, FacebookMetrics, LeadShown } from '@app/contracts';
import { act } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { CardError, LeadsCard, ProgressCard, PropertyCard, StatTiles } from './MetricsCards';
import { validateProfile } from './profileEdit';
import { EmailNotices } from './EmailNotices';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let root: Root;
let el: HTMLDivElement;
beforeEach(() => {
  el = document.createElement('div');
  document.body.append(el);
  root = createRoot(el);
});
afterEach(() => {
  act(() => root.unmount());
  el.remove();
});
const render = (node: React.ReactNode) => act(() => root.render(node));

const metrics = (over: Partial<FacebookMetrics> = {}): FacebookMetrics => ({
  totalImpressions: 12500, impressionGoal: 50000, totalClicks: 1234, reach: 8800, engagements: null, updatedAt: null, ...over,
});

describe('dashboard cards', () => {
  it('Campaign Progress: percent of the goal, capped at 100, with the spec labels and x.xK figures', () => {
    render(<ProgressCard metrics={metrics()} />);
    expect(el.textContent).toContain('Progress to Goal');
    expect(el.querySelector('[role=progressbar]')!.getAttribute('aria-valuenow')).toBe('25');
    expect(el.textContent).toContain('12.5K of 50K impressions');
    render(<ProgressCard metrics={metrics({ totalImpressions: 61000 })} />);
    expect(el.textContent).toContain('Goal Achieved!');
    expect(el.querySelector('[role=progressbar]')!.getAttribute('aria-valuenow')).toBe('100');
  });

  it('Campaign Progress without metrics: the default 75 and the goal 50,000 (50K), also when the goal is missing', () => {
    render(<ProgressCard metrics={null} />);
    expect(el.querySelector('[role=progressbar]')!.getAttribute('aria-valuenow')).toBe('75');
    expect(el.textContent).toContain('75%');
    expect(el.textContent).toContain('50K');
    expect(el.textContent).not.toContain('undefined');
    const { impressionGoal: _goal, ...withoutGoal } = metrics();
    render(<ProgressCard metrics={withoutGoal} />);
    expect(el.textContent).toContain('12.5K of 50K impressions');
    expect(el.querySelector('[role=progressbar]')!.getAttribute('aria-valuenow')).toBe('25');
    render(<StatTiles metrics={null} />);
    expect(el.querySelector('[data-testid=tile-total-clicks]')!.textContent).toBe('0');
  });

  it('a card whose read failed says so in its own place, with a Retry', () => {
    const retry = jest.fn();
    render(<CardError title="Campaign Progress" label="Campaign Progress" what="your campaign metrics" onRetry={retry} retrying={false} />);
    expect(el.querySelector('[role=alert]')!.textContent).toBe("We couldn't load your campaign metrics.");
    expect(el.querySelector('section')!.getAttribute('aria-label')).toBe('Campaign Progress');
    act(() => el.querySelector('button')!.click());
    expect(retry).toHaveBeenCalledTimes(1);
  });

  it('Engagements: the estimate round(clicks × 1.2), said to be one, unless the platform reported them', () => {
    render(<StatTiles metrics={metrics()} />);
    expect(el.querySelector('[data-testid=tile-engagements]')!.textContent).toBe('1.5K');
    expect(el.textContent).toContain('estimated');
    expect(el.querySelector('[data-testid=tile-total-clicks]')!.textContent).toBe('1.2K');
    render(<StatTiles metrics={metrics({ engagements: 40 })} />);
    expect(el.querySelector('[data-testid=tile-engagements]')!.textContent).toBe('40');
    expect(el.textContent).not.toContain('estimated');
  });

  it('Property card: the first campaign with a listing, or the empty state', () => {
    render(<PropertyCard campaigns={[]} />);
    expect(el.textContent).toContain('No active campaigns yet');
    const campaign = {
      id: 3, listingId: 9, status: 'active', listing: { id: 9, mlsId: 'FL1', address: '9 Bay St', city: 'Tampa', state: 'FL', price: '450000', bedrooms: 3, bathrooms: '2', squareFeet: 1800, imageUrl: null },
    } as unknown as AgentCampaign;
    render(<PropertyCard campaigns={[campaign]} />);
    expect(el.textContent).toContain('$450,000');
    expect(el.textContent).toContain('3 beds · 2 baths · 1,800 sq ft');
    expect(el.textContent).toContain('View Property Details');
  });

  it("Your Leads (n) and its empty state", () => {
    render(<LeadsCard leads={[]} />);
    expect(el.textContent).toContain('Your Leads (0)');
    expect(el.textContent).toContain('No leads yet. Your leads will appear here once customers start responding to your ads.');
  });

  it('Your Leads counts all the leads, shows the pages read, and offers the next page until the last', () => {
    const lead = (id: number): LeadShown => ({
      id, name: `Buyer ${id}`, email: `b${id}@example.com`, phone: null, phoneLink: null, interest: 'Tour', message: '', createdAt: '2026-11-20T10:00:00.000Z',
      listing: { address: '9 Bay St', price: '450000', mlsId: 'FL1' }, status: 'received', holdReasons: [],
    });
    const load = jest.fn();
    render(<LeadsCard leads={[lead(2), lead(1)]} total={120} more={{ loading: false, load }} />);
    expect(el.textContent).toContain('Your Leads (120)');
    expect(el.querySelectorAll('tbody tr')).toHaveLength(2);
    const button = [...el.querySelectorAll('button')].find((b) => b.textContent === 'Show more leads (2 of 120 shown)')!;
    act(() => button.click());
    expect(load).toHaveBeenCalledTimes(1);
    render(<LeadsCard leads={[lead(2), lead(1)]} total={120} more={{ loading: true, load }} />);
    expect(el.querySelector('button')!.disabled).toBe(true);
    render(<LeadsCard leads={[lead(2), lead(1)]} total={2} />);
    expect(el.querySelector('button')).toBeNull();
  });

  it('the profile edit checks name and email as spec §5 says', () => {
    expect(validateProfile({ name: ' ', email: 'nope', phone: '', brokerage: '', mlsId: '' })).toEqual({ name: 'Name is required', email: 'Valid email is required' });
    expect(validateProfile({ name: 'Ava', email: 'ava@example.com', phone: '', brokerage: '', mlsId: '' })).toEqual({});
  });
});

describe('email notices', () => {
  it('say where emails go during an email change, and how many wait for a verified address; nothing otherwise', () => {
    render(<EmailNotices email="dana@example.com" pendingEmail={null} waitingEmails={0} />);
    expect(el.textContent).toBe('');
    render(<EmailNotices email="dana@example.com" pendingEmail="dana@new.example" waitingEmails={3} />);
    expect(el.querySelector('[data-testid=pending-email]')!.textContent).toBe(
      'Your emails go to dana@example.com until you open the link we sent to dana@new.example.',
    );
    expect(el.querySelector('[data-testid=waiting-emails]')!.textContent).toMatch(/^3 emails are waiting: leads and digests are sent only to an email address that was confirmed/);
  });
});
