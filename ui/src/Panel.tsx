import type { ElementType, ReactNode } from 'react';
import styles from './Panel.module.css';

/** A raised surface with an optional title; `as` picks the element (section, aside, form...). */
export function Panel({
  as: Tag = 'section',
  title,
  flat = false,
  className,
  children,
  ...rest
}: {
  as?: ElementType;
  title?: ReactNode;
  flat?: boolean;
  className?: string;
  children?: ReactNode;
  [attribute: `aria-${string}` | `data-${string}`]: string | undefined;
}) {
  const classes = [styles.panel, flat ? styles.flat : '', className ?? ''].filter(Boolean).join(' ');
  return (
    <Tag className={classes} {...rest}>
      {title && <h2 className={styles.title}>{title}</h2>}
      {children}
    </Tag>
  );
}

export { styles as panelStyles };
