import type { DocumentFormat } from '@bahi/contracts';

/** Formats the engine accepts (the contracts' document formats), recognised from their first bytes. */
export type SniffedType = DocumentFormat;

/** A format's magic: these bytes at these offsets of the file (all parts must match). */
interface Signature {
  format: SniffedType;
  parts: Array<{ at: number; bytes: number[] }>;
}

/**
 * The image formats' magic bytes (each format's specification), tried in order. TIFF has one
 * signature per byte order; WebP is a RIFF container whose form type, at byte 8, is "WEBP".
 */
const SIGNATURES: readonly Signature[] = [
  // "\x89PNG\r\n\x1a\n"
  { format: 'png', parts: [{ at: 0, bytes: [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a] }] },
  // SOI marker, then the first segment's marker byte
  { format: 'jpeg', parts: [{ at: 0, bytes: [0xff, 0xd8, 0xff] }] },
  // "II*\0" (little-endian) and "MM\0*" (big-endian)
  { format: 'tiff', parts: [{ at: 0, bytes: [0x49, 0x49, 0x2a, 0x00] }] },
  { format: 'tiff', parts: [{ at: 0, bytes: [0x4d, 0x4d, 0x00, 0x2a] }] },
  // "RIFF" … "WEBP"
  {
    format: 'webp',
    parts: [
      { at: 0, bytes: [0x52, 0x49, 0x46, 0x46] },
      { at: 8, bytes: [0x57, 0x45, 0x42, 0x50] },
    ],
  },
  // "GIF8" (GIF87a and GIF89a)
  { format: 'gif', parts: [{ at: 0, bytes: [0x47, 0x49, 0x46, 0x38] }] },
];

/** The PDF header; readers accept junk before it within the first kilobyte, and so do we. */
const PDF_HEADER = '%PDF-';
/** How far into the file the PDF header may start. */
const PDF_HEADER_WINDOW = 1024;

const hasBytes = (b: Uint8Array, sig: number[], at: number): boolean => sig.every((v, i) => b[at + i] === v);

/**
 * Recognise a file's format from its magic bytes, never its name (a JPEG renamed .pdf is a JPEG).
 * PDFs may carry junk before `%PDF-` (allowed within the first 1024 bytes, as readers do).
 */
export function sniffType(bytes: Uint8Array): SniffedType | null {
  const image = SIGNATURES.find((s) => s.parts.every((p) => hasBytes(bytes, p.bytes, p.at)));
  if (image) return image.format;
  const head = Buffer.from(bytes.subarray(0, PDF_HEADER_WINDOW)).toString('latin1');
  if (head.includes(PDF_HEADER)) return 'pdf';
  return null;
}
