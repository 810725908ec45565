import type { Context } from 'koa';

/**
 * An MLS member this browser session found with the agent search. POST /api/agents creates an MLS
 * agent only for one of these, so a client cannot claim an arbitrary mlsId (DESIGN §3).
 * The data is the MLS's own (name, state, email), not what the client sends back.
 */
export interface FoundMlsMember {
  mlsId: string;
  name: string;
  state: string;
  email: string | null;
  phone: string | null;
  brokerage: string | null;
}

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
