import { msg } from '../messages.ts';
import { z } from '../zod.ts';

const m = msg.media;

/** Per image, decoded (DESIGN.md §11). */
export const MEDIA_MAX_BYTES = 5 * 1024 * 1024;
export const MEDIA_MAX_FILES = 10;
/** The upload route's body limit: 10 images of 5 MB in base64 fit with room to spare. */
export const MEDIA_BODY_LIMIT = 64 * 1024 * 1024;
export const MEDIA_CONTENT_TYPES = ['image/png', 'image/jpeg', 'image/gif', 'image/webp'] as const;
export type MediaContentType = (typeof MEDIA_CONTENT_TYPES)[number];

/** One upload item: a data URL (`data:<mime>;base64,…`), or `{ name, data }` whose data is a data URL or bare base64. */
export const mediaUploadItem = z.union(
  [
    z.string({ error: m.itemInvalid }),
    z.object({ name: z.string().trim().max(200).optional(), data: z.string({ error: m.itemInvalid }) }),
  ],
  { error: m.itemInvalid },
);

export const uploadMediaSchema = z.object(
  {
    images: z.array(mediaUploadItem, { error: m.noImages }).min(1, m.noImages).max(MEDIA_MAX_FILES, m.tooMany),
  },
  { error: m.noImages },
);
export type UploadMediaInput = z.input<typeof uploadMediaSchema>;

/** A gallery item; `image` = `baseUrl` + `name` (the stored file name, spec doc 1 §7). */
export interface MediaItem {
  id: string;
  image: string;
  baseUrl: string;
  name: string;
  original_name: string | null;
  bytes: number;
  content_type: MediaContentType;
  created_at: string;
}

/** One uploaded image, in the order sent (READINGS A-22). */
export type UploadedMedia = Pick<
  MediaItem,
  'id' | 'name' | 'original_name' | 'image' | 'baseUrl' | 'bytes' | 'content_type'
>;
