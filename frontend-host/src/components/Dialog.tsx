import { useEffect, useId, useRef, type KeyboardEvent, type ReactNode, type RefObject } from 'react';
import { createPortal } from 'react-dom';
import styles from './Dialog.module.css';

const FOCUSABLE = [
  'a[href]',
  'button:not([disabled])',
  'input:not([disabled]):not([type="hidden"])',
  'select:not([disabled])',
  'textarea:not([disabled])',
  '[tabindex]:not([tabindex="-1"])',
].join(',');

/** The host's toast region stays usable while a dialog is open (a toast may report the dialog's own result). */
const ALLOWED_OUTSIDE = 'section[aria-label="Notifications"]';

function focusableIn(root: HTMLElement): HTMLElement[] {
  return Array.from(root.querySelectorAll<HTMLElement>(FOCUSABLE)).filter(
    (el) => !el.hasAttribute('inert') && el.getClientRects().length > 0,
  );
}

export interface DialogProps {
  open: boolean;
  title: ReactNode;
  description?: ReactNode;
  children?: ReactNode;
  /**
   * Called on Escape. Without it Escape does nothing: a dialog that must be answered
   * (account setup, payment authentication) is closed only by its own buttons.
   */
  onEscape?: () => void;
  /** Element focused on open; default the first focusable element. */
  initialFocusRef?: RefObject<HTMLElement | null>;
  /** Content above the title (an icon, a bank's band). */
  header?: ReactNode;
  /** Width preset. */
  size?: 'sm' | 'md';
  /** Test id of the dialog element. */
  testId?: string;
}

/**
 * A modal dialog: `role="dialog"`, `aria-modal`, labelled by its title and described by its
 * description, focus kept inside (Tab wraps, focus that escapes is brought back), focus restored
 * on close, page scroll locked. A click on the backdrop never closes it.
 */
export function Dialog({
  open,
  title,
  description,
  children,
  onEscape,
  initialFocusRef,
  header,
  size = 'md',
  testId,
}: DialogProps) {
  const titleId = useId();
  const descriptionId = useId();
  const panelRef = useRef<HTMLDivElement>(null);
  const onEscapeRef = useRef(onEscape);
  onEscapeRef.current = onEscape;

  useEffect(() => {
    if (!open) return;
    const panel = panelRef.current;
    if (!panel) return;
    const previouslyFocused = document.activeElement instanceof HTMLElement ? document.activeElement : null;
    const initial = initialFocusRef?.current ?? focusableIn(panel)[0] ?? panel;
    initial.focus();

    const { overflow } = document.body.style;
    document.body.style.overflow = 'hidden';

    const onFocusIn = (event: FocusEvent) => {
      const target = event.target as Node | null;
      if (!target || panel.contains(target)) return;
      if (target instanceof Element && target.closest(ALLOWED_OUTSIDE)) return;
      (focusableIn(panel)[0] ?? panel).focus();
    };
    document.addEventListener('focusin', onFocusIn);

    return () => {
      document.removeEventListener('focusin', onFocusIn);
      document.body.style.overflow = overflow;
      if (previouslyFocused?.isConnected) previouslyFocused.focus();
    };
  }, [open, initialFocusRef]);

  if (!open) return null;

  const onKeyDown = (event: KeyboardEvent<HTMLDivElement>) => {
    if (event.key === 'Escape') {
      event.preventDefault();
      event.stopPropagation();
      onEscapeRef.current?.();
      return;
    }
    if (event.key !== 'Tab' || !panelRef.current) return;
    const items = focusableIn(panelRef.current);
    if (items.length === 0) {
      event.preventDefault();
      return;
    }
    const first = items[0];
    const last = items[items.length - 1];
    const active = document.activeElement;
    if (event.shiftKey && (active === first || active === panelRef.current)) {
      event.preventDefault();
      last.focus();
    } else if (!event.shiftKey && active === last) {
      event.preventDefault();
      first.focus();
    }
  };

  return createPortal(
    <div className={styles.backdrop}>
      <div
        ref={panelRef}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        aria-describedby={description ? descriptionId : undefined}
        tabIndex={-1}
        className={`${styles.panel} ${size === 'sm' ? styles.sm : ''}`}
        onKeyDown={onKeyDown}
        data-testid={testId}
      >
        {header}
        <div className={styles.body}>
          <h2 id={titleId} className={styles.title}>
            {title}
          </h2>
          {description && (
            <p id={descriptionId} className={styles.description}>
              {description}
            </p>
          )}
          {children}
        </div>
      </div>
    </div>,
    document.body,
  );
}
