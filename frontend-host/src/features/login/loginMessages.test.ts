import { LOGIN_TOASTS, retryAfterText } from './loginMessages';

describe('login messages (spec 001 §8)', () => {
  it('are the spec toasts word for word', () => {
    expect(LOGIN_TOASTS.failed).toEqual({ title: 'Login failed', description: 'Invalid email or password' });
    expect(LOGIN_TOASTS.welcome('Dana Whitfield')).toEqual({ title: 'Welcome back!', description: 'Logged in as Dana Whitfield' });
  });

  it("say when a rate-limited login may be tried again, from the 429's retryAfterSeconds", () => {
    expect(retryAfterText(null)).toBeNull();
    expect(retryAfterText(0)).toBeNull();
    expect(retryAfterText(1)).toBe('Try again in 1 second.');
    expect(retryAfterText(45)).toBe('Try again in 45 seconds.');
    expect(retryAfterText(60)).toBe('Try again in 1 minute.');
    expect(retryAfterText(61)).toBe('Try again in 2 minutes.');
    expect(retryAfterText(900)).toBe('Try again in 15 minutes.');
  });
});
