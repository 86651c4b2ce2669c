import * as mupdf from 'mupdf';
import type { PageContent, Word } from '../types.ts';

/**
 * Read the text layer of one mupdf page as words with boxes.
 * mupdf gives characters with quads; we cut words at spaces and at gaps wider than
 * a fraction of the font size, because table cells are often drawn as one "line" with no space.
 */
export function readPageWords(page: mupdf.Page, pageNumber: number): PageContent {
  const [bx0, by0, bx1, by1] = page.getBounds();
  const width = bx1 - bx0;
  const height = by1 - by0;
  const st = page.toStructuredText('preserve-whitespace');
  const words: Word[] = [];
  let cur: { text: string; x0: number; y0: number; x1: number; y1: number; size: number } | null = null;
  const flush = () => {
    if (cur && cur.text.trim()) {
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
  st.walk({
    beginLine() {
      flush();
    },
    onChar(c, _origin, _font, size, quad) {
      // quad: [ulx, uly, urx, ury, llx, lly, lrx, lry]
      const x0 = Math.min(quad[0], quad[4]);
      const x1 = Math.max(quad[2], quad[6]);
      const y0 = Math.min(quad[1], quad[3]);
      const y1 = Math.max(quad[5], quad[7]);
      if (/\s/.test(c)) {
        flush();
        return;
      }
      if (cur && x0 - cur.x1 > size * 0.3) flush();
      if (!cur) cur = { text: c, x0, y0, x1, y1, size };
      else {
        cur.text += c;
        cur.x1 = Math.max(cur.x1, x1);
        cur.y0 = Math.min(cur.y0, y0);
        cur.y1 = Math.max(cur.y1, y1);
      }
    },
    endLine() {
      flush();
    },
  });
  flush();
  st.destroy();
  return { page: pageNumber, width, height, words, source: 'text' };
}

/** Open a PDF from bytes. Throws mupdf's error on corrupt input; callers map it to an error code. */
export function openPdf(bytes: Uint8Array): mupdf.Document {
  return mupdf.Document.openDocument(bytes, 'application/pdf');
}
