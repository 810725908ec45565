import { AppError, unavailable } from '../../platform/errors';

/** The admin module's errors (stable codes; the error middleware writes the body). */

export const adminNotConfigured = () => unavailable('admin.not_configured', 'Admin access is not configured (set ADMIN_PASSWORD)');

export const invalidAdminPassword = () => new AppError(401, 'admin.invalid_password', 'Invalid admin password');
