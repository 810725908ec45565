import { LISTING_MESSAGES, MAX_LISTING_FILES, uploadFileError } from '@app/contracts';
import { nanoid } from '@reduxjs/toolkit';
import { useEffect, useId, useRef, useState, type DragEvent } from 'react';
import { errorText } from '../../../store/api';
import { registerUpload, useUploadListingPhotoMutation } from '../creationFlowApi';
import { ListingPhoto } from '../shared/ListingPhoto';
import styles from './PhotoUploader.module.css';

interface UploadItem {
  id: string;
  name: string;
  /** Local preview (object URL) while this page holds the file; stored photos show their thumbnail. */
  preview: string | null;
  progress: number;
  status: 'uploading' | 'done' | 'error';
  path: string | null;
  error: string | null;
}

export interface PhotoUploaderProps {
  /** Stored paths of the photos already uploaded, in order (the first is the primary photo). */
  images: string[];
  onImagesChange: (paths: string[]) => void;
  onBusyChange: (busy: boolean) => void;
  error?: string;
  /**
   * Called before files are uploaded: the server hands upload slots only to a browser session that owns
   * an agent, so the form makes sure one exists first. False stops the upload (the form says why).
   */
  beforeUpload?: () => Promise<boolean>;
}

function fromPath(path: string, index: number): UploadItem {
  return { id: path, name: `Photo ${index + 1}`, preview: null, progress: 100, status: 'done', path, error: null };
}

/**
 * Listing photos (spec 000 §5): images only, at most 10 MB each, up to 10 files, each uploaded
 * with its own progress bar; checked here first, and the server's refusals shown per file.
 */
export function PhotoUploader({ images, onImagesChange, onBusyChange, error, beforeUpload }: PhotoUploaderProps) {
  const [items, setItems] = useState<UploadItem[]>(() => images.map(fromPath));
  const [notice, setNotice] = useState<string | null>(null);
  const [dragging, setDragging] = useState(false);
  const [upload] = useUploadListingPhotoMutation();
  const inflight = useRef(new Map<string, { abort(): void }>());
  const previews = useRef(new Set<string>());
  const id = useId();

  const active = items.filter((i) => i.status !== 'error');
  const full = active.length >= MAX_LISTING_FILES;
  const donePaths = items.filter((i) => i.status === 'done' && i.path).map((i) => i.path!);
  const busy = items.some((i) => i.status === 'uploading');
  const doneKey = donePaths.join('\n');

  useEffect(() => {
    if (doneKey !== images.join('\n')) onImagesChange(doneKey ? doneKey.split('\n') : []);
    // Reported only when the set of uploaded photos changes.
  }, [doneKey]); // eslint-disable-line react-hooks/exhaustive-deps

  useEffect(() => onBusyChange(busy), [busy, onBusyChange]);

  // Leaving the form cancels uploads still running and frees the previews.
  useEffect(() => {
    const running = inflight.current;
    const urls = previews.current;
    return () => {
      for (const request of running.values()) request.abort();
      for (const url of urls) URL.revokeObjectURL(url);
    };
  }, []);

  function update(itemId: string, changes: Partial<UploadItem>) {
    setItems((current) => current.map((item) => (item.id === itemId ? { ...item, ...changes } : item)));
  }

  function start(itemId: string, file: File) {
    registerUpload(itemId, file, (progress) => update(itemId, { progress }));
    const request = upload({ uploadId: itemId });
    inflight.current.set(itemId, request);
    request
      .unwrap()
      .then(
        ({ path }) => update(itemId, { status: 'done', progress: 100, path }),
        (failure: unknown) => update(itemId, { status: 'error', error: errorText(failure) }),
      )
      .finally(() => inflight.current.delete(itemId));
  }

  async function addFiles(fileList: FileList | null) {
    if (!fileList || fileList.length === 0) return;
    const list = Array.from(fileList);
    // Only when something will be uploaded (files refused here need no agent).
    if (beforeUpload && list.some((file) => !uploadFileError(file)) && !(await beforeUpload())) return;
    let room = MAX_LISTING_FILES - active.length;
    let skipped = 0;
    const added: UploadItem[] = [];
    const toStart: [string, File][] = [];
    for (const file of list) {
      const itemId = nanoid();
      const problem = uploadFileError(file);
      if (problem) {
        added.push({ id: itemId, name: file.name, preview: null, progress: 0, status: 'error', path: null, error: problem });
        continue;
      }
      if (room <= 0) {
        skipped += 1;
        continue;
      }
      room -= 1;
      const preview = URL.createObjectURL(file);
      previews.current.add(preview);
      added.push({ id: itemId, name: file.name, preview, progress: 0, status: 'uploading', path: null, error: null });
      toStart.push([itemId, file]);
    }
    setNotice(
      skipped > 0
        ? `${LISTING_MESSAGES.tooManyImages}: ${skipped} ${skipped === 1 ? 'photo was' : 'photos were'} not added.`
        : null,
    );
    setItems((current) => [...current, ...added]);
    for (const [itemId, file] of toStart) start(itemId, file);
  }

  function remove(item: UploadItem) {
    inflight.current.get(item.id)?.abort();
    inflight.current.delete(item.id);
    if (item.preview) {
      URL.revokeObjectURL(item.preview);
      previews.current.delete(item.preview);
    }
    setItems((current) => current.filter((i) => i.id !== item.id));
    setNotice(null);
  }

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
        className={styles.fileInput}
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
