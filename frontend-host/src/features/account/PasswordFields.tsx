import { resetPasswordFormSchema } from '@app/contracts';
import { useId, useState } from 'react';
import { TextField } from '@app/ui';

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

  const field = (name: keyof Values, label: string) => {
    const error = errors[name] ?? (name === 'password' ? serverError : undefined);
    return (
      <TextField
        id={`${id}-${name}`}
        label={label}
        error={error}
        type="password"
        autoComplete="new-password"
        value={values[name]}
        onChange={(e) => setValues({ ...values, [name]: e.target.value })}
      />
    );
  };

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
