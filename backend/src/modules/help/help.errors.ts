import { AppError } from '../../platform/errors';

/** The help module's errors (stable codes; the error middleware writes the body). */

/** A 502: the chat shows the spec's "Sorry, I encountered an error…" text and the agent may ask again. */
export const helpUnavailable = () =>
  new AppError(502, 'help.provider_unavailable', 'The help assistant is unavailable right now. Please try again.');
