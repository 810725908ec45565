// The help module's only door: the help assistant's route (POST /api/ai-help).
export { helpRouter } from './help.routes';
