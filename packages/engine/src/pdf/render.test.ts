import { readFileSync } from 'node:fs';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { devFixtures } from '../../test/dev-fixtures.ts';
import { pageImageDpi, renderPage } from './render.ts';
import { openPdf } from './text.ts';

describe('renderPage', () => {
  it('renders a page to grey pixels and a PNG of the requested resolution', async () => {
    const page = openPdf(readFileSync(new URL('invoice-001.pdf', devFixtures))).loadPage(0);
    const [x0, y0, x1, y1] = page.getBounds();
    const r = renderPage(page, 100);
    // mupdf covers partial pixels at the edge, so the size may round up by one.
    expect(Math.abs(r.width - ((x1 - x0) * 100) / 72)).toBeLessThanOrEqual(1);
    expect(Math.abs(r.height - ((y1 - y0) * 100) / 72)).toBeLessThanOrEqual(1);
    expect(r.gray.length).toBe(r.width * r.height);
    // Mostly white paper with some ink.
    let dark = 0;
    for (const v of r.gray) if (v < 128) dark++;
    expect(dark).toBeGreaterThan(r.gray.length * 0.005);
    expect(dark).toBeLessThan(r.gray.length * 0.3);
    const meta = await sharp(r.png).metadata();
    expect(meta.width).toBe(r.width);
    expect(meta.height).toBe(r.height);
    expect(meta.channels).toBe(1);
    expect(meta.density).toBe(100);
    // The PNG holds exactly the grey pixels.
    const decoded = await sharp(r.png, { ignoreIcc: true }).extractChannel(0).raw().toBuffer();
    expect(decoded.equals(Buffer.from(r.gray))).toBe(true);
  });

  it('finds the resolution of a scanned page and none on a text page', () => {
    expect(pageImageDpi(openPdf(readFileSync(new URL('invoice-005.pdf', devFixtures))).loadPage(0))).toBe(
      200,
    );
    expect(pageImageDpi(openPdf(readFileSync(new URL('invoice-007.pdf', devFixtures))).loadPage(0))).toBe(
      150,
    );
    expect(
      pageImageDpi(openPdf(readFileSync(new URL('invoice-001.pdf', devFixtures))).loadPage(0)),
    ).toBeNull();
  });
});
