import { AppError } from '../../platform/errors';

export const UPLOAD_AGENT_REQUIRED_MESSAGE = 'Please enter your name and state before adding photos.';

/** Upload slots are handed only to a browser session that owns an agent (logged in, or the wizard's own). */
export const agentRequired = () => new AppError(403, 'uploads.agent_required', UPLOAD_AGENT_REQUIRED_MESSAGE);
