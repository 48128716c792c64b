/**
 * What a PNG or JPEG file says of itself in its first bytes: its type (magic bytes) and its
 * size in pixels (PNG's IHDR chunk, JPEG's SOF segment). Null for anything else, or a header
 * cut short. Reads bytes only, so the API and the browser use the same check.
 */

export interface ImageHeader {
  contentType: 'image/png' | 'image/jpeg';
  width: number;
  height: number;
}

const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

const u16 = (b: Uint8Array, at: number) => ((b[at] ?? 0) << 8) | (b[at + 1] ?? 0);
const u32 = (b: Uint8Array, at: number) => u16(b, at) * 0x10000 + u16(b, at + 2);

function pngHeader(b: Uint8Array): ImageHeader | null {
  if (b.length < 24 || !PNG_SIGNATURE.every((byte, i) => b[i] === byte)) return null;
  // The first chunk is IHDR: length (4), type (4), then width and height.
  if (String.fromCharCode(b[12] ?? 0, b[13] ?? 0, b[14] ?? 0, b[15] ?? 0) !== 'IHDR') return null;
  const width = u32(b, 16);
  const height = u32(b, 20);
  return width > 0 && height > 0 ? { contentType: 'image/png', width, height } : null;
}

/** SOF markers: C0–CF but DHT (C4), JPG (C8) and DAC (CC). */
const isSof = (marker: number) => marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);

function jpegHeader(b: Uint8Array): ImageHeader | null {
  if (b.length < 4 || b[0] !== 0xff || b[1] !== 0xd8) return null;
  let at = 2;
  while (at + 4 <= b.length) {
    if (b[at] !== 0xff) return null;
    const marker = b[at + 1] ?? 0;
    // Fill bytes and markers without a length (RSTn, TEM).
    if (marker === 0xff) {
      at += 1;
      continue;
    }
    if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) {
      at += 2;
      continue;
    }
    if (marker === 0xd9 || marker === 0xda) return null; // end or scan before any frame header
    const length = u16(b, at + 2);
    if (length < 2) return null;
    if (isSof(marker)) {
      if (at + 9 > b.length) return null;
      const height = u16(b, at + 5);
      const width = u16(b, at + 7);
      return width > 0 && height > 0 ? { contentType: 'image/jpeg', width, height } : null;
    }
    at += 2 + length;
  }
  return null;
}

export function imageHeader(bytes: Uint8Array): ImageHeader | null {
  return pngHeader(bytes) ?? jpegHeader(bytes);
}
