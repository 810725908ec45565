import { LISTING_MESSAGES, MAX_LISTING_FILES, uploadFileError } from '@app/contracts';
import { nanoid } from '@reduxjs/toolkit';
import { useEffect, useRef, useState } from 'react';
import { errorText } from '../../../store/api';
import { registerUpload, useUploadListingPhotoMutation } from '../creationFlowApi';

export interface UploadItem {
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
 * The uploads behind the photo uploader: each file checked here first (type, size, count), then uploaded
 * with its own progress; the stored paths are reported as they complete, and leaving cancels the rest.
 */
export function usePhotoUploads({ images, onImagesChange, onBusyChange, beforeUpload }: Omit<PhotoUploaderProps, 'error'>) {
  const [items, setItems] = useState<UploadItem[]>(() => images.map(fromPath));
  const [notice, setNotice] = useState<string | null>(null);
  const [upload] = useUploadListingPhotoMutation();
  const inflight = useRef(new Map<string, { abort(): void }>());
  const previews = useRef(new Set<string>());

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

  return { items, notice, full, addFiles, remove };
}
