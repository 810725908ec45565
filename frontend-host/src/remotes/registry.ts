/**
 * The host's one door to its Module Federation remotes.
 *
 * Remote entry URLs are not known at build time: they come from GET /api/runtime-config
 * (so the admin remote can be deployed elsewhere without rebuilding the host) and are
 * registered here with the federation runtime the vite plugin initialised at page start
 * (it also provides the shared singletons: react, react-dom, react-router-dom, ...).
 */
import type { RemoteAppModule, RemoteName } from '@app/contracts';
import { loadRemote, registerRemotes } from '@module-federation/runtime';

export class RemoteLoadError extends Error {
  readonly remote: RemoteName;
  readonly entry: string;

  constructor(remote: RemoteName, entry: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = 'RemoteLoadError';
    this.remote = remote;
    this.entry = entry;
  }
}

/** Entry URL each remote is registered with in the federation runtime. */
const registeredEntries = new Map<RemoteName, string>();
/** Successful (or in-flight) loads by remote; failed ones are dropped so a retry loads again. */
const loads = new Map<RemoteName, { entry: string; promise: Promise<RemoteAppModule> }>();

function isRemoteAppModule(value: unknown): value is RemoteAppModule {
  if (!value || typeof value !== 'object' || !('default' in value)) return false;
  const component = (value as { default: unknown }).default;
  // Function components, classes, and memo/forwardRef objects are all valid element types.
  return typeof component === 'function' || (typeof component === 'object' && component !== null);
}

function register(name: RemoteName, entry: string): void {
  const current = registeredEntries.get(name);
  if (current === entry) return;
  // A new entry URL (the runtime config changed): `force` replaces the registration and drops
  // the runtime's cached module and container for this remote. A retry of the same URL needs
  // no re-registration: the runtime forgets a failed entry load, and the browser refetches it.
  registerRemotes([{ name, entry, type: 'module' }], { force: current !== undefined });
  registeredEntries.set(name, entry);
}

/** The browser's own reason when the runtime wrapped it (RUNTIME-008 "Original Error Message: ..."). */
function describe(cause: unknown): string {
  const message = cause instanceof Error ? cause.message : String(cause);
  return /Original Error Message:\s*(.+)$/s.exec(message)?.[1]?.trim() ?? message;
}

async function load(name: RemoteName, entry: string): Promise<RemoteAppModule> {
  register(name, entry);
  let module: RemoteAppModule | null;
  try {
    module = await loadRemote<RemoteAppModule>(`${name}/App`);
  } catch (cause) {
    throw new RemoteLoadError(name, entry, `Could not load ${entry}: ${describe(cause)}`, { cause });
  }
  if (!isRemoteAppModule(module)) {
    throw new RemoteLoadError(name, entry, `${entry} does not expose a "./App" component.`);
  }
  return module;
}

/**
 * Loads `<name>/App` from `entry`. Concurrent and later calls for the same entry share one
 * load; a failed load is forgotten, so calling again really retries.
 */
export function loadRemoteApp(name: RemoteName, entry: string): Promise<RemoteAppModule> {
  const existing = loads.get(name);
  if (existing && existing.entry === entry) return existing.promise;

  const promise = load(name, entry);
  loads.set(name, { entry, promise });
  promise.catch(() => {
    if (loads.get(name)?.promise === promise) loads.delete(name);
  });
  return promise;
}
