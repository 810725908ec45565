import type { Knex } from 'knex';

/**
 * What other modules do when an identity changes, handed to the agents module by the composition root
 * (modules/index.ts): the agents module is the floor the others stand on, so it never imports them.
 * Both run inside the agents module's transaction.
 */
export interface IdentityHooks {
  /** An agent's email was just verified: what waited for a verified address may go (notifications). */
  verified: (trx: Knex.Transaction, agentId: number) => Promise<void>;
  /**
   * A merge (a manual agent verified with the email of another verified manual agent): each module moves its
   * rows of `fromId` to `toId` and says how many moved, by name, for the merge record.
   */
  movers: AgentRowMover[];
}

export type AgentRowMover = (trx: Knex.Transaction, fromId: number, toId: number) => Promise<Record<string, number>>;

/** No other module (tests of the agents module alone, scripts). */
export const NO_IDENTITY_HOOKS: IdentityHooks = { verified: async () => undefined, movers: [] };
