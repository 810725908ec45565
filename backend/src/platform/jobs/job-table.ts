/**
 * Reading pg-boss's own job table (`pgboss.job`) from a module's SQL: the one place that knows its columns and
 * states, so a module asks "is a job still coming for this row?" without spelling pg-boss's schema.
 */

/** pg-boss's states of a job still to run: waiting, retrying or running. */
export const OPEN_JOB_STATES = ['created', 'retry', 'active'] as const;

/**
 * SQL that is true while a job of `queue` whose payload's `payloadKey` equals the SQL expression `valueSql` is
 * still to run (created, retrying or active), for a conditional statement that must not race a queued job:
 * `not ${sql}` inside a `where`, with `bindings` in its place.
 */
export function openJobExists(queue: string, payloadKey: string, valueSql: string): { sql: string; bindings: string[] } {
  return {
    sql: `exists (
      select 1 from pgboss.job j
       where j.name = ? and j.state in (${OPEN_JOB_STATES.map(() => '?').join(', ')}) and j.data->>? = ${valueSql})`,
    bindings: [queue, ...OPEN_JOB_STATES, payloadKey],
  };
}
