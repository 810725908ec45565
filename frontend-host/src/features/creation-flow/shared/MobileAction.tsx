import { createContext, useContext, useEffect, useRef, useState, type ReactNode } from 'react';
import { buttonClass } from '@app/ui';
import styles from './MobileAction.module.css';

/** The step's continue action, mirrored by a fixed bottom button on phones (spec 000 §2). */
export interface MobileActionSpec {
  label: string;
  disabled?: boolean;
  /** Submits this form (the button is a `form=` submit button, exactly like the form's own). */
  form?: string;
  onClick?: () => void;
}

type Setter = (spec: MobileActionSpec | null) => void;

const MobileActionContext = createContext<Setter>(() => {});

export function MobileActionProvider({ children }: { children: ReactNode }) {
  const [spec, setSpec] = useState<MobileActionSpec | null>(null);
  return (
    <MobileActionContext.Provider value={setSpec}>
      <div className={spec ? styles.withMobileBar : undefined}>{children}</div>
      {spec && (
        <section className={styles.mobileBar} aria-label="Step action" data-mobile-action-bar="">
          <button
            type={spec.form ? 'submit' : 'button'}
            form={spec.form}
            className={buttonClass('primary', { block: true })}
            disabled={spec.disabled}
            onClick={spec.form ? undefined : spec.onClick}
          >
            {spec.label}
          </button>
        </section>
      )}
    </MobileActionContext.Provider>
  );
}

/** Declares the current view's continue action; `null` for none. Cleared when the view unmounts. */
export function useMobileAction(spec: MobileActionSpec | null): void {
  const setSpec = useContext(MobileActionContext);
  const onClick = useRef(spec?.onClick);
  useEffect(() => {
    onClick.current = spec?.onClick;
  });
  const label = spec?.label;
  const disabled = spec?.disabled;
  const form = spec?.form;
  const hasOnClick = !!spec?.onClick;
  const active = spec !== null;
  useEffect(() => {
    if (!active || label === undefined) {
      setSpec(null);
      return;
    }
    setSpec({ label, disabled, form, onClick: hasOnClick ? () => onClick.current?.() : undefined });
  }, [setSpec, active, label, disabled, form, hasOnClick]);
  useEffect(() => () => setSpec(null), [setSpec]);
}
