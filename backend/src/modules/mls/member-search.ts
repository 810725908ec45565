import type { MlsMember } from '../agents';

/**
 * Agent search by name, shared by both providers: "  sarah   JOHNSON " is "sarah johnson".
 * Names are compared case-insensitively with single spaces. The typed name is split into
 * (first, last) candidates, so "Mary Ann Smith" matches a first name "Mary Ann" or a last name
 * "Ann Smith", and the first + last word also matches when a middle name is typed.
 */

export interface NameCandidate {
  first: string;
  last: string;
}

export function normalizeName(name: string): string {
  return name.normalize('NFC').replace(/\s+/g, ' ').trim().toLowerCase();
}

export function nameCandidates(name: string): NameCandidate[] {
  const words = normalizeName(name).split(' ').filter(Boolean);
  if (words.length < 2) return [];
  const out: NameCandidate[] = [];
  for (let i = 1; i < words.length; i++) out.push({ first: words.slice(0, i).join(' '), last: words.slice(i).join(' ') });
  if (words.length > 2) out.push({ first: words[0], last: words[words.length - 1] });
  return out.slice(0, 6);
}

type Rec = Record<string, unknown>;
const str = (v: unknown, max: number): string | null => {
  if (typeof v !== 'string') return null;
  const s = v.replace(/\s+/g, ' ').trim();
  return s ? s.slice(0, max) : null;
};

/** Does this RESO Member record carry one of the candidate names? */
export function memberHasName(member: Rec, candidates: NameCandidate[]): boolean {
  const first = typeof member.MemberFirstName === 'string' ? normalizeName(member.MemberFirstName) : '';
  const last = typeof member.MemberLastName === 'string' ? normalizeName(member.MemberLastName) : '';
  return candidates.some((c) => c.first === first && c.last === last);
}

export function isActiveMember(member: Rec): boolean {
  return typeof member.MemberStatus === 'string' && member.MemberStatus.replace(/\s+/g, '').toLowerCase() === 'active';
}

const PHONE = /^[0-9+().\-\sxX]{1,40}$/;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** A RESO Member record → what the search answers (and the session remembers); null without an MLS id. */
export function memberFromReso(raw: unknown, fallbackState: string): MlsMember | null {
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const m = raw as Rec;
  const mlsId = str(typeof m.MemberMlsId === 'number' ? String(m.MemberMlsId) : m.MemberMlsId, 100);
  if (!mlsId) return null;
  const name = str(m.MemberFullName, 255) ?? str([m.MemberFirstName, m.MemberLastName].filter((p) => typeof p === 'string').join(' '), 255);
  if (!name) return null;
  const email = str(m.MemberEmail, 254)?.toLowerCase() ?? null;
  const phone = str(m.MemberPreferredPhone, 40) ?? str(m.MemberMobilePhone, 40) ?? str(m.MemberDirectPhone, 40) ?? str(m.MemberOfficePhone, 40);
  const state = str(m.MemberStateOrProvince, 100);
  return {
    mlsId,
    name,
    state: state && /^[A-Za-z]{2}$/.test(state) ? state.toUpperCase() : fallbackState,
    email: email && EMAIL.test(email) ? email : null,
    phone: phone && PHONE.test(phone) ? phone : null,
    brokerage: str(m.OfficeName, 255),
  };
}
