import { useCallback, useState } from 'react';
import { errorText, failureMessage, isApiError } from '../../../store/api';
import { useAppDispatch } from '../../../store/hooks';
import { useToast } from '../../toast/useToast';
import { useCreateAgentMutation, useLoadMlsMutation, useSearchAgentMutation } from '../creationFlowApi';
import { agentSaved, listingsMarkedLoaded } from '../draft/wizardSlice';
import type { Agent } from '../draft/wizardTypes';
import { AGENT_NOT_FOUND_MARKER, AGENT_SEARCH_DEFAULT_FAILURE, TOASTS } from './messages';

/** Both views of the MLS path read the one MLS load in flight. */
const MLS_LOAD_KEY = 'wizard-mls-load';

export type MlsPhase = 'idle' | 'searching' | 'saving';

/**
 * The MLS path of step 1 (spec 000 §4): search the agent, create and store them, load their MLS
 * listings; and the Load From MLS action of the listing loader.
 */
export function useMlsFlow() {
  const dispatch = useAppDispatch();
  const { toast } = useToast();
  const [searchAgent] = useSearchAgentMutation();
  const [createAgent] = useCreateAgentMutation();
  const [loadMls, mlsLoad] = useLoadMlsMutation({ fixedCacheKey: MLS_LOAD_KEY });
  const [phase, setPhase] = useState<MlsPhase>('idle');
  const [notFound, setNotFound] = useState(false);

  /** MLS load; a failure is only logged, except "no listings" (allowManualEntry), which says so. */
  const loadListings = useCallback(
    async (agent: Agent) => {
      try {
        await loadMls({ agentId: agent.id, mlsId: agent.mlsId || String(agent.id) }).unwrap();
        toast(TOASTS.listingsLoaded);
      } catch (error) {
        if (isApiError(error) && error.body?.allowManualEntry === true) {
          toast(TOASTS.noListings);
        } else {
          console.warn('MLS listings could not be loaded:', errorText(error));
        }
      } finally {
        dispatch(listingsMarkedLoaded());
      }
    },
    [dispatch, loadMls, toast],
  );

  const findListings = useCallback(
    async (form: { name: string; state: string }) => {
      setNotFound(false);
      setPhase('searching');
      let match;
      try {
        match = await searchAgent(form).unwrap();
      } catch (error) {
        setPhase('idle');
        const message = isApiError(error) ? (error.serverMessage ?? error.message) : errorText(error);
        if (message.includes(AGENT_NOT_FOUND_MARKER)) {
          setNotFound(true);
          toast(TOASTS.agentNotFound);
        } else {
          toast(TOASTS.searchError(searchFailureMessage(error)));
        }
        return;
      }

      toast(TOASTS.agentFound(match.name));
      setPhase('saving');
      // One agent per member (DESIGN §3): the member's identity, whoever found it first; an agent that has an
      // account is never refused here (the listing step offers its sign-in link).
      let agent: Agent;
      try {
        agent = await createAgent({
          name: match.name,
          state: match.state,
          email: match.email,
          mlsId: match.mlsId,
          brokerage: null,
          phone: null,
        }).unwrap();
      } catch (error) {
        setPhase('idle');
        toast(TOASTS.agentSaveError(failureMessage(error)));
        return;
      }

      dispatch(agentSaved(agent));
      setPhase('idle');
      await loadListings(agent);
    },
    [createAgent, dispatch, loadListings, searchAgent, toast],
  );

  return {
    phase,
    notFound,
    mlsLoading: mlsLoad.isLoading,
    findListings,
    loadListings,
  };
}

export type MlsFlow = ReturnType<typeof useMlsFlow>;

/**
 * The search's failure text: the server's message, "Agent search failed" for a bare HTTP error, and
 * none when no answer arrived (the toast then says "Failed to search for agent", never "Failed to fetch").
 */
function searchFailureMessage(error: unknown): string | null {
  if (isApiError(error)) {
    if (error.serverMessage) return error.serverMessage;
    return typeof error.status === 'number' ? AGENT_SEARCH_DEFAULT_FAILURE : null;
  }
  return null;
}
