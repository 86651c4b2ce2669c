import { inflateSync, constants as zlibConstants } from 'node:zlib';
import { listDocumentFormats } from '@bahi/contracts';
import { parseIndianDate } from '@bahi/india';
import type * as mupdf from 'mupdf';
import { recheckResult } from './checks.ts';
import { classifyDocument } from './classify.ts';
import { completeWithProvider, type FieldProvider } from './field-provider.ts';
import { type Interpretation, interpretDocument, type QrReading } from './interpret.ts';
import { buildLayout } from './layout.ts';
import { applyMemory, recallIssuer } from './memory/recall.ts';
import type { IssuerMemory, MemoryStore } from './memory/types.ts';
import { openPdf, readPageWords } from './pdf/text.ts';
import { profileOf } from './profiles/index.ts';
import {
  buildErrorResult,
  EXTRACTION_CONTRACT,
  ExtractionError,
  type ExtractionErrorCode,
  type ExtractionResult,
} from './result.ts';
import { sniffType } from './sniff.ts';
import { splitPages } from './split.ts';
import type { DocumentType, OcrProvider, PageContent, Word } from './types.ts';
import { isAsciiAlphanumeric, mebibytes, POINTS_PER_INCH } from './util.ts';

/** Options of {@link extractDocument}. */
export interface ExtractOptions {
  /** Reported back as `file`. */
  fileName?: string;
  /** What the document is (a flow always knows); classified from its title and wording when absent. */
  type?: DocumentType;
  /** OCR for image-only pages; without it such pages yield a warning and no fields. */
  ocr?: OcrProvider;
  /** PEM key of the IRP to verify e-invoice QR signatures. */
  qrPublicKeyPem?: string;
  /** Per-document time limit (default 600 s). */
  timeoutMs?: number;
  /** Largest input accepted (default 32 MB). */
  maxBytes?: number;
  /** Most pages accepted (default 100). */
  maxPages?: number;
  /** Abandon the document. */
  signal?: AbortSignal;
  /** Asked for header fields the rules left empty (see `FieldProvider`); none by default. */
  fieldProvider?: FieldProvider;
  /** Told as pages are read (`read` of `pages`; OCR makes a scanned page take seconds), for progress bars. */
  onPage?: (read: number, pages: number) => void;
  /** What people taught Bahi about issuers' paper (`memory/`): applied over the rules' reading. */
  memory?: MemoryStore;
  /**
   * Read only these pages of a PDF (1-based, inclusive): one document of a batch read again on its own.
   * The result keeps the file's page numbers (provenance) and carries this `pageRange`.
   */
  pages?: [number, number];
}

/** Default limits: generous for real invoices, tight enough to keep a batch moving. */
export const DEFAULT_LIMITS = { timeoutMs: 600_000, maxBytes: 32 * 1024 * 1024, maxPages: 100 } as const;

/** Resolution scanned pages are rendered at for OCR, unless the raster cap needs less (`ocrDpiFor`). */
const OCR_DPI = 300;
/** Resolution a scanned page is rendered again at for the QR search (see `loadPdf`). */
const QR_DPI = 200;
/** Highest resolution a QR region of a text page is drawn at: a half-inch code is 300 pixels across. */
const MAX_QR_REGION_DPI = 600;
/** Scanned pages searched for the e-invoice QR, from the first: each search decodes a whole page or more. */
const MAX_QR_PAGES = 3;
/** Code-like squares of a text page rendered for the QR search, largest first. */
const MAX_QR_REGIONS = 3;
/** Largest page raster we produce, in pixels: bounds memory against absurd page sizes. */
const MAX_RENDER_PIXELS = 60_000_000;
/** Largest decompressed content stream per page: a PDF bomb stops here. */
const MAX_CONTENT_BYTES = mebibytes(16);
/** Letters and digits a page's text layer needs to be read as text: fewer is a scan or a logo. */
const MIN_TEXT_CHARS = 40;
/**
 * Overlap, as a share of the smaller box on each axis, for an OCR word to stand where a garbled
 * text-layer word does.
 */
