import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { REPO_ROOT } from '../../../platform/config';
import type { MlsMember } from '../../agents';
import { mapResoProperties } from '../reso-mapping';
import { isActiveMember, memberFromReso, memberHasName, nameCandidates } from '../member-search';
import { MlsProviderError, readCollection, type MlsProvider } from './mls-provider';

/** The bundled demo MLS: RESO-shaped Member and Property (with Media) records, and their photos. */
export const DEMO_MLS_DIR = path.join(REPO_ROOT, 'backend', 'assets', 'demo-mls');
export const DEMO_PHOTOS_DIR = path.join(DEMO_MLS_DIR, 'photos');
/** Where the backend serves them (mls.routes.ts); the dataset's MediaURLs are these paths. */
export const DEMO_PHOTOS_PATH = '/demo-mls/photos/';

export interface DemoDataset {
  members: unknown[];
  properties: unknown[];
}

async function readResource(file: string): Promise<unknown[]> {
  const text = await readFile(path.join(DEMO_MLS_DIR, file), 'utf8');
  return readCollection(JSON.parse(text), file).value;
}

export async function loadDemoDataset(): Promise<DemoDataset> {
  const [members, properties] = await Promise.all([readResource('Member.json'), readResource('Property.json')]);
  return { members, properties };
}

/**
 * The embedded default MLS: answers like a RESO server would, from the bundled files (or a given
 * dataset, e.g. the benchmark's), through the same name matching and the same record mapping.
 */
export function createDemoMlsProvider(dataset?: DemoDataset): MlsProvider {
  let data: Promise<DemoDataset> | null = dataset ? Promise.resolve(dataset) : null;
  const get = () => {
    data ??= loadDemoDataset().catch((err: Error) => {
      data = null;
      throw new MlsProviderError(`demo MLS data could not be read: ${err.message}`, { cause: err });
    });
    return data;
  };

  return {
    name: 'demo',

    async searchMembers(name, state) {
      const candidates = nameCandidates(name);
      if (!candidates.length) return [];
      const { members } = await get();
      return members
        .filter((m): m is Record<string, unknown> => !!m && typeof m === 'object')
        .filter((m) => m.MemberStateOrProvince === state && isActiveMember(m) && memberHasName(m, candidates))
        .map((m) => memberFromReso(m, state))
        .filter((m): m is MlsMember => m !== null)
        .sort((a, b) => a.mlsId.localeCompare(b.mlsId));
    },

    async listingsForAgent(memberMlsId) {
      const { properties } = await get();
      const mine = properties.filter((p) => !!p && typeof p === 'object' && (p as Record<string, unknown>).ListAgentMlsId === memberMlsId);
      return mapResoProperties(mine, { localPhotoPrefix: DEMO_PHOTOS_PATH });
    },
  };
}
