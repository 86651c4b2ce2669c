import { crc32 } from 'node:zlib';
import sharp, { type Sharp } from 'sharp';
import { describe, expect, it } from 'vitest';
import { detectImageKind, estimateDpi, ImageLoadError, loadImagePages } from './load.ts';

/** A 60×40 image: left half black, right half white, so orientation is observable. */
async function halfBlack(width = 60, height = 40): Promise<Sharp> {
  const left = await sharp({ create: { width: width / 2, height, channels: 3, background: '#000000' } })
    .png()
    .toBuffer();
  return sharp({ create: { width, height, channels: 3, background: '#ffffff' } }).composite([
    { input: left, left: 0, top: 0 },
  ]);
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([len, body, crc]);
}

describe('loadImagePages', () => {
  it('loads PNG, WebP and GIF as one grey page each', async () => {
    for (const format of ['png', 'webp', 'gif'] as const) {
      const bytes = await (await halfBlack()).toFormat(format).toBuffer();
      const pages = await loadImagePages(bytes);
      expect(pages, format).toHaveLength(1);
      const [p] = pages;
      expect(p?.width).toBe(60);
      expect(p?.height).toBe(40);
      expect(p?.gray.length).toBe(60 * 40);
      expect(p?.gray[0]).toBeLessThan(40); // black at the left
      expect(p?.gray[59]).toBeGreaterThan(215); // white at the right
      expect(Array.from(p?.png.subarray(0, 4) ?? [])).toEqual([0x89, 0x50, 0x4e, 0x47]);
    }
  });

  it('applies JPEG EXIF orientation', async () => {
    // Orientation 6: the stored pixels must be turned 90° clockwise to display upright.
    const bytes = await (await halfBlack()).jpeg().withMetadata({ orientation: 6 }).toBuffer();
    const [p] = await loadImagePages(bytes);
    expect(p?.width).toBe(40);
    expect(p?.height).toBe(60);
    // The black left half is now the top half.
    expect(p?.gray[0]).toBeLessThan(40);
    expect(p?.gray[(p?.height - 1) * p.width]).toBeGreaterThan(215);
  });

  it('reads every page of a multi-page TIFF and the first frame of an animated GIF', async () => {
    const red = await sharp({ create: { width: 30, height: 20, channels: 3, background: '#000000' } })
      .png()
      .toBuffer();
    const blue = await sharp({ create: { width: 30, height: 20, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    const tiff = await sharp([red, blue], { join: { animated: true } })
      .tiff()
      .toBuffer();
    const pages = await loadImagePages(tiff);
    expect(pages).toHaveLength(2);
    expect(pages[0]?.gray[0]).toBeLessThan(20);
    expect(pages[1]?.gray[0]).toBeGreaterThan(235);
    const gif = await sharp([red, blue], { join: { animated: true } })
      .gif()
      .toBuffer();
    const frames = await loadImagePages(gif);
    expect(frames).toHaveLength(1);
    expect(frames[0]?.height).toBe(20);
  });

  it('refuses a TIFF of more pages than allowed by its true page count, before decoding any', async () => {
    const page = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#ffffff' } })
      .png()
      .toBuffer();
    const tiff = await sharp(
      Array.from({ length: 150 }, () => page),
      { join: { animated: true } },
    )
      .tiff()
      .toBuffer();
    await expect(loadImagePages(tiff, 100)).rejects.toMatchObject({
      code: 'too_large',
      message: '150 pages (limit 100)',
    });
    expect(await loadImagePages(tiff, 150)).toHaveLength(150);
  });

  it('takes dpi from the file when plausible and estimates it otherwise', async () => {
    const scan = await sharp({ create: { width: 1654, height: 2339, channels: 3, background: '#ffffff' } })
      .png()
      .withMetadata({ density: 200 })
      .toBuffer();
    expect((await loadImagePages(scan))[0]?.dpi).toBe(200);
    // A photo tagged 72 dpi: 72 would make it a 34-inch page, so estimate from A4 instead.
    expect(estimateDpi(2480, 3508, 72)).toBe(300);
    // A narrow till receipt: about 80 mm wide.
    expect(estimateDpi(576, 2400, undefined)).toBe(183);
  });

  it('rejects a decompression bomb with a typed too_large error before decoding it', async () => {
    const ihdr = Buffer.alloc(13);
    ihdr.writeUInt32BE(200_000, 0);
    ihdr.writeUInt32BE(200_000, 4);
    ihdr[8] = 8; // bit depth
    ihdr[9] = 0; // greyscale
    const png = Buffer.concat([
      Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
      chunk('IHDR', ihdr),
      chunk('IDAT', Buffer.from([0x78, 0x9c, 0x03, 0x00, 0x00, 0x00, 0x00, 0x01])),
      chunk('IEND', Buffer.alloc(0)),
    ]);
    const err = await loadImagePages(png).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ImageLoadError);
    expect((err as ImageLoadError).code).toBe('too_large');
    expect((err as ImageLoadError).message).toBe(
      'image is too large to read (200000 × 200000 pixels; the limit is 100 megapixels)',
    );
  });

  it('rejects non-images and corrupt images with typed errors', async () => {
    const pdf = new TextEncoder().encode('%PDF-1.7\n1 0 obj\n<<>>\nendobj\n');
    await expect(loadImagePages(pdf)).rejects.toMatchObject({ code: 'unsupported_type' });
    const svg = new TextEncoder().encode('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>');
    await expect(loadImagePages(svg)).rejects.toMatchObject({ code: 'unsupported_type' });
    const truncated = (await (await halfBlack()).png().toBuffer()).subarray(0, 40);
    await expect(loadImagePages(truncated)).rejects.toMatchObject({ code: 'unreadable_file' });
    expect(detectImageKind(new Uint8Array(0))).toBeNull();
  });
});
