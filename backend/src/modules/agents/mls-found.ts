import type { Context } from 'koa';

/**
 * An MLS member this browser session found with the agent search. POST /api/agents answers with the member's
 * identity only for one of these, so a client cannot name an arbitrary mlsId (DESIGN §3).
 * The data is the MLS's own (name, state, email), not what the client sends back.
 */
export interface FoundMlsMember {
  /** The MLS the member belongs to (`config.mlsSystem`): with the member id, the identity's key. */
  system: string;
  mlsId: string;
  name: string;
  state: string;
  email: string | null;
  phone: string | null;
  brokerage: string | null;
}

/** A member as the MLS answers a search (the system is the server's own: `config.mlsSystem`). */
export type MlsMember = Omit<FoundMlsMember, 'system'>;

/** The last few members found in this session; older ones fall out. */
export const MAX_FOUND_MLS_MEMBERS = 5;

interface SessionWithFound {
  mlsFound?: FoundMlsMember[];
}

function sessionOf(ctx: Context): SessionWithFound {
  return (ctx.session ?? {}) as unknown as SessionWithFound;
}

export function rememberFoundMlsMember(ctx: Context, member: FoundMlsMember): void {
  const s = ctx.session as unknown as SessionWithFound;
  const others = (s.mlsFound ?? []).filter((m) => m.mlsId !== member.mlsId);
  s.mlsFound = [...others, member].slice(-MAX_FOUND_MLS_MEMBERS);
}

export function foundMlsMember(ctx: Context, mlsId: string): FoundMlsMember | undefined {
  return (sessionOf(ctx).mlsFound ?? []).find((m) => m.mlsId === mlsId);
}