const SAME_PLACE_OVERLAP = 0.3;
/** How the warning of a page left unread for want of OCR ends (an empty document's reason quotes it). */
const NO_OCR_PROVIDER = 'no OCR provider was given';
/** Confidence of a field whose check fails after memory, as the rules' calibration caps it. */
const FAILED_CHECK_CONFIDENCE = 0.5;

/** A page needs OCR when its text layer has too little real text (scans, or a logo-only layer). */
export function hasUsableText(page: PageContent): boolean {
  let chars = 0;
  for (const w of page.words) for (const c of w.text) if (isAsciiAlphanumeric(c)) chars++;
  return chars >= MIN_TEXT_CHARS;
}

/**
 * Below this resolution print is too small to read: a page that would have to be rendered lower to
 * stay under the raster cap (larger than about four A0 sheets) is refused, not rendered.
 */
const MIN_OCR_DPI = 100;

/**
 * The OCR resolution of a page: 300 dpi, less for pages so large the raster would pass its cap;
 * `too_large` for a page that would not be legible within the cap.
 */
function ocrDpiFor(page: mupdf.Page, index: number): number {
  const [bx0, by0, bx1, by1] = page.getBounds();
  const area = (bx1 - bx0) * (by1 - by0);
  const fits = Math.floor(POINTS_PER_INCH * Math.sqrt(MAX_RENDER_PIXELS / Math.max(area, 1)));
  if (fits < MIN_OCR_DPI) {
    const inches = (v: number) => Math.round(v / POINTS_PER_INCH);
    throw new ExtractionError(
      'too_large',
      `page ${index + 1} is too large to read (${inches(bx1 - bx0)} × ${inches(by1 - by0)} inches)`,
    );
  }
  return Math.min(OCR_DPI, fits);
}

/** Render a PDF page at its OCR resolution and recognise its words. */
async function ocrPdfPage(page: mupdf.Page, index: number, ocr: OcrProvider, o: ResolvedOptions) {
  const dpi = ocrDpiFor(page, index);
  const { renderPage } = await import('./pdf/render.ts');
  const { ocrPageImage } = await import('./ocr/page.ts');
  const img = renderPage(page, dpi);
  checkDeadline(o.deadline, o.signal);
  const ocred = await ocrPageImage(ocr, img.gray, {
    pageNumber: index + 1,
    dpi,
    raw: { width: img.width, height: img.height },
    signal: o.signal,
  });
  return { ocred, dpi };
}

/** Characters a text layer gives for glyphs its font cannot name: the replacement character, private use. */
const GARBLED = /[\uFFFD\uE000-\uF8FF]/;
/** This many unnamed words on a page and its text layer is read again from pixels where they stand. */
const MIN_GARBLED_WORDS = 3;

/** Words of a text layer holding characters its font could not name. */
export function countGarbledWords(page: PageContent): number {
  return page.words.filter((w) => GARBLED.test(w.text)).length;
}

/**
 * Replace a text layer's garbled words with the OCR words read where they stand: every clean
 * text-layer word is kept as printed, and an OCR word is taken only where a garbled word was
 * (never from logos or rules elsewhere on the page).
 */
export function replaceGarbledWords(text: Word[], ocr: Word[]): Word[] {
  const clean = text.filter((w) => !GARBLED.test(w.text));
  const garbled = text.filter((w) => GARBLED.test(w.text));
  const overlaps = (a: Word, b: Word) =>
    Math.min(a.x1, b.x1) - Math.max(a.x0, b.x0) > SAME_PLACE_OVERLAP * Math.min(a.x1 - a.x0, b.x1 - b.x0) &&
    Math.min(a.y1, b.y1) - Math.max(a.y0, b.y0) > SAME_PLACE_OVERLAP * Math.min(a.y1 - a.y0, b.y1 - b.y0);
  const added = ocr.filter((o) => garbled.some((g) => overlaps(o, g)) && !clean.some((t) => overlaps(o, t)));
  return [...clean, ...added];
}

