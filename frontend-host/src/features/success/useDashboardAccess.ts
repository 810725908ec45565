import { EMAIL_VERIFICATION_TTL_MINUTES } from '@app/contracts';
import { useCallback, useEffect, useState } from 'react';
import { useAuthMePolling } from '../auth/authApi';
import { useToast } from '../toast/useToast';
import { useGetAccountAgentQuery, useLazyGetAccountAgentQuery } from './successApi';
import { SUCCESS_TOASTS } from './successMessages';

/** Lets the success message land before the account setup dialog covers it. */
const ACCOUNT_PROMPT_DELAY_MS = 1200;

/** Agents already shown the account setup prompt, when sessionStorage is unavailable. */
const promptedAgents = new Set<number>();

function promptedKey(agentId: number) {
  return `account-setup-prompted:${agentId}`;
}

function wasPrompted(agentId: number): boolean {
  try {
    return promptedAgents.has(agentId) || sessionStorage.getItem(promptedKey(agentId)) === '1';
  } catch {
    return promptedAgents.has(agentId);
  }
}

function markPrompted(agentId: number): void {
  promptedAgents.add(agentId);
  try {
    sessionStorage.setItem(promptedKey(agentId), '1');
  } catch {
    // private mode: the in-memory set is enough for this page view
  }
}

/**
 * The way from the success screen to the Agent Dashboard (spec 000 §2, spec 001 §2; DESIGN §3): the account
 * setup prompt (once per agent), the emailed link (setup, or sign-in when the agent has an owner), and the
 * dashboard tab that opens once this browser is signed in as the agent.
 */
export function useDashboardAccess(agentId: number | null | undefined, reportPending: boolean) {
  const { toast } = useToast();
  const agent = useGetAccountAgentQuery(agentId ?? 0, { skip: !agentId });
  const [loadAgent, loadingAgent] = useLazyGetAccountAgentQuery();
  const [dialog, setDialog] = useState<'setup' | 'sign-in' | null>(null);
  /** Where the emailed link went: from then on the screen watches for this browser being signed in. */
  const [linkSentTo, setLinkSentTo] = useState<string | null>(null);
  const me = useAuthMePolling(!!linkSentTo);
  // Signed in as the agent already (the agent read says so), or since a link was opened in this browser.
  const signedInHere = !!agentId && (agent.data?.access === 'signed_in' || me.data?.id === agentId);

  // Spec 000 §2: the account setup dialog is shown on the success screen, once, for an agent nobody has set up yet.
  const reportSettled = !reportPending;
  const promptAgent = agent.data && !agent.data.verified && !signedInHere ? agent.data.id : null;
  useEffect(() => {
    if (promptAgent === null || !reportSettled || wasPrompted(promptAgent)) return;
    const timer = window.setTimeout(() => {
      markPrompted(promptAgent);
      setDialog('setup');
    }, ACCOUNT_PROMPT_DELAY_MS);
    return () => window.clearTimeout(timer);
  }, [promptAgent, reportSettled]);

  // Spec 001 §2: on success /dashboard?agent={id} opens in a new tab.
  const openDashboardTab = useCallback(
    (done: { title: string; description: string }) => {
      const url = `/dashboard?agent=${agentId}`;
      const opened = window.open(url, '_blank');
      if (opened) {
        opened.opener = null;
        toast(done);
      } else {
        // A blocked pop-up: the same news, with a button that opens the dashboard from a fresh click.
        toast({
          title: done.title,
          description: 'Your Agent Dashboard is ready.',
          action: { label: 'Open Dashboard', onClick: () => window.open(url, '_blank', 'noopener') },
          duration: 15000,
        });
      }
    },
    [agentId, toast],
  );

  // The link works for 30 minutes: the screen stops watching then (the dialog offers to send another).
  useEffect(() => {
    if (!linkSentTo) return;
    const timer = window.setTimeout(() => setLinkSentTo(null), EMAIL_VERIFICATION_TTL_MINUTES * 60 * 1000);
    return () => window.clearTimeout(timer);
  }, [linkSentTo]);

  // The emailed link was opened in this browser: it is signed in, so the dashboard opens (DESIGN §3).
  useEffect(() => {
    if (!signedInHere || !linkSentTo) return;
    setLinkSentTo(null);
    setDialog(null);
    openDashboardTab(dialog === 'sign-in' ? SUCCESS_TOASTS.signedIn : SUCCESS_TOASTS.setupComplete);
  }, [signedInHere, linkSentTo, dialog, openDashboardTab]);

  // Signed in: the dashboard opens. Otherwise the agent gets a link: account setup, or sign-in when it has an owner.
  const openDashboard = useCallback(async () => {
    if (!agentId) return;
    if (signedInHere) {
      window.open(`/dashboard?agent=${agentId}`, '_blank', 'noopener');
      return;
    }
    try {
      const current = await loadAgent(agentId).unwrap();
      setDialog(current.verified ? 'sign-in' : 'setup');
    } catch {
      toast({ ...SUCCESS_TOASTS.dashboardError, variant: 'destructive' });
    }
  }, [agentId, loadAgent, signedInHere, toast]);

  return { agent, dialog, setDialog, linkSentTo, setLinkSentTo, openDashboard, dashboardBusy: loadingAgent.isFetching };
}
