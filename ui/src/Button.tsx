import type { ButtonHTMLAttributes, ReactNode } from 'react';
import styles from './Button.module.css';

export type ButtonVariant = 'primary' | 'secondary' | 'ghost' | 'link' | 'inverse';
export type ButtonSize = 'md' | 'lg';

/** The classes of a button look, for elements that must stay links (`<a>`, router `<Link>`). */
export function buttonClass(variant: ButtonVariant = 'primary', options: { block?: boolean; size?: ButtonSize; className?: string } = {}): string {
  return [styles[variant], options.size === 'lg' ? styles.lg : '', options.block ? styles.block : '', options.className ?? ''].filter(Boolean).join(' ');
}

export type ButtonProps = ButtonHTMLAttributes<HTMLButtonElement> & {
  variant?: ButtonVariant;
  size?: ButtonSize;
  block?: boolean;
  /** Shows a spinner before the label (the label says what is happening, e.g. "Saving..."). */
  busy?: boolean;
  children?: ReactNode;
};

export function Button({ variant = 'primary', size, block, busy, className, type = 'button', children, ...rest }: ButtonProps) {
  return (
    <button type={type} className={buttonClass(variant, { block, size, className })} aria-busy={busy || undefined} {...rest}>
      {busy && <span className={variant === 'primary' || variant === 'inverse' ? styles.spinner : styles.spinnerDark} aria-hidden="true" />}
      {children}
    </button>
  );
}

/** The spinner a busy button shows, for buttons that build their own content. */
export function ButtonSpinner({ dark = false }: { dark?: boolean }) {
  return <span className={dark ? styles.spinnerDark : styles.spinner} aria-hidden="true" />;
}

export { styles as buttonStyles };
