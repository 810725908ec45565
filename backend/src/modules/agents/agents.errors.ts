import { AppError, forbidden } from '../../platform/errors';

/** The agents module's errors (stable codes; the error middleware writes the body). */

export const INVALID_CREDENTIALS_MESSAGE = 'Invalid email or password';

export const invalidCredentials = () => new AppError(401, 'auth.invalid_credentials', INVALID_CREDENTIALS_MESSAGE);

export const loginRequired = () => forbidden('agents.login_required', 'Please log in to continue');

export const agentForbidden = () => forbidden('agents.forbidden', 'You do not have access to this agent');

/**
 * The one translation of an agent refusal into the refusal of something the agent owns (a campaign,
 * a payment): "please log in" stays (it helps the agent's own browser), while "not yours" and "no
 * such agent" become the caller's own 403, which says nothing about the agent.
 */
export function translateAgentRefusal(err: unknown, refusal: () => AppError): unknown {
  if (err instanceof AppError && err.code === 'agents.login_required') return err;
  if (err instanceof AppError && (err.status === 403 || err.status === 404)) return refusal();
  return err;
}
