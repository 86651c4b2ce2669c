import { describe, expect, it } from 'vitest';
import { buildLines } from './layout.ts';
import { sniffType } from './sniff.ts';
import type { Word } from './types.ts';

const w = (text: string, x0: number, y0: number, h = 10, source: 'text' | 'ocr' = 'text'): Word => ({
  text,
  x0,
  y0,
  x1: x0 + text.length * 5,
  y1: y0 + h,
  page: 1,
  source,
  conf: 1,
});

describe('buildLines', () => {
  it('cuts a line into segments at wide gaps and keeps phrases together', () => {
    const lines = buildLines({
      page: 1,
      width: 595,
      height: 842,
      source: 'text',
      words: [
        w('Invoice', 300, 50),
        w('No.', 338, 50),
        w(':', 356, 50),
        w('INV-7', 362, 50),
        w('Bill', 40, 50),
        w('To', 63, 50),
      ],
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.segments.map((s) => s.text)).toEqual(['Bill To', 'Invoice No. : INV-7']);
  });

  it('keeps a tall logo or heading from swallowing the lines beside it', () => {
    const lines = buildLines({
      page: 1,
      width: 595,
      height: 842,
      source: 'text',
      words: [w('VS', 30, 30, 24), w('Vishwakarma', 80, 30, 15), w('Ltd', 80, 46, 15), w('Gat', 80, 62, 10)],
    });
    expect(lines.map((l) => l.text).sort()).toEqual(['Gat', 'Ltd', 'VS', 'Vishwakarma']);
  });

  it('groups OCR words whose boxes move with ascenders and descenders', () => {
    const lines = buildLines({
      page: 1,
      width: 595,
      height: 842,
      source: 'ocr',
      words: [
        w('Galaxy', 100, 91, 9, 'ocr'),
        w('Industrial', 140, 93, 7, 'ocr'),
        w('Supplies', 195, 91, 9, 'ocr'),
      ],
    });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.text).toBe('Galaxy Industrial Supplies');
  });
});

describe('buildLines: OCR words cut after a capital', () => {
  const page = (words: Word[]) => ({ page: 1, width: 595, height: 842, words, source: 'ocr' as const });
  it('joins a lone capital with the lower-case fragment right after it', () => {
    // "Invoice N o" and "D ate" as OCR cut a letter-spaced heading.
    const words = [w('Invoice', 10, 100, 10, 'ocr'), w('N', 47, 100, 10, 'ocr'), w('o', 54, 100, 10, 'ocr')];
    words.push(w('D', 62, 100, 10, 'ocr'), w('ate', 69, 100, 10, 'ocr'));
    expect(buildLines(page(words))[0]!.text).toBe('Invoice No Date');
  });

  it('leaves the words A and I, capitals before capitals, and text-layer words alone', () => {
    const words = [w('I', 10, 100, 10, 'ocr'), w('am', 17, 100, 10, 'ocr'), w('G', 40, 100, 10, 'ocr')];
    words.push(w('ST', 47, 100, 10, 'ocr'));
    expect(buildLines(page(words))[0]!.text).toBe('I am G ST');
    const text = [w('D', 10, 100), w('ate', 17, 100)];
    expect(buildLines({ ...page(text), source: 'text' })[0]!.text).toBe('D ate');
  });
});

describe('sniffType', () => {
  it('recognises formats by content, not name', () => {
    expect(sniffType(new Uint8Array([0xff, 0xd8, 0xff, 0xe0]))).toBe('jpeg');
    expect(sniffType(new TextEncoder().encode('%PDF-1.7\n'))).toBe('pdf');
    expect(sniffType(new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe('png');
    expect(sniffType(new TextEncoder().encode('RIFF\0\0\0\0WEBPVP8 '))).toBe('webp');
    expect(sniffType(new TextEncoder().encode('hello'))).toBeNull();
  });
});
