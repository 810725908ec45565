import { z } from 'zod';

/** POST /api/objects/upload: a signed, expiring PUT URL for one image. */
export const uploadSlotSchema = z.object({ uploadURL: z.string() });
export type UploadSlot = z.infer<typeof uploadSlotSchema>;

/** PUT /api/objects/local/:id (the local disk provider's signed PUT): the stored image. */
export const storedUploadSchema = z.object({
  /** Where the image is served from: /objects/uploads/{id}. */
  objectPath: z.string(),
  contentType: z.string(),
  sizeBytes: z.number().int().positive(),
});
export type StoredUpload = z.infer<typeof storedUploadSchema>;
