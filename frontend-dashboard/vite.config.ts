import react from '@vitejs/plugin-react';
import { remoteViteConfig } from '../vite.remote';

// The agent dashboard remote, served by the backend under /remotes/dashboard/ (see vite.remote.ts).
export default remoteViteConfig({ name: 'dashboard', react: react(), packageJson: new URL('./package.json', import.meta.url), devPort: 5174, previewPort: 7174 });
