import react from '@vitejs/plugin-react';
import { remoteViteConfig } from '../vite.remote';

// The admin remote, served by the backend under /remotes/admin/ (see vite.remote.ts).
export default remoteViteConfig({ name: 'admin', react: react(), packageJson: new URL('./package.json', import.meta.url), devPort: 5175, previewPort: 7175 });
