/**
 * Turning validation failures into the error body of DESIGN §4:
 * `{ message, code, fields? }`, where `fields` maps a dotted path to its first message.
 */

/** The parts of a zod issue this module reads (structurally compatible with zod 4 issues). */
export interface IssueLike {
  readonly code?: string;
  readonly path: readonly PropertyKey[];
  readonly message: string;
  /** Present on zod's `unrecognized_keys` issues. */
  readonly keys?: readonly string[];
}

export interface IssuesLike {
  readonly issues: readonly IssueLike[];
}

/** Key used in `fields` for an issue about the whole body rather than one field. */
export const ROOT_FIELD = '_root';

function joinPath(path: readonly PropertyKey[]): string {
  return path.map((p) => (typeof p === 'symbol' ? p.description ?? '' : String(p))).join('.');
}

/**
 * First message per dotted path: { "targetingLocation.radius": "Radius must be …", "carouselImages.0": … }.
 * Unknown keys of strict objects are reported under each key's own path ("targetingLocation.zip").
 * Issues about the whole value go under "_root".
 */
export function fieldErrors(error: IssuesLike): Record<string, string> {
  const out: Record<string, string> = {};
  const put = (path: readonly PropertyKey[], message: string) => {
    const key = path.length === 0 ? ROOT_FIELD : joinPath(path);
    if (!(key in out)) out[key] = message;
  };
  for (const issue of error.issues) {
    if (issue.code === 'unrecognized_keys' && issue.keys && issue.keys.length > 0) {
      for (const k of issue.keys) put([...issue.path, k], issue.message);
    } else {
      put(issue.path, issue.message);
    }
  }
  return out;
}

/** The first issue's message, e.g. "Name is required" (for a 400's `message`). */
export function firstErrorMessage(error: IssuesLike, fallback = 'Invalid request'): string {
  return error.issues[0]?.message ?? fallback;
}

/** Error body on the wire (DESIGN §4). */
export interface ApiErrorBody {
  message: string;
  /** "module.reason", e.g. "validation.invalid", "campaigns.not_found". */
  code: string;
  fields?: Record<string, string>;
}

export const VALIDATION_ERROR_CODE = 'validation.invalid';

/** The 400 body for a failed validation. */
export function validationErrorBody(error: IssuesLike, code: string = VALIDATION_ERROR_CODE): ApiErrorBody {
  return { message: firstErrorMessage(error), code, fields: fieldErrors(error) };
}
