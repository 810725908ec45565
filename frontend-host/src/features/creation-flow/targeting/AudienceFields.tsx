import { TARGETING_TEMPLATES, type TargetingTemplateId } from '@app/contracts';
import { fieldStyles as fields, panelStyles as panels } from '@app/ui';
import type { CompleteDraft } from '../draft/completeDraft';
import shared from '../shared/steps.module.css';
import styles from './Targeting.module.css';

/** Who sees the ad: an audience template, then its interests, each one on or off. */
export function AudienceFields({
  id,
  draft,
  usingDefaults,
  onTemplate,
  onToggle,
}: {
  id: string;
  draft: CompleteDraft;
  /** The estimate failed: the default options stay, and the step says so. */
  usingDefaults: boolean;
  onTemplate: (template: TargetingTemplateId) => void;
  onToggle: (interestId: string) => void;
}) {
  const enabledCount = draft.targetingInterests.filter((i) => i.enabled).length;
  return (
    <>
      <fieldset className={`${panels.panel} ${shared.panel}`}>
        <legend className={shared.panelTitle}>Audience template</legend>
        <div className={styles.templates}>
          {TARGETING_TEMPLATES.map((template) => (
            <label key={template.id} className={styles.template} data-checked={draft.targetingTemplate === template.id || undefined}>
              <input
                type="radio"
                name={`${id}-template`}
                className={styles.templateInput}
                checked={draft.targetingTemplate === template.id}
                onChange={() => onTemplate(template.id)}
                aria-describedby={`${id}-${template.id}-text`}
              />
              <span className={styles.templateName}>{template.name}</span>
              <span id={`${id}-${template.id}-text`} className={styles.templateText}>
                {template.description}
              </span>
            </label>
          ))}
        </div>
      </fieldset>

      <fieldset className={`${panels.panel} ${shared.panel}`}>
        <legend className={shared.panelTitle}>
          Interests <span className={styles.count}>{enabledCount} selected</span>
        </legend>
        <ul className={styles.interests} aria-label="Interests">
          {draft.targetingInterests.map((interest) => (
            <li key={interest.id}>
              <label className={styles.interest} data-on={interest.enabled || undefined}>
                <input type="checkbox" className={styles.interestInput} checked={interest.enabled} onChange={() => onToggle(interest.id)} />
                <span aria-hidden="true" className={styles.interestMark}>
                  {interest.enabled ? '✓' : '+'}
                </span>
                {interest.name}
              </label>
            </li>
          ))}
        </ul>
        {usingDefaults && <p className={fields.hint}>Using default targeting options.</p>}
      </fieldset>
    </>
  );
}
