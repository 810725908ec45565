import { EMAIL_VERIFICATION_TTL_MINUTES } from '@app/contracts';
import type { EmailMessage } from '../../platform/email/mailer';
import type { VerificationPurpose } from './email-verifications';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const COPY: Record<VerificationPurpose, { subject: string; intro: (email: string) => string; button: string; ignore: string; path: string }> = {
  account_setup: {
    subject: 'Confirm your email to finish your account setup',
    intro: (email) => `Please confirm that ${email} is your email address. Your password is set and you can log in to your Agent Dashboard as soon as you open this link.`,
    button: 'Confirm my email',
    ignore: 'If you did not set up an account, ignore this email: nothing happens without this link.',
    path: '/verify-email',
  },
  email_change: {
    subject: 'Confirm your new login email',
    intro: (email) => `Please confirm that ${email} is your email address. It becomes your login email as soon as you open this link.`,
    button: 'Confirm my new email',
    ignore: 'If you did not ask to change your login email, ignore this email: nothing changes without this link.',
    path: '/verify-email',
  },
  password_reset: {
    subject: 'Reset your password',
    intro: () => 'Someone (we hope you) asked to reset the password of your Listing Ads account. Open this link to choose a new password.',
    button: 'Choose a new password',
    ignore: 'If you did not ask for this, ignore this email: your password stays as it is.',
    path: '/reset-password',
  },
};

/** The email that carries a one-time link: an HTML part and a plain-text part with the same words. */
export function verificationEmail(opts: { purpose: VerificationPurpose; to: string; name: string; baseUrl: string; token: string }): EmailMessage {
  const copy = COPY[opts.purpose];
  const url = `${opts.baseUrl.replace(/\/+$/, '')}${copy.path}?token=${encodeURIComponent(opts.token)}`;
  const validity = `The link works once, for ${EMAIL_VERIFICATION_TTL_MINUTES} minutes.`;
  const text = [`Hi ${opts.name},`, '', copy.intro(opts.to), '', `${copy.button}: ${url}`, '', validity, copy.ignore, '', 'Listing Ads'].join('\n');
  const html = `<!doctype html><html><body style="font-family:Arial,sans-serif;color:#1f2937;line-height:1.5">
<p>Hi ${escapeHtml(opts.name)},</p>
<p>${escapeHtml(copy.intro(opts.to))}</p>
<p><a href="${escapeHtml(url)}" style="display:inline-block;background:#2563eb;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(copy.button)}</a></p>
<p style="font-size:13px;color:#6b7280">Or paste this address into your browser: ${escapeHtml(url)}</p>
<p>${escapeHtml(validity)} ${escapeHtml(copy.ignore)}</p>
<p>Listing Ads</p>
</body></html>`;
  return { to: opts.to, subject: copy.subject, text, html };
}
