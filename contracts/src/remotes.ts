import type { ComponentType } from 'react';
import type { AuthAgent } from './wire/agents.js';

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
  /**
   * The host's answer to GET /api/auth/me on this page load (null: nobody is logged in; a 401 is an answer),
   * so that a page load asks once. Absent (a remote started on its own): the remote asks.
   */
  me?: AuthAgent | null;
  /**
   * The host's toast area (spec §8: one toast at a time, in one place that covers no control). A remote shows its
   * toasts through it; absent (a remote started on its own), the remote shows them itself.
   */
  toast?: (toast: RemoteToast) => void;
}

/** A toast a remote asks the host to show: a title, an optional line under it, and whether it reports a failure. */
export interface RemoteToast {
  title: string;
  description?: string;
  tone: 'success' | 'info' | 'warning' | 'danger';
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
  /** Where "Learn More →" in the wizard's empty listings state leads (LEAD_GENERATION_URL). */
  leadGenerationUrl: string;
}

/** Libraries the host and both remotes share as one instance (React context, router, store). */
export const SHARED_SINGLETONS = ['react', 'react-dom', 'react-router-dom', 'react-redux', '@reduxjs/toolkit', '@blueprintjs/core'] as const;

/**
 * The react-router-dom exports the host and the remotes use. Shared whole, the router costs the landing
 * page ~65 KiB gzip; with this list each app ships a tree-shaken copy (~14 KiB). Every app declares the
 * same list, so the one singleton the runtime picks satisfies all of them. Importing anything else from
 * react-router-dom means adding it here.
 */
export const SHARED_ROUTER_EXPORTS = [
  'BrowserRouter', 'Link', 'Navigate', 'Route', 'Routes', 'useLocation', 'useNavigate', 'useParams', 'useSearchParams',
] as const;

/**
 * The react-redux exports in use: the apps' own (Provider, useDispatch, useSelector) and those RTK Query's
 * React hooks import (@reduxjs/toolkit/dist/query/react). Same rule as the router list.
 */
export const SHARED_REACT_REDUX_EXPORTS = [
  'Provider', 'ReactReduxContext', 'batch', 'shallowEqual', 'useDispatch', 'useSelector', 'useStore',
] as const;

const TREE_SHAKEN: Partial<Record<(typeof SHARED_SINGLETONS)[number], readonly string[]>> = {
  'react-router-dom': SHARED_ROUTER_EXPORTS,
  'react-redux': SHARED_REACT_REDUX_EXPORTS,
};

/** The Module Federation `shared` option for every app, from its package.json dependency ranges. */
export function federationShared(dependencies: Record<string, string>) {
  return Object.fromEntries(
    SHARED_SINGLETONS.map((name) => [
      name,
      {
        singleton: true,
        requiredVersion: dependencies[name],
        ...(TREE_SHAKEN[name] ? { treeShaking: { mode: 'runtime-infer' as const, usedExports: [...TREE_SHAKEN[name]!] } } : {}),
      },
    ]),
  );
}
