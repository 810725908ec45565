// The help module's only door: the help assistant's route (POST /api/ai-help).
export { helpRouter } from './help.routes';
// The built-in assistant in process, for the benchmark (scripts/bench/help.mjs).
export { answerBuiltin, pickArticle } from './providers/builtin-assistant';
