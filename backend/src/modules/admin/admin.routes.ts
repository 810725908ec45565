import crypto from 'node:crypto';
import Router from '@koa/router';
import { adminLoginSchema } from '@app/contracts';
import { validate, inputOf } from '../../platform/http/validate';
import { rateLimit } from '../../platform/http/rate-limit';
import { audit } from '../../platform/audit';
import type { AppDeps } from '../../platform/deps';
import { adminNotConfigured, invalidAdminPassword } from './admin.errors';

const Login = { body: adminLoginSchema };

/** Compare digests so neither the content nor the length of the password leaks through timing. */
function passwordMatches(given: string, expected: string): boolean {
  const a = crypto.createHash('sha256').update(given).digest();
  const b = crypto.createHash('sha256').update(expected).digest();
  return crypto.timingSafeEqual(a, b);
}

export function adminRouter({ config, db }: AppDeps): Router {
  const router = new Router();

  router.post('/api/admin/login', rateLimit({ name: 'admin-login', points: 5, durationSeconds: 60 }), validate(Login), async (ctx) => {
    if (!config.ADMIN_PASSWORD) throw adminNotConfigured();
    const { password } = inputOf(ctx, Login).body;
    const ok = passwordMatches(password, config.ADMIN_PASSWORD);
    await audit(db, { actorType: 'admin', action: ok ? 'admin.login' : 'admin.login_failed' }, ctx);
    if (!ok) throw invalidAdminPassword();
    // A new session id at the privilege change.
    await ctx.session!.regenerate();
    (ctx.session as unknown as { admin: boolean }).admin = true;
    ctx.body = { ok: true };
  });

  return router;
}
