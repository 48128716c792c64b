import { z } from 'zod';
import { RANK_CARD_BACKGROUND_MAX_BYTES, RankCardAccent } from './numbers.ts';

/** The rank card background: a PNG or JPEG of at most RANK_CARD_BACKGROUND_MAX_BYTES. */

export const RANK_CARD_BACKGROUND_TYPES = ['image/png', 'image/jpeg'] as const;
export const RANK_CARD_BACKGROUND_TOO_LARGE = 'The background is at most 1 MiB';
export const RANK_CARD_BACKGROUND_NOT_IMAGE = 'The background must be a PNG or JPEG image';
/** The request body limit of the upload: above the image limit, so the API answers its own 413 message. */
export const RANK_CARD_BACKGROUND_BODY_LIMIT = RANK_CARD_BACKGROUND_MAX_BYTES * 4;

/** The upload's raw bytes (what OpenAPI shows for image/png and image/jpeg). */
export const RankCardBackgroundImage = z.string().meta({
  id: 'RankCardBackgroundImage',
  format: 'binary',
  description: `The image file itself, PNG or JPEG, at most ${RANK_CARD_BACKGROUND_MAX_BYTES} bytes; drawn cover-fit and darkened under the card's text`,
});
/** The body as the route receives it (the bytes), checked by the API (magic bytes, size). */
export const RankCardBackgroundBody = z
  .custom<Uint8Array>(() => true)
  .meta({ description: 'image/png or image/jpeg bytes' });

export const RankCardBackground = z
  .object({
    content_type: z.enum(RANK_CARD_BACKGROUND_TYPES),
    width: z.number().int().positive(),
    height: z.number().int().positive(),
    /** The image's size in bytes. */
    size: z.number().int().positive(),
  })
  .meta({ id: 'RankCardBackground' });
export type RankCardBackground = z.infer<typeof RankCardBackground>;

/** The preview's accent: the form's unsaved choice (`#rrggbb`); absent: the server's, else the default. */
export const RankCardPreviewQuery = z.object({ accent: RankCardAccent.optional() });
/** The preview: the card as the bot draws it, a PNG (`Content-Type: image/png`). */
export const RankCardPreviewPng = z.string().meta({
  id: 'RankCardPreviewPng',
  format: 'binary',
  description:
    "The rank card as members get it (the same renderer), PNG, for a sample member with the signed-in user's name, the server's background and the accent",
});
