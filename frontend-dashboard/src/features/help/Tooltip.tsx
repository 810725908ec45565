import { cloneElement, createContext, useContext, useEffect, useId, useRef, useState, type ReactElement, type ReactNode } from 'react';
import styles from './HelpAssistant.module.css';

/** Spec 001 §9: a tooltip opens after 700 ms; within 300 ms of another one closing it opens at once. */
export const TOOLTIP_OPEN_DELAY_MS = 700;
export const TOOLTIP_SKIP_DELAY_MS = 300;

/** When the last tooltip closed, shared by the tooltips under one provider (the skip delay needs it). */
const LastClosed = createContext<{ current: number }>({ current: 0 });

export function TooltipProvider({ children }: { children: ReactNode }) {
  const lastClosed = useRef(0);
  return <LastClosed.Provider value={lastClosed}>{children}</LastClosed.Provider>;
}

/**
 * A text tooltip on hover and keyboard focus, described to screen readers (aria-describedby). Blueprint's
 * Tooltip has the open delay but no skip delay, so this small one does both.
 */
export function Tooltip({ content, children }: { content: string; children: ReactElement<Record<string, unknown>> }) {
  const lastClosed = useContext(LastClosed);
  const [shown, setShown] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const id = useId();

  useEffect(() => () => clearTimeout(timer.current), []);

  const show = () => {
    clearTimeout(timer.current);
    const skip = Date.now() - lastClosed.current < TOOLTIP_SKIP_DELAY_MS;
    if (skip) setShown(true);
    else timer.current = setTimeout(() => setShown(true), TOOLTIP_OPEN_DELAY_MS);
  };
  const hide = () => {
    clearTimeout(timer.current);
    setShown((was) => {
      if (was) lastClosed.current = Date.now();
      return false;
    });
  };

  return (
    <span className={styles.tooltipAnchor} onMouseEnter={show} onMouseLeave={hide} onFocus={show} onBlur={hide}>
      {cloneElement(children, { 'aria-describedby': shown ? id : undefined })}
      {shown && (
        <span role="tooltip" id={id} className={styles.tooltip}>
          {content}
        </span>
      )}
    </span>
  );
}
