import { MAX_LISTING_FILES } from '@app/contracts';
import { visuallyHidden } from '@app/ui';
import { useId, useState, type DragEvent } from 'react';
import { ListingPhoto } from '../shared/ListingPhoto';
import { usePhotoUploads, type PhotoUploaderProps } from './usePhotoUploads';
import styles from './PhotoUploader.module.css';

/**
 * Listing photos (spec 000 §5): images only, at most 10 MB each, up to 10 files, each uploaded
 * with its own progress bar; checked here first, and the server's refusals shown per file.
 */
export function PhotoUploader({ error, ...uploads }: PhotoUploaderProps) {
  const { items, notice, full, addFiles, remove } = usePhotoUploads(uploads);
  const [dragging, setDragging] = useState(false);
  const id = useId();

  function onDrop(event: DragEvent<HTMLLabelElement>) {
    event.preventDefault();
    setDragging(false);
    if (!full) void addFiles(event.dataTransfer.files);
  }

  const primaryId = items.find((i) => i.status === 'done')?.id;

  return (
    <div className={styles.uploader}>
      <input
        id={`${id}-input`}
        type="file"
        accept="image/*"
        multiple
        className={`${visuallyHidden} ${styles.fileInput}`}
        disabled={full}
        aria-describedby={`${id}-hint ${id}-error`}
        onChange={(event) => {
          // addFiles copies the list before it waits, so clearing the input right away is safe.
          void addFiles(event.target.files);
          event.target.value = '';
        }}
      />
      <label
        htmlFor={`${id}-input`}
        className={styles.dropzone}
        data-dragging={dragging || undefined}
        data-disabled={full || undefined}
        onDragOver={(event) => {
          event.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={onDrop}
      >
        <span className={styles.dropIcon} aria-hidden="true" />
        <span>
          <strong className={styles.dropTitle}>Add photos</strong>
          <span className={styles.dropText}>{full ? ' (10 of 10 added)' : ' or drag them here'}</span>
        </span>
      </label>
      <p id={`${id}-hint`} className={styles.hint}>
        Images only, up to 10 MB each, at most {MAX_LISTING_FILES} photos. The first photo is the primary one.
      </p>
      <p id={`${id}-error`} className={styles.error} role="alert">
        {notice ?? error}
      </p>

      {items.length > 0 && (
        <ul className={styles.items} aria-label="Listing photos">
          {items.map((item) => (
            <li key={item.id} className={styles.item} data-status={item.status}>
              <span className={styles.thumbWrap}>
                {item.preview ? (
                  <img src={item.preview} alt="" className={styles.thumb} />
                ) : item.path ? (
                  <ListingPhoto src={item.path} alt="" className={styles.thumb} />
                ) : (
                  <span className={`${styles.thumb} ${styles.thumbError}`} aria-hidden="true">
                    !
                  </span>
                )}
                {item.id === primaryId && <span className={styles.primary}>Primary</span>}
              </span>
              <span className={styles.itemMain}>
                <span className={styles.itemName}>{item.name}</span>
                {item.status !== 'error' && (
                  <span
                    role="progressbar"
                    aria-label={`Upload progress for ${item.name}`}
                    aria-valuemin={0}
                    aria-valuemax={100}
                    aria-valuenow={item.progress}
                    className={styles.bar}
                  >
                    <span className={styles.barFill} style={{ width: `${item.progress}%` }} />
                  </span>
                )}
                <span className={styles.itemStatus} aria-live="polite">
                  {item.status === 'uploading'
                    ? `Uploading... ${item.progress}%`
                    : item.status === 'done'
                      ? item.id === primaryId
                        ? 'Uploaded · primary photo'
                        : 'Uploaded'
                      : item.error}
                </span>
              </span>
              <button type="button" className={styles.remove} onClick={() => remove(item)} aria-label={`Remove ${item.name}`}>
                ×
              </button>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}
