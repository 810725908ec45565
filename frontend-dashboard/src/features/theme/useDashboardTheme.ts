import { useCallback, useEffect, useState } from 'react';

export type DashboardTheme = 'light' | 'dark';

/** Spec: the theme choice is saved in local storage under this key. */
export const THEME_STORAGE_KEY = 'agent-dashboard-theme';

function readStoredTheme(): DashboardTheme {
  try {
    return window.localStorage.getItem(THEME_STORAGE_KEY) === 'dark' ? 'dark' : 'light';
  } catch {
    return 'light'; // storage blocked: fall back to the default
  }
}

export function useDashboardTheme(): [DashboardTheme, () => void] {
  const [theme, setTheme] = useState<DashboardTheme>(readStoredTheme);

  useEffect(() => {
    try {
      window.localStorage.setItem(THEME_STORAGE_KEY, theme);
    } catch {
      // storage blocked: the choice lasts for this page only
    }
  }, [theme]);

  const toggle = useCallback(() => setTheme((current) => (current === 'dark' ? 'light' : 'dark')), []);
  return [theme, toggle];
}
