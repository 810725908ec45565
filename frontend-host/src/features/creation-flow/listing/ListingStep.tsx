import { useAppSelector } from '../../../store/hooks';
import { selectWizard } from '../draft/wizardSlice';
import { AgentForm } from './AgentForm';
import { ListingLoader } from './ListingLoader';
import { ManualListingForm } from './ManualListingForm';
import { useMlsFlow } from './useMlsFlow';

/**
 * Step 1 once a path is chosen (spec 000 §4): the MLS path's agent form, then its listing loader;
 * or the manual listing form. The MLS flow lives here so it outlives the switch between its views.
 */
export default function ListingStep() {
  const { path, agent } = useAppSelector(selectWizard);
  const flow = useMlsFlow();
  if (path === 'manual') return <ManualListingForm />;
  if (agent) return <ListingLoader agent={agent} flow={flow} />;
  return <AgentForm flow={flow} />;
}
