import { loadArticles, articleFor, terms, type Article, type ArticleSection } from '../articles';
import { groundingFor } from '../grounding';
import type { HelpProvider, HelpQuestion } from './help-provider';

/**
 * The built-in help assistant: answers from the curated articles, no network. A question's words are
 * scored against each section (heading words count more, rare words more than common ones); the chat's
 * topic gives its article a small lead so that short follow-ups stay on subject. A question that matches
 * nothing well enough gets a plain "no answer" that points to the relevant article.
 */

export interface SectionHit {
  article: Article;
  section: ArticleSection;
  score: number;
}

/** Below this a section is not an answer (one rare word in the body scores about 2). */
export const MIN_SCORE = 2.5;
/** How much the chat's own topic counts, as a share of the best section's score. */
const TOPIC_BONUS = 1.5;

let idf: Map<string, number> | null = null;

/** Inverse document frequency over every section of every article. */
function idfOf(term: string): number {
  if (!idf) {
    idf = new Map();
    const sections = loadArticles().flatMap((a) => a.sections);
    const df = new Map<string, number>();
    for (const s of sections) for (const t of new Set([...s.bodyTerms.keys(), ...s.headingTerms])) df.set(t, (df.get(t) ?? 0) + 1);
    for (const [t, n] of df) idf.set(t, Math.log(1 + sections.length / n));
  }
  return idf.get(term) ?? 0;
}

function scoreSection(article: Article, section: ArticleSection, qTerms: Set<string>): number {
  let score = 0;
  const { titleTerms, introTerms } = article;
  for (const q of qTerms) {
    const w = idfOf(q);
    if (section.headingTerms.has(q)) score += 2 * w;
    const n = section.bodyTerms.get(q);
    if (n) score += w * (1 + Math.log(n) / 2);
    // The title and intro say what the whole article is about: a little for every section of it.
    if (titleTerms.has(q)) score += w / 2;
    if (introTerms.has(q)) score += w / 2;
  }
  return score;
}

/** The sections that best answer a question, best first. */
export function rankSections(question: string, topic: string): SectionHit[] {
  const qTerms = new Set(terms(question));
  const hits: SectionHit[] = [];
  for (const article of loadArticles()) {
    for (const section of article.sections) {
      const base = scoreSection(article, section, qTerms);
      if (base === 0) continue;
      hits.push({ article, section, score: base + (article.topic === topic ? TOPIC_BONUS : 0) });
    }
  }
  return hits.sort((a, b) => b.score - a.score);
}

/** The article a question is answered from (what the coverage test checks), or null when none fits. */
export function pickArticle(question: string, topic: string): Article | null {
  const best = rankSections(question, topic)[0];
  return best && best.score >= MIN_SCORE ? best.article : null;
}

function setupBlock(topic: string, q: HelpQuestion): string {
  const lines = groundingFor(topic, q.integration);
  return lines.length ? `**Your setup:** ${lines.join(' ')}` : '';
}

function firstAnswer(q: HelpQuestion): string {
  const article = articleFor(q.topic);
  if (!article) {
    const list = loadArticles()
      .map((a) => `- **${a.title}**: ${a.intro.split(/(?<=\.)\s/)[0]}`)
      .join('\n');
    return [
      'Hi! I can help you send your leads where you work. I answer from these help articles:',
      list,
      setupBlock('general-help', q),
      'Ask me a question below, for example "How do I verify the webhook signature in Python?"',
    ]
      .filter(Boolean)
      .join('\n\n');
  }
  const [first, second, ...rest] = article.sections;
  return [
    article.intro,
    setupBlock(article.topic, q),
    ...[first, second].filter(Boolean).map((s) => `### ${s.heading}\n\n${s.body}`),
    rest.length ? `You can also ask me about: ${rest.map((s) => s.heading.toLowerCase()).join('; ')}.` : '',
  ]
    .filter(Boolean)
    .join('\n\n');
}

function followUpAnswer(q: HelpQuestion, question: string): string {
  const hits = rankSections(question, q.topic);
  const best = hits[0];
  if (!best || best.score < MIN_SCORE) {
    const near = best?.article ?? articleFor(q.topic);
    const pointer = near
      ? `The closest help article is **${near.title}**, which covers: ${near.sections.map((s) => s.heading.toLowerCase()).join('; ')}. Try asking about one of those.`
      : 'Ask me about custom webhooks, Zapier, Follow Up Boss and other CRMs, or testing webhooks.';
    return `I don't have an answer to that in the help articles. ${pointer}`;
  }
  // The best section, and the runner-up when it is nearly as good and from the same article.
  const chosen = [best, ...hits.slice(1, 3).filter((h) => h.article === best.article && h.score >= best.score * 0.75)].slice(0, 2);
  return [
    ...chosen.map((h) => `### ${h.section.heading}\n\n${h.section.body}`),
    setupBlock(best.article.topic, q),
    `_From the help article **${best.article.title}**._`,
  ]
    .filter(Boolean)
    .join('\n\n');
}

export function answerBuiltin(q: HelpQuestion): string {
  return q.question ? followUpAnswer(q, q.question) : firstAnswer(q);
}

export class BuiltinHelpAssistant implements HelpProvider {
  readonly name = 'builtin' as const;

  async answer(q: HelpQuestion): Promise<string> {
    return answerBuiltin(q);
  }
}
