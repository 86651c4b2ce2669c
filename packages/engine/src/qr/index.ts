import { verify } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { prepareZXingModule, type ReaderOptions, readBarcodes } from 'zxing-wasm/reader';
import { round2 } from '../tables/numbers.ts';
import type { BBox } from '../types.ts';
import { POINTS_PER_INCH } from '../util.ts';

/** The fields of a GST e-invoice signed QR payload (the IRP's `data` claim). */
export interface EinvoiceQrPayload {
  SellerGstin?: string;
  BuyerGstin?: string;
  DocNo?: string;
  DocTyp?: string;
  DocDt?: string;
  TotInvVal?: number;
  ItemCnt?: number;
  MainHsnCode?: string;
  Irn?: string;
  IrnDt?: string;
}

/** A decoded e-invoice QR code. */
export interface EinvoiceQr {
  /** The QR text exactly as decoded (a JWT for IRP-signed codes). */
  raw: string;
  payload: EinvoiceQrPayload;
  /** RS256 signature check against the given key; null when no key was given or the QR is not a JWT. */
  signatureValid: boolean | null;
  /** Where the code is: PDF points when `dpi` was given, else image pixels. */
  bbox: BBox | null;
}

/** Options of {@link findEinvoiceQr}. */
export interface FindQrOptions {
  /** PEM public key of the IRP (or test key) to verify the JWT signature with. */
  publicKeyPem?: string;
  /** Resolution of the image: when given, `bbox` is converted to PDF points. */
  dpi?: number;
  /** When set, `image` is raw 8-bit grey pixels of this size instead of an encoded image. */
  raw?: { width: number; height: number };
  /**
   * Page position, in points, of the image's top-left pixel (the image is a region of the page):
   * added to `bbox`. Needs `dpi`.
   */
  origin?: [number, number];
  /**
   * Retry upscaled and binarised crops when the whole image does not decode (default true).
   * A clean vector render either decodes as it is or holds no code; retries only cost time there.
   */
  retries?: boolean;
}

const require = createRequire(import.meta.url);
let prepared = false;

/**
 * Point zxing-wasm at its `.wasm` file in node_modules. Its default `locateFile` fetches the
 * binary from a CDN, which must never happen: the engine runs offline.
 */
function ensureZxing(): void {
  if (prepared) return;
  const wasmPath = require.resolve('zxing-wasm/reader/zxing_reader.wasm');
  const bytes = readFileSync(wasmPath);
  prepareZXingModule({
    overrides: { wasmBinary: bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) },
  });
  prepared = true;
}

const READER: ReaderOptions = {
  formats: ['QRCode'],
  tryHarder: true,
  tryRotate: true,
  tryInvert: false,
  tryDownscale: true,
  maxNumberOfSymbols: 4,
};

/** A seen symbol narrower than this, in pixels, is noise: a real e-invoice QR is over half an inch wide. */
const MIN_SYMBOL_PX = 40;
/** Symbols seen but not read that get a closer look: few, so a page without a code stays cheap. */
const MAX_RETRIED_SYMBOLS = 2;
/** Margin round a symbol seen but not read, as a share of its size, so the crop holds its quiet zone. */
const SYMBOL_MARGIN = 0.3;
/** The crop's side, as a share of the symbol's: the symbol plus its margin on both sides. */
const SYMBOL_CROP = 1.6;
/** Where IRP e-invoice prints put the code, as shares of the page: its top right corner. */
const IRP_CORNER = { left: 0.5, width: 0.5, height: 0.35 } as const;
/** Crops are enlarged this many times: more pixels per module on 150–200 dpi scans. */
const CROP_SCALE = 2;
/** Median filter size, in pixels, that removes scan speckle breaking finder patterns. */
const SPECKLE_MEDIAN_PX = 3;
/** The hard threshold of a binarised crop: mid grey. */
const MID_GREY = 128;
/** Largest grey value of an 8-bit image (the PGM header's maxval). */
const MAX_GREY = 255;

interface Gray {
  data: Uint8Array;
  width: number;
  height: number;
}

interface Hit {
  text: string;
  /** Corner points in the coordinates of the original image. */
  box: [number, number, number, number];
}

/**
 * Find and decode the GST e-invoice QR code on a page image, verifying its signature when a key
 * is given. Returns null when the page has no QR code whose text looks like an e-invoice
 * (a JWT with a `data` claim, or bare JSON with e-invoice keys).
 * Scanned QR codes are often too blurred or small to decode whole-page, so after the full page
 * it tries upscaled (and binarised) crops around any symbol it saw but could not read and of the
 * top right corner where IRP prints put the code. Below ~2 pixels per module (a 150 dpi blurred
 * scan of a dense IRP code) no variant decodes; the printed IRN is then the only source.
 */
