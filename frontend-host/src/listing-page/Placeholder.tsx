import { placeholderLabel } from '../../../contracts/src/public-listing';

/** Shown where a listing has no photo (or it fails to load): "just sold" or "just listed". */
export function Placeholder({ status, className = '', label = true }: { status: string; className?: string; label?: boolean }) {
  return (
    <div className={`lp-placeholder ${className}`} role="img" aria-label={`No photo yet: ${placeholderLabel(status)}`}>
      {label && <span>{placeholderLabel(status)}</span>}
    </div>
  );
}
