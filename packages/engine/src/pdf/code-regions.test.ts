import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { devFixtures } from '../../test/dev-fixtures.ts';
import { buildPdf, streamObject } from '../../test/pdf-builder.ts';
import { findEinvoiceQr } from '../qr/index.ts';
import { findCodeRegions } from './code-regions.ts';
import { openPdf } from './text.ts';

/** A one-page PDF (595 × 842 pt) whose content stream is `ops`, with Helvetica as /F1. */
function pagePdf(ops: string): Uint8Array {
  return buildPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents 5 0 R >>',
    streamObject(new TextEncoder().encode(ops)),
  ]);
}

/** A checkerboard of `n` × `n` dark 2 pt squares at (x, y) in PDF space, one `re f` each. */
function moduleGrid(x: number, y: number, n: number): string {
  const out: string[] = ['0 g'];
  for (let i = 0; i < n; i++)
    for (let j = 0; j < n; j++) if ((i + j) % 2 === 0) out.push(`${x + i * 2} ${y + j * 2} 2 2 re f`);
  return out.join('\n');
}

describe('findCodeRegions', () => {
  it('finds nothing on a page of text, table rules and light cell shading', () => {
    const ops = [
      'BT /F1 10 Tf 40 800 Td (Tax Invoice  IRN: 1234) Tj ET',
      '0.93 g 40 600 60 60 re f',
      '0 G 1 w 40 500 m 500 500 l S 40 480 m 500 480 l S',
    ].join('\n');
    const page = openPdf(pagePdf(ops)).loadPage(0);
    expect(findCodeRegions(page).regions).toEqual([]);
  });

  it('finds a code drawn module by module, and a dark square path, in top-left points', () => {
    // 30 × 30 modules of 2 pt at PDF (450, 700): page top-left y = 842 - 760 = 82.
    const ops = [moduleGrid(450, 700, 30), '0 g 60 100 80 80 re f'].join('\n');
    const page = openPdf(pagePdf(ops)).loadPage(0);
    const { regions } = findCodeRegions(page);
    expect(regions).toHaveLength(2);
    const grid = regions.find((r) => r[0] > 400);
    expect(grid).toBeDefined();
    const [x0, y0, x1, y1] = grid ?? [0, 0, 0, 0];
    // Padded by a quiet zone around 450..510 × 82..142.
    expect(x0).toBeLessThanOrEqual(450);
    expect(x0).toBeGreaterThan(430);
    expect(y0).toBeLessThanOrEqual(82);
    expect(x1).toBeGreaterThanOrEqual(510);
    expect(y1).toBeGreaterThanOrEqual(142);
    expect(y1).toBeLessThan(160);
  });

  it('renders a region from the recorded paths, and the e-invoice QR of a text page decodes from it', async () => {
    const page = openPdf(readFileSync(new URL('invoice-009.pdf', devFixtures))).loadPage(0);
    const found = findCodeRegions(page);
    expect(found.regions.length).toBeGreaterThan(0);
    const region = found.regions[0]!;
    const img = found.render(region, 400);
    found.dispose();
    expect(Math.abs(img.width - ((region[2] - region[0]) * 400) / 72)).toBeLessThanOrEqual(2);
    expect(img.gray.length).toBe(img.width * img.height);
    const qr = await findEinvoiceQr(img.gray, {
      dpi: img.dpi,
      raw: { width: img.width, height: img.height },
      origin: img.origin,
      retries: false,
    });
    expect(qr?.payload.Irn).toMatch(/^[0-9a-f]{64}$/);
    // The box is in page points: inside the region, not at the image's own origin.
    const [x0, y0, x1, y1] = qr?.bbox ?? [0, 0, 0, 0];
    expect(x0).toBeGreaterThanOrEqual(region[0]);
    expect(y0).toBeGreaterThanOrEqual(region[1]);
    expect(x1).toBeLessThanOrEqual(region[2]);
    expect(y1).toBeLessThanOrEqual(region[3]);
  });
});
