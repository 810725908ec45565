import { LIMITS } from '@app/contracts';
import { useId } from 'react';
import { useCheckAdCopyQuery, type FairHousingFinding } from '../creationFlowApi';
import { useDebouncedValue } from '../shared/useDebouncedValue';
import { applySuggestion, suggestedEdit } from './fairHousingFix';
import styles from './Customize.module.css';

export type CheckedField = 'headline' | 'description';

const CHECK_DELAY_MS = 500;

/**
 * The Fair Housing check of what the agent writes (headline and ad text), once typing pauses:
 * one call for both fields, and each finding is shown under the field its phrase is in.
 */
export function useFairHousingFindings(headline: string, description: string, enabled: boolean) {
  const text = [headline.trim(), description.trim()].filter(Boolean).join('\n').slice(0, LIMITS.description);
  const settled = useDebouncedValue(text, CHECK_DELAY_MS);
  const { data } = useCheckAdCopyQuery(settled, { skip: !enabled || settled === '' });
  const byField: Record<CheckedField, FairHousingFinding[]> = { headline: [], description: [] };
  if (!enabled || settled === '' || !data) return byField;
  const lowerHeadline = headline.toLowerCase();
  const lowerDescription = description.toLowerCase();
  for (const finding of data.findings) {
    const phrase = finding.phrase.toLowerCase();
    // Findings of an older text whose phrase has since been edited away are not shown.
    if (lowerHeadline.includes(phrase)) byField.headline.push(finding);
    else if (lowerDescription.includes(phrase)) byField.description.push(finding);
  }
  return byField;
}

interface WarningsProps {
  fieldLabel: string;
  findings: FairHousingFinding[];
  value: string;
  onChange: (value: string) => void;
}

/** Findings under a field: the phrase, why it is a problem, what to say instead, and a one-click fix. */
export function FairHousingWarnings({ fieldLabel, findings, value, onChange }: WarningsProps) {
  const id = useId();
  return (
    <div aria-live="polite" aria-atomic="false">
      {findings.length > 0 && (
        <section className={styles.fh} aria-labelledby={`${id}-title`}>
          <p id={`${id}-title`} className={styles.fhTitle}>
            Fair Housing warning{findings.length > 1 ? 's' : ''} in {fieldLabel.toLowerCase()}
          </p>
          <ul className={styles.fhList}>
            {findings.map((finding, i) => {
              const edit = suggestedEdit(finding.suggestion);
              const fixed = edit ? applySuggestion(value, finding.phrase, edit) : null;
              return (
                <li key={`${finding.phrase}-${i}`} className={styles.fhItem} data-testid="fair-housing-finding">
                  <p className={styles.fhPhrase}>
                    <q>{finding.phrase}</q>
                    <span className={styles.fhClass}>{finding.protectedClass}</span>
                  </p>
                  <p className={styles.fhReason}>{finding.reason}</p>
                  <p className={styles.fhSuggestion}>
                    <strong>Suggestion:</strong> {finding.suggestion}
                  </p>
                  {fixed !== null && (
                    <button
                      type="button"
                      className={styles.fhApply}
                      onClick={() => onChange(fixed)}
                      aria-label={`Use suggestion for “${finding.phrase}”`}
                    >
                      Use suggestion
                    </button>
                  )}
                </li>
              );
            })}
          </ul>
        </section>
      )}
    </div>
  );
}
