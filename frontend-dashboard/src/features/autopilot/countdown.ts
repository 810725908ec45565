/** "in 23 h 5 min", "in 4 min 10 s", "any moment now": the time left until a draft launches. */
export function countdown(untilIso: string, now: number): string {
  const ms = Date.parse(untilIso) - now;
  if (ms <= 0) return 'any moment now';
  const s = Math.floor(ms / 1000);
  const d = Math.floor(s / 86_400);
  const h = Math.floor((s % 86_400) / 3600);
  const m = Math.floor((s % 3600) / 60);
  if (d > 0) return `in ${d} d ${h} h`;
  if (h > 0) return `in ${h} h ${m} min`;
  if (m > 0) return `in ${m} min ${s % 60} s`;
  return `in ${s} s`;
}