export async function findEinvoiceQr(image: Uint8Array, options?: FindQrOptions): Promise<EinvoiceQr | null> {
  ensureZxing();
  let gray: Gray;
  if (options?.raw) {
    if (image.length !== options.raw.width * options.raw.height)
      throw new Error('raw grey image size does not match width × height');
    gray = { data: image, width: options.raw.width, height: options.raw.height };
  } else {
    // sharp (and the OCR module) only load when an encoded image has to be decoded.
    const { decodeGray } = await import('../ocr/page.ts');
    gray = await decodeGray(image);
  }
  for await (const hit of scanVariants(gray, options?.retries ?? true)) {
    const parsed = parseEinvoiceQr(hit.text, options?.publicKeyPem);
    if (!parsed) continue;
    const k = options?.dpi ? POINTS_PER_INCH / options.dpi : 1;
    const [ox, oy] = options?.dpi && options.origin ? options.origin : [0, 0];
    const [x0, y0, x1, y1] = hit.box;
    parsed.bbox = [round2(ox + x0 * k), round2(oy + y0 * k), round2(ox + x1 * k), round2(oy + y1 * k)];
    return parsed;
  }
  return null;
}

async function* scanVariants(gray: Gray, retries: boolean): AsyncGenerator<Hit> {
  // 1. The whole page as is: clean renders and 200 dpi scans decode here (~100 ms).
  //    Symbols that are found but fail to decode are remembered for a closer look.
  const failed: Array<[number, number, number, number]> = [];
  yield* decode(gray, 0, 0, 1, failed);
  if (!retries) return;
  const { width: w, height: h } = gray;
  // 2. Upscaled crops: around each symbol that was seen but not read, then the top right
  //    corner where IRP e-invoice prints put the code. Upscaling gives the detector more
  //    pixels per module on 150–200 dpi scans; the binarised copy drops JPEG ringing.
  //    Kept to a handful of tries so a page without a QR code costs little more than step 1.
  const regions: Array<[number, number, number, number]> = [];
  for (const [x0, y0, x1, y1] of failed.slice(0, MAX_RETRIED_SYMBOLS)) {
    const size = Math.max(x1 - x0, y1 - y0);
    if (size < MIN_SYMBOL_PX) continue;
    const margin = size * SYMBOL_MARGIN;
    regions.push([x0 - margin, y0 - margin, size * SYMBOL_CROP, size * SYMBOL_CROP]);
  }
  regions.push([w * IRP_CORNER.left, 0, w * IRP_CORNER.width, h * IRP_CORNER.height]);
  for (const [rx, ry, rw, rh] of regions) {
    const left = Math.max(0, Math.round(rx));
    const top = Math.max(0, Math.round(ry));
    const cw = Math.min(w - left, Math.round(rw));
    const ch = Math.min(h - top, Math.round(rh));
    if (cw < MIN_SYMBOL_PX || ch < MIN_SYMBOL_PX) continue;
    for (const binarise of [false, true]) {
      const crop = await cropScale(gray, left, top, cw, ch, CROP_SCALE, binarise);
      yield* decode(crop, left, top, CROP_SCALE);
    }
  }
}

async function cropScale(
  g: Gray,
  left: number,
  top: number,
  width: number,
  height: number,
  scale: number,
  binarise: boolean,
): Promise<Gray> {
  const { default: sharp } = await import('sharp');
  let p = sharp(g.data, { raw: { width: g.width, height: g.height, channels: 1 } })
    .extract({ left, top, width, height })
    .resize(Math.round(width * scale), Math.round(height * scale), { kernel: 'cubic' });
  // A median pass removes scan speckle that breaks finder patterns; then a hard threshold.
  if (binarise) p = p.median(SPECKLE_MEDIAN_PX).normalise().threshold(MID_GREY);
  const { data, info } = await p.grayscale().raw().toBuffer({ resolveWithObject: true });
  return {
    data: new Uint8Array(data.buffer, data.byteOffset, info.width * info.height),
    width: info.width,
    height: info.height,
  };
}

