/**
 * The path this build is served under, found at run time: the build uses a relative base so it
 * can be hosted anywhere, and this module's chunk lives in `<base>/assets/`.
 */
export function standaloneBasePath(): string {
  if (import.meta.env.DEV) return '/';
  const base = new URL(/* @vite-ignore */ '..', import.meta.url).pathname.replace(/\/+$/, '');
  return base || '/';
}
