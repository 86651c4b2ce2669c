import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { textPdf } from '../test/pdf-builder.ts';
import { listPageFrames, PreviewError, renderPagePreview } from './preview.ts';

describe('page previews', () => {
  it('draws a PDF page in colour at the asked width, with its frame in points', async () => {
    const pdf = textPdf([['TAX INVOICE'], ['Invoice No: INV-7']]);
    const [frame] = await listPageFrames(pdf);
    expect(frame).toBeDefined();
    const page = await renderPagePreview(pdf, 1, 800);
    expect(page.width).toBeCloseTo(frame!.width);
    expect(page.pixelWidth).toBe(800);
    expect(Math.abs(page.pixelHeight - (800 * frame!.height) / frame!.width)).toBeLessThanOrEqual(1);
    const meta = await sharp(Buffer.from(page.png)).metadata();
    expect(meta).toMatchObject({ format: 'png', width: 800, channels: 3 });
  });

  it('says which page does not exist', async () => {
    const pdf = textPdf([['TAX INVOICE']]);
    await expect(renderPagePreview(pdf, 2, 800)).rejects.toBeInstanceOf(PreviewError);
  });

  it('turns a phone photo upright and gives its frame at the resolution the engine reads it at', async () => {
    // 1200 × 900 pixels stored on its side (EXIF 6): upright it is 900 wide, 1200 high.
    const photo = await sharp({ create: { width: 1200, height: 900, channels: 3, background: '#fff' } })
      .jpeg()
      .withMetadata({ orientation: 6 })
      .toBuffer();
    const [frame] = await listPageFrames(new Uint8Array(photo));
    expect(frame!.height / frame!.width).toBeCloseTo(1200 / 900);
    const page = await renderPagePreview(new Uint8Array(photo), 1, 600);
    expect([page.pixelWidth, page.pixelHeight]).toEqual([600, 800]);
    // Never drawn wider than its own pixels.
    expect((await renderPagePreview(new Uint8Array(photo), 1, 2000)).pixelWidth).toBe(900);
  });

  it('refuses bytes that are neither a PDF nor an image, and a locked PDF', async () => {
    await expect(listPageFrames(new TextEncoder().encode('hello'))).rejects.toBeInstanceOf(PreviewError);
  });
});
