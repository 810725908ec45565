import { FAIR_HOUSING_RULES, type FairHousingRule, type ProtectedClass } from './fair-housing.rules';

/**
 * The Fair Housing language check: finds phrases of the rule list in ad copy, and rewrites copy
 * so that none remain (a rule's replacement, or the sentence removed).
 */

export interface FairHousingFinding {
  /** The words as they appear in the text. */
  phrase: string;
  protectedClass: ProtectedClass;
  reason: string;
  suggestion: string;
}

interface CompiledRule {
  rule: FairHousingRule;
  regex: RegExp;
}

interface Match {
  rule: FairHousingRule;
  start: number;
  end: number;
  groups: (string | undefined)[];
}

const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

function compile(rule: FairHousingRule): CompiledRule {
  const source = rule.pattern ?? escape(rule.phrase ?? '').replace(/\\?[ -]+/g, '[ -]+');
  if (!source) throw new Error(`fair housing rule ${rule.id} has neither phrase nor pattern`);
  // Whole words only; case-insensitive. Lookarounds instead of \b so patterns may start or end with punctuation.
  return { rule, regex: new RegExp(`(?<![a-z0-9])(?:${source})(?![a-z0-9])`, 'gi') };
}

const COMPILED: readonly CompiledRule[] = FAIR_HOUSING_RULES.map(compile);

/** Curly quotes to straight ones (same length, so positions stay valid). */
const normalise = (text: string) => text.replace(/[\u2018\u2019\u02bc]/g, "'").replace(/[\u2010\u2011\u2013]/g, '-');

function findMatches(text: string, rules: readonly CompiledRule[] = COMPILED): Match[] {
  const normalised = normalise(text);
  const all: Match[] = [];
  for (const { rule, regex } of rules) {
    regex.lastIndex = 0;
    for (let m = regex.exec(normalised); m; m = regex.exec(normalised)) {
      if (m[0].length === 0) {
        regex.lastIndex++;
        continue;
      }
      all.push({ rule, start: m.index, end: m.index + m[0].length, groups: m.slice(1) });
    }
  }
  // Earliest first, longest first at the same start; a match inside an earlier one is the same finding.
  all.sort((a, b) => a.start - b.start || b.end - a.end);
  const kept: Match[] = [];
  for (const m of all) {
    const last = kept[kept.length - 1];
    if (last && m.start < last.end) continue;
    kept.push(m);
  }
  return kept;
}

/** Phrases of `text` that state a preference or limitation based on a protected class. */
export function checkFairHousing(text: string): FairHousingFinding[] {
  return findMatches(text).map((m) => ({
    phrase: text.slice(m.start, m.end),
    protectedClass: m.rule.protectedClass,
    reason: m.rule.reason,
    suggestion: m.rule.suggestion,
  }));
}

const ABBREVIATIONS = new Set([
  'st', 'dr', 'mr', 'mrs', 'ms', 'mt', 'ft', 'ave', 'blvd', 'rd', 'ln', 'ct', 'hwy', 'no', 'approx', 'jr', 'sr',
  'sq', 'apt', 'bldg', 'est', 'vs', 'etc', 'e.g', 'i.e', 'u.s', 'inc', 'co',
]);

/** Sentence spans [start, end) of the text, not breaking after "St." or "sq." or "U.S.". */
export function sentenceSpans(text: string): [number, number][] {
  const spans: [number, number][] = [];
  let start = 0;
  const re = /[.!?]+["')\]]*(?=\s|$)/g;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const end = m.index + m[0].length;
    if (m[0].startsWith('.') && m[0].length === 1) {
      const word = /([A-Za-z.]+)$/.exec(text.slice(start, m.index))?.[1] ?? '';
      if (ABBREVIATIONS.has(word.toLowerCase()) || /^[A-Z]$/.test(word)) continue;
    }
    spans.push([start, end]);
    start = end;
  }
  if (start < text.length) spans.push([start, text.length]);
  return spans.filter(([s, e]) => text.slice(s, e).trim().length > 0);
}

function expand(replacement: string, groups: (string | undefined)[]): string {
  return replacement.replace(/\$(\d)/g, (_, n: string) => groups[Number(n) - 1] ?? '');
}

function tidy(sentence: string): string {
  let s = sentence.replace(/\s+/g, ' ').replace(/\s+([,.;:!?])/g, '$1').replace(/,\s*([.!?])/g, '$1').trim();
  s = s.replace(/^[,;:\-–—\s]+/, '');
  return s.charAt(0).toUpperCase() + s.slice(1);
}

export interface RewriteResult {
  text: string;
  findings: FairHousingFinding[];
}

/**
 * Copy with no Fair Housing findings left: each flagged phrase is replaced by its rule's
 * replacement, or, for rules without one, its whole sentence is removed. Returns the findings of
 * the original text too. The result may be "" when every sentence had to go.
 */
export function rewriteForFairHousing(text: string): RewriteResult {
  const findings = checkFairHousing(text);
  let current = text;
  // A replacement could in principle create a new match; a few passes settle it.
  for (let pass = 0; pass < 3; pass++) {
    const matches = findMatches(current);
    if (!matches.length) break;
    const spans = sentenceSpans(current);
    const out: string[] = [];
    for (const [s, e] of spans) {
      const inside = matches.filter((m) => m.start >= s && m.start < e);
      if (inside.some((m) => m.rule.replacement === undefined || pass === 2)) continue;
      let sentence = '';
      let cursor = s;
      for (const m of inside) {
        const original = current.slice(m.start, m.end);
        let replacement = expand(m.rule.replacement!, m.groups);
        if (/^[A-Z]/.test(original)) replacement = replacement.charAt(0).toUpperCase() + replacement.slice(1);
        sentence += current.slice(cursor, m.start) + replacement;
        cursor = Math.min(Math.max(m.end, cursor), e);
      }
      sentence += current.slice(cursor, e);
      out.push(tidy(sentence));
    }
    current = out.filter(Boolean).join(' ');
  }
  return { text: current.trim(), findings };
}
