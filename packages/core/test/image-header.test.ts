import { describe, expect, it } from 'vitest';
import { imageHeader } from '../src/image-header.ts';

/** A PNG's start: signature, then the IHDR chunk with the size. */
function pngStart(width: number, height: number): Uint8Array {
  const b = new Uint8Array(33);
  b.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52]);
  new DataView(b.buffer).setUint32(16, width);
  new DataView(b.buffer).setUint32(20, height);
  return b;
}

/** A JPEG's start: SOI, an APP0 segment, a DQT-like segment, then SOF2 with the size. */
function jpegStart(width: number, height: number): Uint8Array {
  return new Uint8Array([
    0xff,
    0xd8,
    0xff,
    0xe0,
    0x00,
    0x06,
    0x4a,
    0x46,
    0x49,
    0x46,
    0xff,
    0xdb,
    0x00,
    0x03,
    0x00,
    0xff,
    0xc2,
    0x00,
    0x11,
    0x08,
    height >> 8,
    height & 0xff,
    width >> 8,
    width & 0xff,
    0x03,
  ]);
}

describe('imageHeader', () => {
  it('reads the type and size of a PNG and a JPEG', () => {
    expect(imageHeader(pngStart(1920, 640))).toEqual({ contentType: 'image/png', width: 1920, height: 640 });
    expect(imageHeader(jpegStart(800, 300))).toEqual({ contentType: 'image/jpeg', width: 800, height: 300 });
  });
  it('refuses other files and cut headers', () => {
    expect(imageHeader(new TextEncoder().encode('GIF89a.....................'))).toBeNull();
    expect(imageHeader(new Uint8Array())).toBeNull();
    expect(imageHeader(pngStart(4, 4).subarray(0, 20))).toBeNull();
    expect(imageHeader(pngStart(0, 4))).toBeNull();
    expect(imageHeader(jpegStart(10, 10).subarray(0, 20))).toBeNull();
    expect(imageHeader(new Uint8Array([0xff, 0xd8, 0xff, 0xd9]))).toBeNull();
  });
});
