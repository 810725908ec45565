import fs from 'node:fs';
import path from 'node:path';
import { REPO_ROOT } from '../../platform/config';

/**
 * The curated help articles (Markdown, one per topic, in ./articles). Read from the source folder by
 * path from the repository root, so the compiled server (dist/) and the tests read the same files.
 */
export const ARTICLES_DIR = path.join(REPO_ROOT, 'backend', 'src', 'modules', 'help', 'articles');

/** The topics that have an article (spec 001 §2 Help assistant titles). */
export const ARTICLE_TOPICS = ['custom-webhook', 'zapier-setup', 'crm-integration', 'webhook-testing', 'crm-hubspot', 'crm-real-geeks', 'crm-lofty', 'crm-liondesk', 'crm-other', 'api-keys', 'zapier-app', 'make', 'n8n', 'text-alerts'] as const;
export type ArticleTopic = (typeof ARTICLE_TOPICS)[number];

export interface ArticleSection {
  heading: string;
  /** The section's Markdown, without its heading line. */
  body: string;
  headingTerms: Set<string>;
  /** Term → count in the body. */
  bodyTerms: Map<string, number>;
}

export interface Article {
  topic: ArticleTopic;
  title: string;
  /** The paragraph(s) before the first section. */
  intro: string;
  /** Words of the title and intro: what the whole article is about. */
  titleTerms: Set<string>;
  introTerms: Set<string>;
  sections: ArticleSection[];
  markdown: string;
}

// Words that say nothing about which article or section answers a question.
const STOP = new Set(
  ('a an and are as at be been but by can could did do does doing for from get got has have how i if in into is it its ' +
    'me my of on or our should so than that the their them then there these this to up us was we what when where which ' +
    'who why will with would you your yours after before about any all also just need needs want wants there here ' +
    'please help tell know way work works working use using set setup one once every each like sure thing things').split(' '),
);

/** Synonyms and spellings agents use, folded into the words the articles use. */
const FOLD: Record<string, string> = {
  fub: 'followupboss', followupboss: 'followupboss', zap: 'zapier', zaps: 'zapier', hook: 'webhook', hooks: 'webhook',
  webhooks: 'webhook', signing: 'signature', signed: 'signature', sign: 'signature', signatures: 'signature', hmac: 'signature',
  verifying: 'verify', verification: 'verify', validate: 'verify', validating: 'verify', payloads: 'payload', body: 'payload',
  json: 'payload', fields: 'field', keys: 'key', token: 'key', tokens: 'key', crms: 'crm', logs: 'log', logged: 'log',
  deliveries: 'delivery', delivered: 'delivery', deliver: 'delivery', retries: 'retry', retried: 'retry', retrying: 'retry',
  tests: 'test', testing: 'test', tested: 'test', errors: 'error', failed: 'fail', failing: 'fail', failure: 'fail', fails: 'fail',
  secrets: 'secret', urls: 'url', endpoint: 'url', endpoints: 'url', address: 'url', nodejs: 'node', javascript: 'node',
  js: 'node', express: 'node', typescript: 'node', py: 'python', flask: 'python', django: 'python', laravel: 'php',
  wordpress: 'php', leads: 'lead', statuses: 'status', codes: 'code', headers: 'header', timestamps: 'timestamp',
  sheets: 'sheet', spreadsheet: 'sheet', duplicates: 'duplicate', duplicated: 'duplicate', localhost: 'local', locally: 'local',
  ngrok: 'tunnel', replaying: 'replay', resend: 'replay', redeliver: 'replay', events: 'event', apps: 'app',
};

export function terms(text: string): string[] {
  const out: string[] = [];
  const words = text
    .toLowerCase()
    .replace(/follow\s*up\s*boss/g, 'followupboss')
    .replace(/[^a-z0-9]+/g, ' ')
    .split(' ');
  for (const raw of words) {
    if (raw.length < 2 || STOP.has(raw)) continue;
    const w = FOLD[raw] ?? (raw.length > 4 && raw.endsWith('s') && !raw.endsWith('ss') ? FOLD[raw.slice(0, -1)] ?? raw.slice(0, -1) : raw);
    out.push(w);
  }
  return out;
}

export function parseArticle(topic: ArticleTopic, markdown: string): Article {
  const lines = markdown.replace(/\r\n/g, '\n').split('\n');
  const title = (lines.find((l) => l.startsWith('# ')) ?? `# ${topic}`).slice(2).trim();
  const sections: ArticleSection[] = [];
  const intro: string[] = [];
  let current: { heading: string; lines: string[] } | null = null;
  let inCode = false;
  for (const line of lines) {
    if (line.startsWith('```')) inCode = !inCode;
    if (!inCode && line.startsWith('## ')) {
      if (current) sections.push(toSection(current.heading, current.lines));
      current = { heading: line.slice(3).trim(), lines: [] };
    } else if (!inCode && line.startsWith('# ')) {
      continue;
    } else if (current) current.lines.push(line);
    else intro.push(line);
  }
  if (current) sections.push(toSection(current.heading, current.lines));
  const introText = intro.join('\n').trim();
  return { topic, title, intro: introText, titleTerms: new Set(terms(title)), introTerms: new Set(terms(introText)), sections, markdown };
}

function toSection(heading: string, lines: string[]): ArticleSection {
  const body = lines.join('\n').trim();
  const bodyTerms = new Map<string, number>();
  for (const t of terms(body)) bodyTerms.set(t, (bodyTerms.get(t) ?? 0) + 1);
  return { heading, body, headingTerms: new Set(terms(heading)), bodyTerms };
}

let cache: Article[] | null = null;

/** The articles, read once (they ship with the code and never change while it runs). */
export function loadArticles(): Article[] {
  if (!cache) {
    cache = ARTICLE_TOPICS.map((topic) => parseArticle(topic, fs.readFileSync(path.join(ARTICLES_DIR, `${topic}.md`), 'utf8')));
  }
  return cache;
}

export function articleFor(topic: string): Article | undefined {
  return loadArticles().find((a) => a.topic === topic);
}
