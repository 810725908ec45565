import { useGetRuntimeConfigQuery } from '../../runtime-config/runtimeConfigApi';

/**
 * The lead-generation page behind "Learn More →" in the empty listings state (spec 000 §2: "opens an
 * external lead-generation page in a new tab"). The spec does not name the page: it is configuration
 * (LEAD_GENERATION_URL), served by the backend's runtime config.
 */
export const DEFAULT_LEAD_GENERATION_URL = '/overview';

export function useLeadGenerationUrl(): string {
  const { data } = useGetRuntimeConfigQuery();
  return data?.leadGenerationUrl ?? DEFAULT_LEAD_GENERATION_URL;
}
