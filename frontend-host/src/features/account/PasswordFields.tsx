import { resetPasswordFormSchema } from '@app/contracts';
import { useId, useState } from 'react';
import styles from './Account.module.css';

type Values = { password: string; confirmPassword: string };
type Errors = Partial<Record<keyof Values, string>>;

/** New password + confirmation, checked with the contracts' rules (6+ characters, "Passwords don't match"). */
export function usePasswordFields(serverError?: string) {
  const id = useId();
  const [values, setValues] = useState<Values>({ password: '', confirmPassword: '' });
  const [errors, setErrors] = useState<Errors>({});

  const check = (): boolean => {
    const parsed = resetPasswordFormSchema.safeParse(values);
    const next: Errors = {};
    if (!parsed.success) for (const issue of parsed.error.issues) next[issue.path[0] as keyof Values] ??= issue.message;
    setErrors(next);
    return parsed.success;
  };

  const field = (name: keyof Values, label: string) => (
    <div className={styles.field}>
      <label className={styles.label} htmlFor={`${id}-${name}`}>
        {label}
      </label>
      <input
        id={`${id}-${name}`}
        className={styles.input}
        type="password"
        autoComplete="new-password"
        value={values[name]}
        aria-invalid={errors[name] || (name === 'password' && serverError) ? true : undefined}
        onChange={(e) => setValues({ ...values, [name]: e.target.value })}
      />
      {(errors[name] || (name === 'password' && serverError)) && <p className={styles.fieldError}>{errors[name] ?? serverError}</p>}
    </div>
  );

  return {
    password: values.password,
    check,
    fields: (
      <>
        {field('password', 'New Password')}
        {field('confirmPassword', 'Confirm Password')}
      </>
    ),
  };
}
