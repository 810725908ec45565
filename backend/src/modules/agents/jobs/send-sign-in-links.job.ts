import { z } from 'zod';
import { defineJob } from '../../../platform/jobs/job';
import { deadLetterName } from '../../../platform/jobs/queue';
import { requestVerification } from '../email-verifications';
import { identitiesForAddress } from '../account.service';

const NAME = 'agents.send-sign-in-links';

/**
 * The login page's "Email me a sign-in link" (POST /api/auth/sign-in-link). The route answers the same thing, in
 * the same time, whatever the address, because all it does is send this job; the job looks the address up and
 * asks for one link per identity it may sign in to (verified agents with this email, MLS identities nobody
 * verified whose MLS-published email it is), each emailed by agents.send-verification-email. Nothing for an
 * unknown address. A rerun (pg-boss may run a job twice) sends the links again: each is valid on its own.
 */
export const sendSignInLinksJob = defineJob({
  name: NAME,
  payload: z.object({ email: z.string().email().max(254), requesterHash: z.string().regex(/^[0-9a-f]{64}$/).nullable() }),
  options: { retryLimit: 5, retryDelay: 5, retryBackoff: true, retryDelayMax: 300, expireInSeconds: 120, deadLetter: deadLetterName(NAME) },
  async handler({ email, requesterHash }, { db, queue }) {
    for (const agent of await identitiesForAddress(db, email)) {
      await requestVerification(db, queue, { agentId: agent.id, purpose: 'sign_in', email, requesterHash });
    }
  },
});
