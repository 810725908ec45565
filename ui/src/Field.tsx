import type { InputHTMLAttributes, ReactNode, Ref, SelectHTMLAttributes } from 'react';
import styles from './Field.module.css';

/** What a field hands its control: the id its label points at, and the aria wiring of its hint and error. */
export interface FieldControlProps {
  id: string;
  'aria-invalid'?: true;
  'aria-describedby'?: string;
}

export interface FieldProps {
  id: string;
  label: ReactNode;
  hint?: ReactNode;
  error?: string | null;
  /**
   * How the error is announced. 'alert' (the default): the message appears as an alert when there is one.
   * 'polite': a polite live region that is always in place (the control always points at it), for forms
   * that show their messages as the user types. 'none': the message is shown, not announced (the form
   * announces the failure itself, in a toast).
   */
  announce?: 'alert' | 'polite' | 'none';
  /** More ids that describe the control (a hint written outside the field, a counter). */
  describedBy?: string;
  className?: string;
  children: ReactNode | ((control: FieldControlProps) => ReactNode);
}

/** The ids and aria attributes a control of the field `id` gets: `${id}-hint`, `${id}-error`. */
export function fieldControlProps(
  id: string,
  { hint, error, announce = 'alert', describedBy }: Pick<FieldProps, 'hint' | 'error' | 'announce' | 'describedBy'>,
): FieldControlProps {
  const described = [describedBy, hint ? `${id}-hint` : '', error || announce === 'polite' ? `${id}-error` : '']
    .filter(Boolean)
    .join(' ');
  return { id, 'aria-invalid': error ? true : undefined, 'aria-describedby': described || undefined };
}

/**
 * A labelled form field: the label, the control, a hint and the field's error message. Children may be
 * a function of the control's props (id, aria-invalid, aria-describedby), so no caller wires them by hand.
 */
export function Field({ id, label, hint, error, announce = 'alert', describedBy, className, children }: FieldProps) {
  const control = fieldControlProps(id, { hint, error, announce, describedBy });
  return (
    <div className={className ? `${styles.field} ${className}` : styles.field}>
      <label className={styles.label} htmlFor={id}>
        {label}
      </label>
      {typeof children === 'function' ? children(control) : children}
      {hint && (
        <p className={styles.hint} id={`${id}-hint`}>
          {hint}
        </p>
      )}
      {announce === 'polite' ? (
        <p className={styles.fieldError} id={`${id}-error`} aria-live="polite">
          {error}
        </p>
      ) : (
        error && (
          <p className={styles.fieldError} id={`${id}-error`} role={announce === 'alert' ? 'alert' : undefined}>
            {error}
          </p>
        )
      )}
    </div>
  );
}

type OwnFieldProps = Omit<FieldProps, 'children'>;

/** A field component's props in two: the field's own, and the rest (for its control). */
function splitField<P extends OwnFieldProps>({ id, label, hint, error, announce, describedBy, className, ...control }: P) {
  return [{ id, label, hint, error, announce, describedBy, className }, control] as const;
}

type TextFieldProps = OwnFieldProps & { adornment?: ReactNode; inputClassName?: string; ref?: Ref<HTMLInputElement> } & Omit<
    InputHTMLAttributes<HTMLInputElement>,
    'id' | 'className'
  >;

/**
 * A text input in a Field; `adornment` (a currency sign) sits inside the box, `inputClassName` adds to the
 * input's look, `className` to the field's. Every other prop goes to the input.
 */
export function TextField(props: TextFieldProps) {
  const [field, { adornment, inputClassName, ref, ...input }] = splitField(props);
  return (
    <Field {...field}>
      {(control) => {
        const box = <input ref={ref} className={inputClassName ? `${styles.input} ${inputClassName}` : styles.input} {...input} {...control} />;
        return adornment ? (
          <div className={styles.adorned}>
            <span className={styles.adornment} aria-hidden="true">
              {adornment}
            </span>
            {box}
          </div>
        ) : (
          box
        );
      }}
    </Field>
  );
}

type SelectFieldProps = OwnFieldProps & { ref?: Ref<HTMLSelectElement>; children: ReactNode } & Omit<SelectHTMLAttributes<HTMLSelectElement>, 'id'>;

/** A select in a Field: the options are the children. Every other prop goes to the select. */
export function SelectField(props: SelectFieldProps) {
  const [field, { ref, children, ...select }] = splitField(props);
  return (
    <Field {...field}>
      {(control) => (
        <select ref={ref} className={styles.select} {...select} {...control}>
          {children}
        </select>
      )}
    </Field>
  );
}

export { styles as fieldStyles };
