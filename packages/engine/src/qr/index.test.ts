import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { devFixtures } from '../../test/dev-fixtures.ts';
import { renderPage } from '../pdf/render.ts';
import { openPdf } from '../pdf/text.ts';
import { findEinvoiceQr, parseEinvoiceQr } from './index.ts';

const publicKeyPem = readFileSync(new URL('einvoice-qr-public-key.pem', devFixtures), 'utf8');
const truth = JSON.parse(readFileSync(new URL('invoice-009.truth.json', devFixtures), 'utf8')) as {
  fields: { documentNumber: string; irn: string; vendorGstin: string; total: number };
  meta: { qrPayload: string };
};

describe('findEinvoiceQr', () => {
  it('decodes the signed QR on a rendered e-invoice page and verifies it', async () => {
    const page = openPdf(readFileSync(new URL('invoice-009.pdf', devFixtures))).loadPage(0);
    const r = renderPage(page, 150);
    const qr = await findEinvoiceQr(r.gray, {
      publicKeyPem,
      dpi: 150,
      raw: { width: r.width, height: r.height },
    });
    expect(qr).not.toBeNull();
    expect(qr?.raw).toBe(truth.meta.qrPayload);
    expect(qr?.signatureValid).toBe(true);
    expect(qr?.payload.DocNo).toBe(truth.fields.documentNumber);
    expect(qr?.payload.Irn).toBe(truth.fields.irn);
    expect(qr?.payload.SellerGstin).toBe(truth.fields.vendorGstin);
    expect(qr?.payload.TotInvVal).toBe(truth.fields.total);
    // The code is printed in the top right of the page, in points.
    const [x0, y0, x1, y1] = qr?.bbox ?? [0, 0, 0, 0];
    expect(x0).toBeGreaterThan(300);
    expect(x1).toBeLessThan(600);
    expect(y0).toBeLessThan(200);
    expect(x1 - x0).toBeGreaterThan(50);
    expect(y1 - y0).toBeCloseTo(x1 - x0, -1);
    // The same page as PNG bytes decodes the same way.
    const fromPng = await findEinvoiceQr(r.png);
    expect(fromPng?.payload.DocNo).toBe(truth.fields.documentNumber);
    expect(fromPng?.signatureValid).toBeNull();
  });
});

describe('parseEinvoiceQr', () => {
  it('rejects a tampered payload and accepts the original', () => {
    const [h, p, s] = truth.meta.qrPayload.split('.') as [string, string, string];
    expect(parseEinvoiceQr(truth.meta.qrPayload, publicKeyPem)?.signatureValid).toBe(true);
    const claims = JSON.parse(Buffer.from(p, 'base64url').toString('utf8')) as { data: string };
    const data = JSON.parse(claims.data) as { TotInvVal: number };
    data.TotInvVal += 1000;
    const forged = Buffer.from(JSON.stringify({ ...claims, data: JSON.stringify(data) })).toString(
      'base64url',
    );
    const tampered = parseEinvoiceQr(`${h}.${forged}.${s}`, publicKeyPem);
    expect(tampered?.payload.TotInvVal).toBe(truth.fields.total + 1000);
    expect(tampered?.signatureValid).toBe(false);
    // Without a key the signature is not judged.
    expect(parseEinvoiceQr(truth.meta.qrPayload)?.signatureValid).toBeNull();
  });

  it('ignores QR codes that are not e-invoices', () => {
    expect(parseEinvoiceQr('upi://pay?pa=shop@upi&pn=Shop&am=100')).toBeNull();
    expect(parseEinvoiceQr('https://example.com/invoice/1')).toBeNull();
    expect(
      parseEinvoiceQr('{"SellerGstin":"29AABCT1332L1ZA","DocNo":"A/1","TotInvVal":"1,180.00"}')?.payload,
    ).toEqual({
      SellerGstin: '29AABCT1332L1ZA',
      DocNo: 'A/1',
      TotInvVal: 1180,
    });
  });
});
