/**
 * "Use suggestion" for a Fair Housing finding. The check answers advice in words ("Remove it.",
 * 'Say "perfect for any buyer".', 'Describe the place itself, e.g. "friendly neighborhood"'); this
 * turns that advice into an edit when it names one: remove the phrase, or put the quoted words in
 * its place. Advice without a concrete edit ("Describe the layout factually instead.") gets no button.
 */
export type SuggestedEdit = { kind: 'remove' } | { kind: 'replace'; text: string };

export function suggestedEdit(suggestion: string): SuggestedEdit | null {
  const s = suggestion.trim();
  if (/^remove\b/i.test(s)) return { kind: 'remove' };
  const quoted = /["“]([^"”]+)["”]/.exec(s);
  return quoted ? { kind: 'replace', text: quoted[1].trim() } : null;
}

/** Where the phrase is in the text: exactly, else ignoring case; -1 when it is not there any more. */
function findPhrase(text: string, phrase: string): number {
  const exact = text.indexOf(phrase);
  return exact >= 0 ? exact : text.toLowerCase().indexOf(phrase.toLowerCase());
}

const capitalise = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);

/** The text with the edit applied to the first occurrence of the phrase, or null if the phrase is gone. */
export function applySuggestion(text: string, phrase: string, edit: SuggestedEdit): string | null {
  const at = findPhrase(text, phrase);
  if (at < 0 || !phrase) return null;
  const original = text.slice(at, at + phrase.length);
  const before = text.slice(0, at);
  const after = text.slice(at + phrase.length);
  if (edit.kind === 'replace') {
    const replacement = /^[A-Z]/.test(original) ? capitalise(edit.text) : edit.text;
    return before + replacement + after;
  }
  return removeBetween(before, after);
}

/** Joins the text around a removed phrase, fixing the punctuation and spacing the removal leaves. */
function removeBetween(before: string, after: string): string {
  let b = before.replace(/[ \t]+$/, '');
  let a = after.replace(/^[ \t]+/, '');
  const sentenceStart = b === '' || /[.!?]["')\]]?$/.test(b) || /\n$/.test(before);
  if (/[,;:]$/.test(b) && /^[,;:]/.test(a)) {
    a = a.slice(1).replace(/^[ \t]+/, ''); // "a, PHRASE, b" → "a, b"
  } else if (/[,;:]$/.test(b) && (a === '' || /^[.!?\n]/.test(a))) {
    b = b.slice(0, -1); // "a, PHRASE." → "a."
  } else if (sentenceStart && /^[,;:.!?]/.test(a)) {
    a = a.slice(1).replace(/^[ \t]+/, ''); // "PHRASE, b" / "PHRASE. B" → "b" / "B"
  }
  if (sentenceStart) a = capitalise(a);
  const joined = b && a && !/^[.,;:!?\n]/.test(a) && !/\n$/.test(b) ? `${b} ${a}` : b + a;
  return joined.replace(/[ \t]{2,}/g, ' ').trim();
}
