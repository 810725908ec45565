import { placeholderLabel } from '@app/contracts/rules';

/** Shown where a listing has no photo (or it fails to load): "just sold" or "just listed". */
export function Placeholder({ status, className = '', label = true }: { status: string; className?: string; label?: boolean }) {
  return (
    <div className={`lp-placeholder ${className}`} role="img" aria-label={`No photo yet: ${placeholderLabel(status)}`}>
      {label && <span>{placeholderLabel(status)}</span>}
    </div>
  );
}
