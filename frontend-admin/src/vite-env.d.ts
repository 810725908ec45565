/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** API origin for the standalone app; '' (default) means this origin. */
  readonly VITE_API_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
