// Evaluated before mupdf: it creates the module object mupdf fills (see mupdf-module.ts).
import './mupdf-module.ts';
import * as mupdf from 'mupdf';
import type { PageContent, Word } from '../types.ts';
import { stextExports } from './mupdf-module.ts';

/** Where each corner's coordinates sit in a character's quad (mupdf's order). */
const QUAD = { ulx: 0, uly: 1, urx: 2, ury: 3, llx: 4, lly: 5, lrx: 6, lry: 7 } as const;

/** A space character (`trim` removes exactly the white space `\s` matches). */
const isSpace = (c: string) => c !== '' && c.trim() === '';

/** A gap wider than this share of the font size ends a word (table cells printed as one run). */
const WORD_GAP_EM = 0.3;

/**
 * Read the text layer of one mupdf page as words with boxes.
 * mupdf gives characters with quads; we cut words at spaces and at gaps wider than
 * a fraction of the font size, because table cells are often drawn as one "line" with no space.
 */
export function readPageWords(
  page: mupdf.Page,
  pageNumber: number,
  options?: {
    /** Read characters through `StructuredText.walk()` even when the exports are reachable (tests). */
    viaWalk?: boolean;
  },
): PageContent {
  const [bx0, by0, bx1, by1] = page.getBounds();
  const width = bx1 - bx0;
  const height = by1 - by0;
  const st = page.toStructuredText('preserve-whitespace');
  const words: Word[] = [];
  let cur: { text: string; x0: number; y0: number; x1: number; y1: number; size: number } | null = null;
  const flush = () => {
    if (cur?.text.trim()) {
      words.push({
        text: cur.text,
        x0: cur.x0 - bx0,
        y0: cur.y0 - by0,
        x1: cur.x1 - bx0,
        y1: cur.y1 - by0,
        page: pageNumber,
        source: 'text',
        conf: 1,
      });
    }
    cur = null;
  };
  const onChar = (c: string, size: number, q: ArrayLike<number>, at: number) => {
    const x0 = Math.min(q[at + QUAD.ulx] as number, q[at + QUAD.llx] as number);
    const x1 = Math.max(q[at + QUAD.urx] as number, q[at + QUAD.lrx] as number);
    const y0 = Math.min(q[at + QUAD.uly] as number, q[at + QUAD.ury] as number);
    const y1 = Math.max(q[at + QUAD.lly] as number, q[at + QUAD.lry] as number);
    if (isSpace(c)) {
      flush();
      return;
    }
    if (cur && x0 - cur.x1 > size * WORD_GAP_EM) flush();
    if (!cur) cur = { text: c, x0, y0, x1, y1, size };
    else {
      cur.text += c;
      cur.x1 = Math.max(cur.x1, x1);
      cur.y0 = Math.min(cur.y0, y0);
      cur.y1 = Math.max(cur.y1, y1);
    }
  };
  const lib = options?.viaWalk ? null : stextExports();
  if (lib && typeof st.pointer === 'number' && st.pointer) {
    // The same walk as StructuredText.walk(), through the WASM exports: no objects per character.
    for (let b = lib._wasm_stext_page_get_first_block(st.pointer); b; b = lib._wasm_stext_block_get_next(b)) {
      if (lib._wasm_stext_block_get_type(b) !== 0) continue;
      for (let l = lib._wasm_stext_block_get_first_line(b); l; l = lib._wasm_stext_line_get_next(l)) {
        flush();
        for (let ch = lib._wasm_stext_line_get_first_char(l); ch; ch = lib._wasm_stext_char_get_next(ch)) {
          const c = String.fromCharCode(lib._wasm_stext_char_get_c(ch));
          const size = lib._wasm_stext_char_get_size(ch);
          // The quad is in a static buffer: read it before the next call; HEAPF32 is re-read
          // each time because it is replaced when WASM memory grows.
          onChar(c, size, lib.HEAPF32, lib._wasm_stext_char_get_quad(ch) >> 2);
        }
        flush();
      }
    }
  } else {
    st.walk({
      beginLine() {
        flush();
      },
      onChar(c, _origin, _font, size, quad) {
        onChar(c, size, quad, 0);
      },
      endLine() {
        flush();
      },
    });
  }
  flush();
  st.destroy();
  return { page: pageNumber, width, height, words, source: 'text' };
}

/** Open a PDF from bytes. Throws mupdf's error on corrupt input; callers map it to an error code. */
export function openPdf(bytes: Uint8Array): mupdf.Document {
  return mupdf.Document.openDocument(bytes, 'application/pdf');
}
