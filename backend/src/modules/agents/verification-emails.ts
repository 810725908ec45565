import { EMAIL_VERIFICATION_TTL_MINUTES } from '@app/contracts';
import type { EmailMessage } from '../../platform/email/mailer';
import { linkUrl, type VerificationPurpose } from './verification-tokens';

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

const COPY: Record<VerificationPurpose, { subject: string; intro: (email: string) => string; button: string; ignore: string }> = {
  account_setup: {
    subject: 'Confirm your email to finish your account setup',
    intro: (email) => `Please confirm that ${email} is your email address. Opening this link finishes your account setup and signs you in to your Agent Dashboard: no password is needed.`,
    button: 'Confirm my email',
    ignore: 'If you did not set up an account, ignore this email: nothing happens without this link.',
  },
  email_change: {
    subject: 'Confirm your new login email',
    intro: (email) => `Please confirm that ${email} is your email address. It becomes your login email as soon as you open this link.`,
    button: 'Confirm my new email',
    ignore: 'If you did not ask to change your login email, ignore this email: nothing changes without this link.',
  },
  password_reset: {
    subject: 'Reset your password',
    intro: () => 'Someone (we hope you) asked to reset the password of your Listing Ads account. Open this link to choose a new password.',
    button: 'Choose a new password',
    ignore: 'If you did not ask for this, ignore this email: your password stays as it is.',
  },
  sign_in: {
    subject: 'Your sign-in link for Listing Ads',
    intro: (email) => `Open this link to sign in to your Agent Dashboard as ${email}. No password is needed.`,
    button: 'Sign in',
    ignore: 'If you did not ask to sign in, ignore this email: nobody can sign in without this link.',
  },
};

/** The email that carries a one-time link: an HTML part and a plain-text part with the same words. */
export function verificationEmail(opts: { purpose: VerificationPurpose; to: string; name: string; baseUrl: string; token: string }): EmailMessage {
  const copy = COPY[opts.purpose];
  const url = linkUrl(opts.baseUrl, opts.purpose, opts.token);
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
