import type { ComponentType } from 'react';

/**
 * The mount contract between the host and its Module Federation remotes.
 * A remote exposes `./App` whose default export is a component taking these props;
 * the host renders it inside its own router (react-router-dom is a shared singleton),
 * so the remote declares its routes relative to `basePath`.
 */
export interface RemoteAppProps {
  /** Path the host mounted the remote under, e.g. "/dashboard" or "/admin". */
  basePath: string;
  /** Origin + prefix for API calls; "" means same origin as the page. */
  apiBaseUrl: string;
}

export type RemoteAppComponent = ComponentType<RemoteAppProps>;

export interface RemoteAppModule {
  default: RemoteAppComponent;
}

export type RemoteName = 'dashboard' | 'admin';

/** Served by the backend at GET /api/runtime-config; read by the host at start. */
export interface RuntimeConfig {
  remotes: Record<RemoteName, { entry: string }>;
  providers: Record<string, string>;
  googleLoginEnabled: boolean;
  stripePublishableKey: string | null;
}
