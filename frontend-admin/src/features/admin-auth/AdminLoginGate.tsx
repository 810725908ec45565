import { ADMIN_PASSWORD_REQUIRED_MESSAGE, adminLoginSchema } from '@app/contracts';
import { Button, Card, Elevation, FormGroup, H2, InputGroup, Intent } from '@blueprintjs/core';
import { useId, useState, type FormEvent } from 'react';
import { failureMessage, isApiError } from '../../store/api';
import { useAppDispatch } from '../../store/hooks';
import { useAdminToast } from '../toasts/AdminToaster';
import { useAdminLoginMutation } from './adminAuthApi';
import { adminUnlocked } from './adminSessionSlice';
import styles from './AdminLoginGate.module.css';

const INVALID_PASSWORD_MESSAGE = 'Invalid admin password';

/** Why the login failed, in the words the admin should read. */
function failureDescription(error: unknown): string {
  if (isApiError(error)) {
    if (error.status === 401) return INVALID_PASSWORD_MESSAGE;
    return failureMessage(error) ?? 'The admin login could not be reached. Please check your connection and try again.';
  }
  return INVALID_PASSWORD_MESSAGE;
}

export function AdminLoginGate() {
  const dispatch = useAppDispatch();
  const toast = useAdminToast();
  const [adminLogin, { isLoading }] = useAdminLoginMutation();
  const [password, setPassword] = useState('');
  const [fieldError, setFieldError] = useState<string | null>(null);
  const inputId = useId();

  async function handleSubmit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const parsed = adminLoginSchema.safeParse({ password });
    if (!parsed.success) {
      setFieldError(parsed.error.issues[0]?.message ?? ADMIN_PASSWORD_REQUIRED_MESSAGE);
      return;
    }
    setFieldError(null);
    try {
      await adminLogin(parsed.data).unwrap();
      dispatch(adminUnlocked());
      toast({
        title: 'Welcome Admin',
        description: 'Successfully logged into admin dashboard',
        intent: Intent.SUCCESS,
      });
    } catch (error) {
      toast({ title: 'Login Failed', description: failureDescription(error), intent: Intent.DANGER });
    }
  }

  return (
    <main className={styles.wrap}>
      <Card elevation={Elevation.TWO} className={styles.card}>
        <H2 className={styles.title}>Admin Dashboard</H2>
        <p className={styles.subtitle}>Enter admin password to continue</p>
        <form onSubmit={handleSubmit} noValidate>
          <FormGroup
            label="Password"
            labelFor={inputId}
            intent={fieldError ? Intent.DANGER : Intent.NONE}
            helperText={fieldError ?? undefined}
          >
            <InputGroup
              id={inputId}
              type="password"
              name="password"
              autoComplete="current-password"
              placeholder="Admin password"
              large
              autoFocus
              value={password}
              intent={fieldError ? Intent.DANGER : Intent.NONE}
              onValueChange={(value) => {
                setPassword(value);
                if (fieldError) setFieldError(null);
              }}
            />
          </FormGroup>
          <Button type="submit" intent={Intent.PRIMARY} size="large" fill loading={isLoading}>
            Access Dashboard
          </Button>
        </form>
      </Card>
    </main>
  );
}
