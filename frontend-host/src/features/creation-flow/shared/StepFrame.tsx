import { useEffect, useRef, type ReactNode } from 'react';
import { useDocumentTitle } from '../../../components/PageShell';
import styles from '../Wizard.module.css';

export interface StepFrameProps {
  title: string;
  subtitle?: ReactNode;
  /** Shows the Back button (every view but the landing has one). */
  onBack?: () => void;
  backDisabled?: boolean;
  width?: 'narrow' | 'wide' | 'full';
  /** Extra content right of the title (e.g. who the listings belong to). */
  aside?: ReactNode;
  children: ReactNode;
}

/** One wizard view: Back button, heading, subtitle and content, centred. */
export function StepFrame({ title, subtitle, onBack, backDisabled, width = 'narrow', aside, children }: StepFrameProps) {
  useDocumentTitle(title);
  const heading = useRef<HTMLHeadingElement>(null);
  // A new view: move focus to its heading so keyboard and screen-reader users start at the top.
  useEffect(() => {
    if (document.activeElement && document.activeElement !== document.body && !document.activeElement.closest('[data-step-frame]')) {
      return;
    }
    heading.current?.focus({ preventScroll: true });
  }, [title]);

  return (
    <div
      className={`${styles.frame} ${width === 'wide' ? styles.frameWide : width === 'full' ? styles.frameFull : ''}`}
      data-step-frame
    >
      {onBack && (
        <button type="button" className={styles.back} onClick={onBack} disabled={backDisabled}>
          <span aria-hidden="true">←</span> Back
        </button>
      )}
      <div className={styles.frameHead}>
        <div>
          <h1 className={styles.title} tabIndex={-1} ref={heading}>
            {title}
          </h1>
          {subtitle && <p className={styles.subtitle}>{subtitle}</p>}
        </div>
        {aside}
      </div>
      {children}
    </div>
  );
}
