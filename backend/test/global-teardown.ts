import fs from 'node:fs';

export default async function globalTeardown() {
  const state = (globalThis as Record<string, unknown>).__TEST_PG__ as { pg: { stop(): Promise<void> }; dataDir: string; pgbouncer?: { stop(): Promise<void> } } | undefined;
  if (!state) return;
  await state.pgbouncer?.stop();
  await state.pg.stop();
  fs.rmSync(state.dataDir, { recursive: true, force: true });
}
