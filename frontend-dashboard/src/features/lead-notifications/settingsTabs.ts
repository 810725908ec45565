import type { CrmIntegration, NotificationSettingsView } from '@app/contracts';
import type { ReactNode } from 'react';
import type { SettingsField, SettingsForm } from './settingsForm';

/** What each tab of the notification settings gets from the editor that holds the form. */
export interface SettingsTabProps {
  /** The field's id in this editor (`${useId}-${name}`). */
  id: (name: string) => string;
  form: SettingsForm;
  set: <K extends SettingsField>(key: K, value: SettingsForm[K]) => void;
  errors: Partial<Record<SettingsField, string>>;
  saved: NotificationSettingsView;
  integrations: readonly CrmIntegration[] | undefined;
  /** False while an admin views as the agent: integrations are read only. */
  canChange: boolean;
  /** The read-only notice (or nothing), shown at the top of each integration tab. */
  readOnly: ReactNode;
  /** A tab's test-send button, when its channel is saved and can be tested. */
  testButton: ReactNode;
}
