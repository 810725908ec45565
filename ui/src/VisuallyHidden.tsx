import type { ElementType, ReactNode } from 'react';
import styles from './VisuallyHidden.module.css';

/** Text for screen readers only (a table header's name, a legend, a heading the page shows as a picture). */
export function VisuallyHidden({
  as: Tag = 'span',
  children,
  ...rest
}: {
  as?: ElementType;
  children?: ReactNode;
  id?: string;
  htmlFor?: string;
  [attribute: `aria-${string}` | `data-${string}`]: string | undefined;
}) {
  return (
    <Tag className={styles.visuallyHidden} {...rest}>
      {children}
    </Tag>
  );
}

/** The class itself, for an element that must stay what it is (an input, a live region with its own ref). */
export const visuallyHidden = styles.visuallyHidden;
