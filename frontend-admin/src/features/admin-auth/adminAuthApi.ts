import type { AdminLoginPayload } from '@app/contracts';
import { api } from '../../store/api';

export const adminAuthApi = api.injectEndpoints({
  endpoints: (build) => ({
    adminLogin: build.mutation<{ ok: true }, AdminLoginPayload>({
      query: (body) => ({ url: '/api/admin/login', method: 'POST', body }),
    }),
  }),
});

export const { useAdminLoginMutation } = adminAuthApi;
