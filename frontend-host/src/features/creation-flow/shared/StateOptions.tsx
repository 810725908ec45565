import { US_STATES } from '@app/contracts';

/** 'Select State' and the 50 states (spec 000 §2). */
export function StateOptions() {
  return (
    <>
      <option value="">Select State</option>
      {US_STATES.map((s) => (
        <option key={s.code} value={s.code}>
          {s.name}
        </option>
      ))}
    </>
  );
}
