/**
 * PUT of one file to a signed upload URL with progress (spec 000 §5: a single-part PUT).
 * XMLHttpRequest, because fetch reports no upload progress.
 */
export interface UploadHttpError {
  status: number;
  /** The server's `message` from a JSON body, else the body text, else the status text. */
  message: string;
}

export function putFileWithProgress(
  url: string,
  file: Blob,
  onProgress: (percent: number) => void,
  signal?: AbortSignal,
): Promise<void> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const onAbort = () => xhr.abort();
    xhr.open('PUT', url);
    // Same origin (local storage) carries the session cookie; a storage host elsewhere needs none.
    xhr.withCredentials = false;
    xhr.setRequestHeader('Content-Type', file.type || 'application/octet-stream');
    xhr.upload.onprogress = (event) => {
      if (event.lengthComputable && event.total > 0) {
        // 99 at most until the server has answered: the bytes are sent, the file is not yet stored.
        onProgress(Math.min(99, Math.round((event.loaded / event.total) * 100)));
      }
    };
    xhr.onload = () => {
      signal?.removeEventListener('abort', onAbort);
      if (xhr.status >= 200 && xhr.status < 300) {
        onProgress(100);
        resolve();
        return;
      }
      reject({ status: xhr.status, message: errorMessageOf(xhr) } satisfies UploadHttpError);
    };
    xhr.onerror = () => {
      signal?.removeEventListener('abort', onAbort);
      reject({ status: 0, message: 'The upload failed: the connection was interrupted' } satisfies UploadHttpError);
    };
    xhr.onabort = () => {
      signal?.removeEventListener('abort', onAbort);
      reject(new DOMException('The upload was canceled', 'AbortError'));
    };
    if (signal?.aborted) {
      reject(new DOMException('The upload was canceled', 'AbortError'));
      return;
    }
    signal?.addEventListener('abort', onAbort);
    xhr.send(file);
  });
}

function errorMessageOf(xhr: XMLHttpRequest): string {
  const text = xhr.responseText ?? '';
  try {
    const body: unknown = JSON.parse(text);
    if (body && typeof body === 'object' && typeof (body as { message?: unknown }).message === 'string') {
      return (body as { message: string }).message;
    }
  } catch {
    // not JSON
  }
  return text.trim() || xhr.statusText || `Upload failed (${xhr.status})`;
}