async function* decode(
  g: Gray,
  offX: number,
  offY: number,
  scale: number,
  failed?: Array<[number, number, number, number]>,
): AsyncGenerator<Hit> {
  // Handed over as a binary PGM: zxing's image loader reads it straight into its luminance
  // buffer, where an RGBA ImageData would cost a 4× expansion here and a conversion back
  // inside (~3× slower on a full page).
  const results = await readBarcodes(encodePgm(g), failed ? { ...READER, returnErrors: true } : READER);
  for (const r of results) {
    const p = r.position;
    const xs = [p.topLeft.x, p.topRight.x, p.bottomLeft.x, p.bottomRight.x];
    const ys = [p.topLeft.y, p.topRight.y, p.bottomLeft.y, p.bottomRight.y];
    if (!r.isValid || !r.text) {
      failed?.push([Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)]);
      continue;
    }
    yield {
      text: r.text,
      box: [
        offX + Math.min(...xs) / scale,
        offY + Math.min(...ys) / scale,
        offX + Math.max(...xs) / scale,
        offY + Math.max(...ys) / scale,
      ],
    };
  }
}

/** Binary PGM (P5) of dense grey pixels. */
function encodePgm(g: Gray): Uint8Array {
  const header = new TextEncoder().encode(`P5\n${g.width} ${g.height}\n${MAX_GREY}\n`);
  const out = new Uint8Array(header.length + g.data.length);
  out.set(header, 0);
  out.set(g.data, header.length);
  return out;
}

/** A JWT is three base64url parts: header, claims, signature. */
const JWT_PARTS = 3;

const PAYLOAD_KEYS = [
  'SellerGstin',
  'BuyerGstin',
  'DocNo',
  'DocTyp',
  'DocDt',
  'TotInvVal',
  'ItemCnt',
  'MainHsnCode',
  'Irn',
  'IrnDt',
] as const;

/**
 * Interpret QR text as a GST e-invoice code: an IRP-signed JWT whose `data` claim is a JSON
 * string of invoice fields (verified with RS256 when a key is given), or, as some printers
 * emit, the bare JSON. Returns null for any other QR (UPI payment codes, URLs).
 */
export function parseEinvoiceQr(text: string, publicKeyPem?: string): EinvoiceQr | null {
  const raw = text.trim();
  const parts = raw.split('.');
  if (parts.length === JWT_PARTS && parts.every((p) => /^[A-Za-z0-9_-]+={0,2}$/.test(p))) {
    const [h, p, s] = parts as [string, string, string];
    const header = parseJson(Buffer.from(h, 'base64url').toString('utf8'));
    const claims = parseJson(Buffer.from(p, 'base64url').toString('utf8'));
    if (!claims) return null;
    const data =
      typeof claims.data === 'string' ? parseJson(claims.data) : isRecord(claims.data) ? claims.data : null;
    const payload = pickPayload(data ?? claims);
    if (!payload) return null;
    let signatureValid: boolean | null = null;
    if (publicKeyPem) {
      const alg = header && typeof header.alg === 'string' ? header.alg : 'RS256';
      signatureValid = alg === 'RS256' ? verifyRs256(`${h}.${p}`, s, publicKeyPem) : false;
    }
    return { raw, payload, signatureValid, bbox: null };
  }
  const json = parseJson(raw);
  const payload = json ? pickPayload(isRecord(json.data) ? json.data : json) : null;
  return payload ? { raw, payload, signatureValid: null, bbox: null } : null;
}

function verifyRs256(signingInput: string, signature: string, publicKeyPem: string): boolean {
  try {
    return verify('RSA-SHA256', Buffer.from(signingInput), publicKeyPem, Buffer.from(signature, 'base64url'));
  } catch {
    return false;
  }
}

/** Keep the known keys with the right types; null when none of the identifying keys is present. */
function pickPayload(obj: Record<string, unknown>): EinvoiceQrPayload | null {
  const out: EinvoiceQrPayload = {};
  for (const key of PAYLOAD_KEYS) {
    const v = obj[key];
    if (v === undefined || v === null || v === '') continue;
    if (key === 'TotInvVal' || key === 'ItemCnt') {
      const n = typeof v === 'number' ? v : Number(String(v).replaceAll(',', ''));
      if (Number.isFinite(n)) out[key] = n;
    } else out[key] = String(v).trim();
  }
  if (!out.Irn && !out.SellerGstin && !out.DocNo) return null;
  return out;
}

function parseJson(s: string): Record<string, unknown> | null {
  try {
    const v: unknown = JSON.parse(s);
    return isRecord(v) ? v : null;
  } catch {
    return null;
  }
}

function isRecord(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
