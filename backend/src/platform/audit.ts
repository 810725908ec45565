import type { Context } from 'koa';
import type { Db } from './db/knex';

export interface AuditEntry {
  actorType: 'admin' | 'agent' | 'system' | 'visitor';
  actorId?: string | number | null;
  action: string;
  targetType?: string;
  targetId?: string | number | null;
  details?: Record<string, unknown>;
}

/** Append to the audit log (every admin action goes here). Never put secrets in `details`. */
export async function audit(db: Db, entry: AuditEntry, ctx?: Context): Promise<void> {
  await db('auditLog').insert({
    actorType: entry.actorType,
    actorId: entry.actorId == null ? null : String(entry.actorId),
    action: entry.action,
    targetType: entry.targetType ?? null,
    targetId: entry.targetId == null ? null : String(entry.targetId),
    details: JSON.stringify(entry.details ?? {}),
    ip: ctx?.ip ?? null,
    requestId: ctx?.state.requestId ?? null,
  });
}