function checkDeadline(deadline: number, signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new ExtractionError('too_large', 'extraction was cancelled');
  if (Date.now() > deadline)
    throw new ExtractionError('too_large', 'document exceeded the per-document time limit');
}

/**
 * Refuse pages whose content streams inflate beyond a bound (a "PDF bomb"): mupdf would
 * otherwise decompress them whole into memory. Raw streams are tiny for real documents, so the
 * check costs little; only Flate (the only filter bombs use in practice) is measured.
 */
function assertPageNotBomb(doc: mupdf.Document, index: number): void {
  const pdf = doc.asPDF();
  if (!pdf) return;
  const pageObj = (pdf.loadPage(index) as mupdf.PDFPage).getObject();
  const streams: mupdf.PDFObject[] = [];
  const contents = pageObj.get('Contents');
  if (contents.isArray())
    contents.forEach((c: mupdf.PDFObject) => {
      streams.push(c);
    });
  else if (!contents.isNull()) streams.push(contents);
  const resources = pageObj.getInheritable('Resources');
  const xobjects = resources.isDictionary() ? resources.get('XObject') : null;
  if (xobjects?.isDictionary())
    xobjects.forEach((x: mupdf.PDFObject) => {
      const sub = x.get('Subtype');
      if (sub.isName() && sub.asName() === 'Form') streams.push(x);
    });
  let budget = MAX_CONTENT_BYTES;
  for (const s of streams) {
    // Indirect references answer isStream()/readRawStream() themselves; resolve() drops the stream.
    const obj = s;
    if (!obj.isStream()) continue;
    const filter = obj.get('Filter');
    const name = filter.isArray() ? filter.get(0).asName() : filter.isName() ? filter.asName() : '';
    if (name !== 'FlateDecode' && name !== 'Fl') continue;
    const buf = obj.readRawStream();
    // Copy out of WASM memory: the view dies with the mupdf buffer.
    const raw = new Uint8Array(buf.asUint8Array());
    buf.destroy();
    try {
      const out = inflateSync(raw, { maxOutputLength: budget, finishFlush: zlibConstants.Z_SYNC_FLUSH });
      budget -= out.length;
    } catch (e) {
      if (e instanceof RangeError || (e as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE')
        throw new ExtractionError(
          'too_large',
          `page ${index + 1} content inflates beyond ${MAX_CONTENT_BYTES} bytes`,
        );
      // A damaged stream is mupdf's problem to repair or report; not a bomb.
    }
  }
}

function mapLoadError(e: unknown): ExtractionError {
  if (e instanceof ExtractionError) return e;
  const code = (e as { code?: string }).code;
  const msg = e instanceof Error ? e.message : String(e);
  if (code === 'too_large' || code === 'unsupported_type' || code === 'unreadable_file')
    return new ExtractionError(code as ExtractionErrorCode, msg);
  return new ExtractionError('unreadable_file', msg);
}

interface Loaded {
  pages: PageContent[];
  pageCount: number;
  /** A PDF mupdf had to repair (broken cross-references, cut short): when nothing is read, it is damaged, not empty. */
  damaged: boolean;
  warnings: string[];
  /**
   * The scanned pages' images for the e-invoice QR search, each made when first searched (a
   * scanned PDF page is rendered again at `QR_DPI`; an image file's pages are already decoded).
   */
  images: Array<{ page: number; make: () => QrImage }>;
  /**
   * Renders the places on a page (1-based; a document's first page) where a QR code is drawn, for
   * a QR search on a text page (only when the text mentions an e-invoice).
   */
  renderForQr: ((page: number) => Promise<QrImage[]>) | null;
}

/** An image searched for the e-invoice QR: a whole scanned page, or a region of a text page. */
interface QrImage {
  page: number;
  gray: Uint8Array;
  width: number;
  height: number;
  dpi: number;
  /** Page position (points) of the image's top-left pixel when it is a region. */
  origin?: [number, number];
  /** A clean vector render: no retries on upscaled or binarised crops. */
  clean?: boolean;
}

/** Pixels across a rendered QR candidate region: ~5 pixels per module for a dense IRP code. */
const QR_REGION_PX = 700;

async function loadPdf(bytes: Uint8Array, o: ResolvedOptions): Promise<Loaded> {
  let doc: mupdf.Document;
  try {
    doc = openPdf(bytes);
  } catch (e) {
    throw new ExtractionError('unreadable_file', `not a readable PDF: ${(e as Error).message}`);
  }
  if (doc.needsPassword()) throw new ExtractionError('encrypted_pdf', 'the PDF is password-protected');
  let count: number;
  try {
    count = doc.countPages();
  } catch (e) {
    throw new ExtractionError('unreadable_file', `cannot read the page tree: ${(e as Error).message}`);
  }
  if (count === 0) throw new ExtractionError('empty_document', 'the PDF has no pages');
  if (count > o.maxPages) throw new ExtractionError('too_large', `${count} pages (limit ${o.maxPages})`);
  const pages: PageContent[] = [];
  const warnings: string[] = [];
  const images: Loaded['images'] = [];
  let readable = 0;
  for (let i = 0; i < count; i++) {
    if (o.pages && (i + 1 < o.pages[0] || i + 1 > o.pages[1])) continue;
    checkDeadline(o.deadline, o.signal);
    o.onPage?.(i, count);
    let page: mupdf.Page;
    let content: PageContent;
    try {
      assertPageNotBomb(doc, i);
      page = doc.loadPage(i);
      content = readPageWords(page, i + 1);
      readable++;
    } catch (e) {
      if (e instanceof ExtractionError) throw e;
      warnings.push(`page ${i + 1} could not be read: ${(e as Error).message}`);
      continue;
    }
    const garbled = hasUsableText(content) && countGarbledWords(content) >= MIN_GARBLED_WORDS;
    if (garbled && o.ocr) {
      // A font without a character map prints figures the text layer cannot name ("�������"):
      // those words are read from the page's pixels, the rest of the text layer is kept.
      const { ocred } = await ocrPdfPage(page, i, o.ocr, o);
      content = { ...content, words: replaceGarbledWords(content.words, ocred.words) };
    }
    if (!hasUsableText(content)) {
      if (o.ocr) {
        const { ocred, dpi } = await ocrPdfPage(page, i, o.ocr, o);
        // Keep any real text-layer words (a printed stamp over a scan) beside the OCR words.
        content = { ...ocred, words: [...content.words, ...ocred.words], source: 'ocr' };
        // The QR is searched on a render of its own: at the 300 dpi OCR reads, a 150–200 dpi scan's
        // modules are interpolated soft and the decoder misses codes it reads at about 200 dpi.
        const { renderPage } = await import('./pdf/render.ts');
        const scanned = page;
        const qrDpi = Math.min(QR_DPI, dpi);
        images.push({
          page: i + 1,
          make: () => {
            const r = renderPage(scanned, qrDpi);
            return { page: i + 1, gray: r.gray, width: r.width, height: r.height, dpi: qrDpi };
          },
        });
      } else warnings.push(`page ${i + 1} has no text layer and ${NO_OCR_PROVIDER}`);
    }
    pages.push(content);
  }
  if (!readable) throw new ExtractionError('unreadable_file', 'no page of the PDF could be read');
  // Only the squares where a code is drawn (an image, a dark square path, a cluster of modules)
  // are rendered, at a resolution that gives the decoder ~5 pixels per module; a page that
  // draws nothing code-like is not rendered at all.
  const renderForQr = async (pageNumber: number): Promise<QrImage[]> => {
    const { findCodeRegions } = await import('./pdf/code-regions.ts');
    const found = findCodeRegions(doc.loadPage(pageNumber - 1));
    try {
      return found.regions.slice(0, MAX_QR_REGIONS).map(([x0, y0, x1, y1]) => {
        const side = Math.max(x1 - x0, y1 - y0);
        const dpi = Math.max(QR_DPI, Math.min(MAX_QR_REGION_DPI, (POINTS_PER_INCH * QR_REGION_PX) / side));
        return { page: pageNumber, ...found.render([x0, y0, x1, y1], dpi), clean: true };
      });
    } finally {
      found.dispose();
    }
  };
  const damaged = doc.asPDF()?.wasRepaired() ?? false;
  o.onPage?.(count, count);
  return { pages, pageCount: count, damaged, warnings, images, renderForQr };
}

async function loadImage(bytes: Uint8Array, o: ResolvedOptions): Promise<Loaded> {
  const { loadImagePages, MAX_IMAGE_PAGES } = await import('./image/load.ts');
  let imgs: Awaited<ReturnType<typeof loadImagePages>>;
  try {
    imgs = await loadImagePages(bytes, Math.min(o.maxPages, MAX_IMAGE_PAGES));
  } catch (e) {
    throw mapLoadError(e);
  }
  if (!imgs.length) throw new ExtractionError('empty_document', 'the image has no frames');
  const pages: PageContent[] = [];
  const warnings: string[] = [];
  const images: Loaded['images'] = [];
  for (let i = 0; i < imgs.length; i++) {
    checkDeadline(o.deadline, o.signal);
    o.onPage?.(i, imgs.length);
    const img = imgs[i]!;
    images.push({
      page: i + 1,
      make: () => ({ page: i + 1, gray: img.gray, width: img.width, height: img.height, dpi: img.dpi }),
    });
    if (!o.ocr) {
      warnings.push(`page ${i + 1} is an image and ${NO_OCR_PROVIDER}`);
      const w = (img.width * POINTS_PER_INCH) / img.dpi;
      const h = (img.height * POINTS_PER_INCH) / img.dpi;
      pages.push({ page: i + 1, width: w, height: h, words: [], source: 'ocr' });
      continue;
    }
    const { ocrPageImage } = await import('./ocr/page.ts');
    pages.push(
      await ocrPageImage(o.ocr, img.gray, {
        pageNumber: i + 1,
        dpi: img.dpi,
        raw: { width: img.width, height: img.height },
        signal: o.signal,
      }),
    );
  }
  o.onPage?.(imgs.length, imgs.length);
  return { pages, pageCount: imgs.length, damaged: false, warnings, images, renderForQr: null };
}

interface ResolvedOptions {
  ocr: OcrProvider | undefined;
  deadline: number;
  maxPages: number;
  signal: AbortSignal | undefined;
  onPage: ((read: number, pages: number) => void) | undefined;
  /** Only these pages of a PDF are loaded (`ExtractOptions.pages`). */
  pages?: [number, number] | undefined;
}

/** How words that speak of an e-invoice begin (lower case): the IRN, the acknowledgement. */
const EINVOICE_WORDS = ['irn', 'einvoice', 'e-invoice', 'ack'];

const mentionsEinvoice = (pages: PageContent[]) =>
  pages.some((p) =>
    p.words.some((w) => {
      const word = w.text.toLowerCase();
      return EINVOICE_WORDS.some((start) => word.startsWith(start));
    }),
  );

async function findQr(
  loaded: Loaded,
  type: DocumentType,
  publicKeyPem: string | undefined,
): Promise<QrReading | null> {
  if (!profileOf(type).einvoiceQr) return null;
  const textPages = loaded.pages.filter((p) => p.source === 'text');
  const candidates = loaded.images.slice(0, MAX_QR_PAGES).map((i) => i.make);
  if (!candidates.length && textPages.length && mentionsEinvoice(textPages) && loaded.renderForQr) {
    candidates.push(...(await loaded.renderForQr(loaded.pages[0]!.page)).map((img) => () => img));
  }
  if (!candidates.length) return null;
  const { findEinvoiceQr } = await import('./qr/index.ts');
  for (const make of candidates) {
    const img = make();
    const qr = await findEinvoiceQr(img.gray, {
      publicKeyPem,
      dpi: img.dpi,
      raw: { width: img.width, height: img.height },
      origin: img.origin,
      retries: !img.clean,
    });
    if (qr)
      return { ...qr, page: img.page, docDate: qr.payload.DocDt ? parseIndianDate(qr.payload.DocDt) : null };
  }
  return null;
}

/** Fields that alone do not show a document was read: the default currency, names, addresses. */
const NOT_EVIDENCE = new Set(['currency', 'vendorName', 'vendorAddress', 'buyerName', 'buyerAddress']);

/**
 * Why a document that loaded yields nothing, or null: no page had any text (blank pages, a
 * truncated file whose pages lost their content), or its text holds no field of the type at all.
 * Such a document is an error, never an empty success a finance team might book.
 */
function emptyReason(
  loaded: Loaded,
  fields: Record<string, unknown>,
  lineCount: number,
  type: DocumentType,
): string | null {
  const words = loaded.pages.reduce((n, p) => n + p.words.length, 0);
  if (words === 0) {
    const unread = loaded.warnings.find((w) => w.includes(NO_OCR_PROVIDER));
    return unread
      ? `no text could be read: ${unread}`
      : 'no text could be read from any page (blank, or the pages lost their content)';
  }
  // A name or address alone is a guess at a letterhead, not a reading of the document.
  const found = Object.entries(fields).some(
    ([k, v]) => !NOT_EVIDENCE.has(k) && v !== null && v !== undefined,
  );
  if (found || lineCount > 0) return null;
  return `its text holds no ${profileOf(type).noun} field (number, date, parties, amounts or lines)`;
}

/**
 * Read a document's pages the way extraction does (text layer, OCR for scans), for learning from a
 * correction of it. Throws `ExtractionError` for a file that cannot be read.
 */
export async function loadDocumentPages(
  bytes: Uint8Array,
  options: Pick<ExtractOptions, 'ocr' | 'timeoutMs' | 'maxPages' | 'signal'> = {},
): Promise<PageContent[]> {
  const kind = sniffType(bytes);
  if (!kind) throw new ExtractionError('unsupported_type', `not a ${listDocumentFormats()} file`);
  const o: ResolvedOptions = {
    ocr: options.ocr,
    deadline: Date.now() + (options.timeoutMs ?? DEFAULT_LIMITS.timeoutMs),
    maxPages: options.maxPages ?? DEFAULT_LIMITS.maxPages,
    signal: options.signal,
    onPage: undefined,
  };
  try {
    const loaded = kind === 'pdf' ? await loadPdf(bytes, o) : await loadImage(bytes, o);
    return loaded.pages;
  } catch (e) {
    throw e instanceof ExtractionError ? e : mapLoadError(e);
  }
}

/** Apply the issuer's memory, when there is one, and check the document again with its values. */
async function recallMemory(
  store: MemoryStore,
  pages: PageContent[],
  type: DocumentType,
  interpreted: Interpretation,
): Promise<void> {
  const layout = buildLayout(pages);
  let memory: IssuerMemory | null = null;
  try {
    memory = await recallIssuer(store, layout, type, interpreted.fields);
  } catch (e) {
    // Memory is help, never a condition: the rules' reading stands without it.
    interpreted.warnings.push(`memory could not be read: ${(e as Error).message}`);
  }
  if (!memory) return;
  const before = {
    fields: { ...interpreted.fields },
    confidence: { ...interpreted.confidence },
    provenance: { ...interpreted.provenance },
  };
  const touched = applyMemory(layout, memory, interpreted);
  if (!touched.length) return;
  const recheck = () =>
    recheckResult(
      { documentType: type, fields: before.fields, checks: interpreted.checks },
      interpreted.fields,
      interpreted.lineItems as Array<Record<string, unknown>>,
    );
  let checks = recheck();
  // A learned value that makes a check fail that passed without it (a state code against its
  // GSTIN, taxes against the total) is not this document's: the rules' reading stands.
  const passedBefore = new Set(interpreted.checks.filter((c) => c.ok).map((c) => `${c.code}|${c.field}`));
  const broken = checks.filter(
    (c) => !c.ok && c.field && touched.includes(c.field) && passedBefore.has(`${c.code}|${c.field}`),
  );
  for (const c of broken) {
    const f = c.field!;
    interpreted.fields[f] = before.fields[f] ?? null;
    if (f in before.confidence) interpreted.confidence[f] = before.confidence[f]!;
    else delete interpreted.confidence[f];
    if (f in before.provenance) interpreted.provenance[f] = before.provenance[f]!;
    else delete interpreted.provenance[f];
  }
  if (broken.length) checks = recheck();
  interpreted.checks = checks;
  for (const c of checks)
    if (!c.ok && c.field && c.field in interpreted.confidence)
      interpreted.confidence[c.field] = Math.min(interpreted.confidence[c.field]!, FAILED_CHECK_CONFIDENCE);
}

async function run(
  bytes: Uint8Array,
  options: ExtractOptions & { split?: boolean },
  file: string | null,
): Promise<ExtractionResult[]> {
  const maxBytes = options.maxBytes ?? DEFAULT_LIMITS.maxBytes;
  if (bytes.length === 0) return [buildErrorResult(file, 'empty_document', 'the file is empty (0 bytes)')];
  if (bytes.length > maxBytes)
    return [buildErrorResult(file, 'too_large', `${bytes.length} bytes (limit ${maxBytes})`)];
  const kind = sniffType(bytes);
  if (!kind) return [buildErrorResult(file, 'unsupported_type', `not a ${listDocumentFormats()} file`)];
  const o: ResolvedOptions = {
    ocr: options.ocr,
    deadline: Date.now() + (options.timeoutMs ?? DEFAULT_LIMITS.timeoutMs),
    maxPages: options.maxPages ?? DEFAULT_LIMITS.maxPages,
    signal: options.signal,
    onPage: options.onPage,
    pages: options.pages,
  };
  const loaded = kind === 'pdf' ? await loadPdf(bytes, o) : await loadImage(bytes, o);
  if (options.pages && kind === 'pdf') {
    if (loaded.pages.length === 0)
      throw new ExtractionError('empty_document', `the PDF has no pages ${options.pages.join('–')}`);
    const part = { ...loaded, pageCount: loaded.pages.length };
    return [{ ...(await readPart(part, options, file, o)), pageRange: options.pages }];
  }
  if (!options.split || loaded.pages.length < 2) return [await readPart(loaded, options, file, o)];
  checkDeadline(o.deadline, o.signal);
  const spans = splitPages(loaded.pages, options.type ?? classifyDocument(loaded.pages));
  if (spans.length === 1) return [await readPart(loaded, options, file, o)];
  const results: ExtractionResult[] = [];
  for (const span of spans) {
    const pages = loaded.pages.slice(span.from, span.to + 1);
    const numbers = new Set(pages.map((p) => p.page));
    const part: Loaded = {
      ...loaded,
      pages,
      pageCount: pages.length,
      images: loaded.images.filter((i) => numbers.has(i.page)),
    };
    const result = await readPart(part, options, file, o);
    results.push({ ...result, pageRange: [pages[0]!.page, pages[pages.length - 1]!.page] });
  }
  return results;
}

/** Read one document from its loaded pages: the whole file, or one document of a batch. */
async function readPart(
  loaded: Loaded,
  options: ExtractOptions,
  file: string | null,
  o: ResolvedOptions,
): Promise<ExtractionResult> {
  const type = options.type ?? classifyDocument(loaded.pages);
  checkDeadline(o.deadline, o.signal);
  const qr = await findQr(loaded, type, options.qrPublicKeyPem);
  const interpreted = interpretDocument(loaded.pages, type, qr);
  if (options.memory) await recallMemory(options.memory, loaded.pages, type, interpreted);
  const empty = emptyReason(loaded, interpreted.fields, interpreted.lineItems.length, type);
  if (empty) {
    // A repaired PDF that yields nothing is a damaged file (ask for a new copy), not a blank one.
    const error = loaded.damaged
      ? buildErrorResult(
          file,
          'unreadable_file',
          `the PDF is damaged and nothing could be read (${empty})`,
          type,
        )
      : buildErrorResult(file, 'empty_document', empty, type);
    return { ...error, pages: loaded.pageCount };
  }
  // Only a document the rules could read is completed: a provider never turns an empty one into a result.
  if (options.fieldProvider) {
    checkDeadline(o.deadline, o.signal);
    const text = buildLayout(loaded.pages)
      .lines.map((l, i, all) => (i > 0 && all[i - 1]!.page !== l.page ? `\f${l.text}` : l.text))
      .join('\n');
    await completeWithProvider(options.fieldProvider, type, text, interpreted, o.signal);
  }
  const sources = new Set(loaded.pages.map((p) => p.source));
  const source = interpreted.headerFromQr
    ? 'qr'
    : sources.size > 1
      ? 'mixed'
      : sources.has('ocr')
        ? 'ocr'
        : 'text';
  const result: ExtractionResult = {
    contract: EXTRACTION_CONTRACT,
    file,
    documentType: type,
    pages: loaded.pageCount,
    source,
    fields: interpreted.fields,
    lineItems: interpreted.lineItems,
    checks: interpreted.checks,
    confidence: interpreted.confidence,
    provenance: interpreted.provenance,
    error: null,
  };
  const warnings = [...loaded.warnings, ...interpreted.warnings];
  if (warnings.length) result.warnings = warnings;
  return result;
}

/**
 * Turn one document's bytes into its `extraction/v1` result. Never throws for bad input: a file
 * that cannot be read comes back with `error` set (unreadable_file, encrypted_pdf,
 * unsupported_type, empty_document, too_large) and nothing else guessed.
 */
export async function extractDocument(
  bytes: Uint8Array,
  options: ExtractOptions = {},
): Promise<ExtractionResult> {
  const [first] = await runWithLimits(bytes, options, false);
  return first!;
}

/**
 * Like {@link extractDocument}, for a file that may hold several documents scanned or printed in
 * one go (`split.ts` says where each begins): one result per document found, in page order, each
 * with its `pageRange` when there is more than one. A file of one document gives one result,
 * exactly as `extractDocument` would.
 */
export async function extractDocuments(
  bytes: Uint8Array,
  options: ExtractOptions = {},
): Promise<ExtractionResult[]> {
  return runWithLimits(bytes, options, true);
}

/** `run` under the time limit and the caller's abort signal; errors become error results. */
async function runWithLimits(
  bytes: Uint8Array,
  options: ExtractOptions,
  split: boolean,
): Promise<ExtractionResult[]> {
  const file = options.fileName ?? null;
  const timeoutMs = options.timeoutMs ?? DEFAULT_LIMITS.timeoutMs;
  const controller = new AbortController();
  const onAbort = () => controller.abort();
  options.signal?.addEventListener('abort', onAbort, { once: true });
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<ExtractionResult[]>((resolve) => {
    timer = setTimeout(() => {
      controller.abort();
      resolve([buildErrorResult(file, 'too_large', `processing exceeded the time limit of ${timeoutMs} ms`)]);
    }, timeoutMs);
  });
  try {
    return await Promise.race([
      run(bytes, { ...options, signal: controller.signal, split }, file).catch((e: unknown) => {
        const err = e instanceof ExtractionError ? e : mapLoadError(e);
        return [buildErrorResult(file, err.code, err.message)];
      }),
      timeout,
    ]);
  } finally {
    clearTimeout(timer);
    options.signal?.removeEventListener('abort', onAbort);
  }
}
