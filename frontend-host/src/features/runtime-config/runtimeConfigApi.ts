import type { RuntimeConfig } from '@app/contracts';
import { api } from '../../store/api';

export const runtimeConfigApi = api.injectEndpoints({
  endpoints: (build) => ({
    getRuntimeConfig: build.query<RuntimeConfig, void>({
      query: () => '/api/runtime-config',
    }),
  }),
});

export const { useGetRuntimeConfigQuery } = runtimeConfigApi;
