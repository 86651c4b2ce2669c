import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { manyPagesPdf, strokedLinesPdf, textPdf } from '../test/pdf-builder.ts';
import {
  listPageFrames,
  PreviewError,
  readPageFrames,
  renderPagePlaceholder,
  renderPagePreview,
} from './preview.ts';

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

  it('refuses to draw a page with more drawing operations than allowed, before drawing a pixel', async () => {
    // 20,000 page-wide strokes: minutes of drawing at full width; refused in well under a second.
    const pdf = strokedLinesPdf(20_000);
    const started = performance.now();
    const error = await renderPagePreview(pdf, 1, 2400).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(PreviewError);
    expect((error as PreviewError).code).toBe('too_costly');
    expect(performance.now() - started).toBeLessThan(5000);
    // Under the limit it is drawn.
    expect((await renderPagePreview(strokedLinesPdf(3, 2), 1, 640)).pixelWidth).toBe(640);
    await expect(renderPagePreview(strokedLinesPdf(30, 2), 1, 640, { maxOperations: 10 })).rejects.toThrow(
      /more than 10 drawing operations/,
    );
  });

  it('counts the pages of a long PDF but reads the frames of the first ones only', async () => {
    const pdf = manyPagesPdf(20_000);
    const { pageCount, frames } = await readPageFrames(pdf, 100);
    expect(pageCount).toBe(20_000);
    expect(frames).toHaveLength(100);
  });

  it("draws a placeholder of the page's proportions carrying a sentence", async () => {
    const picture = await renderPagePlaceholder(
      { width: 612, height: 792 },
      640,
      'This page is too costly to draw.',
    );
    expect(picture.pixelWidth).toBe(640);
    expect(picture.pixelHeight).toBe(828);
    expect((await sharp(Buffer.from(picture.png)).metadata()).format).toBe('png');
  });
});
