import { uploadFileError } from '@app/contracts';
import { nanoid } from '@reduxjs/toolkit';
import { useEffect, useId, useRef, useState } from 'react';
import { VisuallyHidden, fieldStyles as fields } from '@app/ui';
import { errorText } from '../../../store/api';
import { registerUpload, useUploadListingPhotoMutation } from '../creationFlowApi';
import { thumbnailUrl } from '../shared/ListingPhoto';
import styles from './Branding.module.css';

interface Upload {
  name: string;
  progress: number;
  preview: string;
}

export interface ImageUploadFieldProps {
  label: string;
  /** The stored path (/objects/uploads/…) or URL of the current image, or null. */
  value: string | null;
  onChange: (path: string | null) => void;
  onBusyChange: (busy: boolean) => void;
  /** 'round' for a profile photo, 'logo' for a brokerage logo. */
  shape: 'round' | 'logo';
  hint: string;
}

/**
 * One image (spec 000 §5: the profile photo and the brokerage logo take 1 file each): checked here
 * (images only, at most 10 MB), uploaded to a signed URL with a progress bar, replaceable and removable.
 */
export function ImageUploadField({ label, value, onChange, onBusyChange, shape, hint }: ImageUploadFieldProps) {
  const id = useId();
  const [upload] = useUploadListingPhotoMutation();
  const [current, setCurrent] = useState<Upload | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [broken, setBroken] = useState<string | null>(null);
  const request = useRef<{ abort(): void } | null>(null);

  useEffect(() => onBusyChange(current !== null), [current, onBusyChange]);
  // Leaving the step cancels an upload still running.
  useEffect(() => () => request.current?.abort(), []);
  useEffect(() => {
    const preview = current?.preview;
    return () => {
      if (preview) URL.revokeObjectURL(preview);
    };
  }, [current?.preview]);

  function choose(files: FileList | null) {
    const file = files?.[0];
    if (!file) return;
    const problem = uploadFileError(file);
    if (problem) {
      setError(problem);
      return;
    }
    setError(null);
    request.current?.abort();
    const uploadId = nanoid();
    setCurrent({ name: file.name, progress: 0, preview: URL.createObjectURL(file) });
    registerUpload(uploadId, file, (progress) => setCurrent((c) => (c ? { ...c, progress } : c)));
    const started = upload({ uploadId });
    request.current = started;
    started
      .unwrap()
      .then(
        ({ path }) => onChange(path),
        (failure: unknown) => setError(errorText(failure)),
      )
      .finally(() => {
        if (request.current === started) request.current = null;
        setCurrent(null);
      });
  }

  const shown = current?.preview ?? (value && broken !== value ? thumbnailUrl(value) : null);
  return (
    <div className={styles.upload}>
      <span className={styles.uploadPreview} data-shape={shape} aria-hidden="true">
        {shown ? <img src={shown} alt="" onError={() => value && setBroken(value)} /> : <span className={styles.uploadEmpty}>+</span>}
      </span>
      <div className={styles.uploadBody}>
        <label className={fields.label} htmlFor={`${id}-file`}>
          {label}
        </label>
        <p className={fields.hint} id={`${id}-hint`}>
          {hint}
        </p>
        {current ? (
          <div className={styles.progressRow}>
            <progress
              className={styles.progress}
              max={100}
              value={current.progress}
              aria-label={`Upload progress for ${current.name}`}
              aria-valuenow={current.progress}
            />
            <span className={styles.progressText}>{current.progress}%</span>
          </div>
        ) : (
          <div className={styles.uploadActions}>
            {/* The real file input lies over the button-looking span: clickable, focusable, labelled. */}
            <span className={styles.uploadButtonWrap}>
              <input
                id={`${id}-file`}
                type="file"
                accept="image/*"
                className={styles.fileInput}
                aria-describedby={`${id}-hint ${id}-error`}
                onChange={(event) => {
                  choose(event.target.files);
                  event.target.value = '';
                }}
              />
              <span className={styles.uploadButton} aria-hidden="true">
                {value ? 'Replace' : 'Upload'}
              </span>
            </span>
            {value && (
              <button type="button" className={styles.removeButton} onClick={() => onChange(null)}>
                Remove <VisuallyHidden>{label.toLowerCase()}</VisuallyHidden>
              </button>
            )}
          </div>
        )}
        <p id={`${id}-error`} className={fields.fieldError} role={error ? 'alert' : undefined}>
          {error}
        </p>
      </div>
    </div>
  );
}
