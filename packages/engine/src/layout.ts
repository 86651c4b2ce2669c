import type { BBox, PageContent, Word } from './types.ts';
import { median } from './util.ts';

/** A horizontal run of words close enough to read as one phrase ("Invoice No. : 123"). */
export interface Segment {
  page: number;
  x0: number;
  y0: number;
  x1: number;
  y1: number;
  words: Word[];
  text: string;
  /** Index of the line in `Layout.lines` this segment belongs to. */
  line: number;
}

/** Words of one visual text line, left to right, cut into segments at wide gaps. */
export interface Line {
  page: number;
  y0: number;
  y1: number;
  /** Median word height: a stand-in for the font size. */
  height: number;
  words: Word[];
  segments: Segment[];
  text: string;
}

/** The document as lines and segments in reading order (page, then top to bottom). */
export interface Layout {
  lines: Line[];
  segments: Segment[];
  pages: PageContent[];
}

/**
 * How words become lines and lines segments. Text-layer boxes carry the font's full height, so
 * words of a line share a centre; OCR boxes hug the glyphs, so their lines are found by overlap.
 */
const LINE = {
  /** Open lines a word may join, from the last: words come sorted by centre. */
  openLines: 4,
  /** Smallest height (points) a ratio of word heights is taken against: no division by zero. */
  minHeight: 0.1,
  /** OCR: the word overlaps the line by more than this share of the smaller height... */
  ocrOverlap: 0.55,
  /** ...and is at most this many times taller or shorter (a heading beside body text is not one line). */
  ocrHeightRatio: 2.5,
  /** Text layer: the centres differ by less than this share of the smaller height... */
  textCentreShift: 0.45,
  /** ...and the heights by less than this ratio. */
  textHeightRatio: 1.5,
  /** Height (points) taken for a line whose words have none: the segment gap needs one. */
  defaultHeight: 8,
} as const;

/**
 * Gaps that end a segment, in line heights with a floor in points: word spacing is about a third
 * of a height; OCR boxes have no side bearings, so its phrases leave wider gaps between words.
 */
const SEGMENT_GAP = {
  ocr: { heights: 1.3, min: 8 },
  text: { heights: 0.9, min: 6 },
} as const;

/** OCR's cut after a capital ("D ate") leaves a gap narrower than this share of the line height. */
const SPLIT_CAPITAL_GAP = 0.6;

/** Steps per point a segment's box is rounded to: a tenth of a point is finer than print. */
const BOX_STEPS_PER_POINT = 10;

/** Bounding box around words. */
export function boxOf(words: Word[]): BBox {
  let x0 = Number.POSITIVE_INFINITY;
  let y0 = Number.POSITIVE_INFINITY;
  let x1 = Number.NEGATIVE_INFINITY;
  let y1 = Number.NEGATIVE_INFINITY;
  for (const w of words) {
    x0 = Math.min(x0, w.x0);
    y0 = Math.min(y0, w.y0);
    x1 = Math.max(x1, w.x1);
    y1 = Math.max(y1, w.y1);
  }
  const r = (n: number) => Math.round(n * BOX_STEPS_PER_POINT) / BOX_STEPS_PER_POINT;
  return [r(x0), r(y0), r(x1), r(y1)];
}

/**
 * Group a page's words into lines (vertical overlap with the line's running band) and each line into
 * segments. A segment ends at a gap wider than about one font height: ordinary word spacing is a
 * third of that, while table cells and label/value columns are separated by much more.
 */
export function buildLines(page: PageContent): Line[] {
  const words = page.words
    .filter((w) => w.text.trim().length > 0)
    .sort((a, b) => (a.y0 + a.y1) / 2 - (b.y0 + b.y1) / 2 || a.x0 - b.x0);
  const groups: Array<{ y0: number; y1: number; cy: number; h: number; words: Word[] }> = [];
  for (const w of words) {
    const h = w.y1 - w.y0;
    const cy = (w.y0 + w.y1) / 2;
    // Compare centres (not the growing union band): a tall logo or a two-line heading must not
    // swallow its neighbours. Only the last few open lines are candidates: words are sorted by centre.
    let target: (typeof groups)[number] | undefined;
    for (let i = groups.length - 1; i >= Math.max(0, groups.length - LINE.openLines); i--) {
      const g = groups[i]!;
      const ratio = Math.max(h, g.h) / Math.max(LINE.minHeight, Math.min(h, g.h));
      const sameLine =
        w.source === 'ocr'
          ? // OCR boxes hug the glyphs: ascenders and descenders move the centre, so use overlap.
            Math.min(g.y1, w.y1) - Math.max(g.y0, w.y0) > LINE.ocrOverlap * Math.min(h, g.h) &&
            ratio < LINE.ocrHeightRatio
          : Math.abs(cy - g.cy) < LINE.textCentreShift * Math.min(h, g.h) && ratio < LINE.textHeightRatio;
      if (sameLine) {
        target = g;
        break;
      }
    }
    if (target) {
      target.words.push(w);
      target.y0 = Math.min(target.y0, w.y0);
      target.y1 = Math.max(target.y1, w.y1);
      target.cy += (cy - target.cy) / target.words.length;
    } else groups.push({ y0: w.y0, y1: w.y1, cy, h, words: [w] });
  }
  groups.sort((a, b) => a.y0 - b.y0);
  const lines: Line[] = [];
  for (const g of groups) {
    g.words.sort((a, b) => a.x0 - b.x0);
    const height = median(g.words.map((w) => w.y1 - w.y0)) || LINE.defaultHeight;
    g.words = glueSplitCapitals(g.words, height);
    const segments: Segment[] = [];
    let cur: Word[] = [];
    const push = () => {
      if (!cur.length) return;
      const [x0, y0, x1, y1] = boxOf(cur);
      segments.push({ page: page.page, x0, y0, x1, y1, words: cur, text: joinWords(cur), line: -1 });
      cur = [];
    };
    for (const w of g.words) {
      const prev = cur[cur.length - 1];
      const { heights, min } = w.source === 'ocr' ? SEGMENT_GAP.ocr : SEGMENT_GAP.text;
      const gap = Math.max(heights * height, min);
      if (prev && w.x0 - prev.x1 > gap) push();
      cur.push(w);
    }
    push();
    lines.push({
      page: page.page,
      y0: g.y0,
      y1: g.y1,
      height,
      words: g.words,
      segments,
      text: segments.map((s) => s.text).join('  '),
    });
  }
  return lines;
}

/** A lone capital that is no word of its own: any but "A" and "I". */
const isCutCapital = (t: string) => t.length === 1 && t >= 'B' && t <= 'Z' && t !== 'I';
const startsLowerCase = (t: string) => t.charAt(0) >= 'a' && t.charAt(0) <= 'z';

/**
 * OCR of letter-spaced headings cuts a word after its capital ("D ate", "Invoice N o", "C hallan"):
 * a lone capital other than the words "A" and "I", followed closely on its line by a fragment
 * that starts in lower case, is one word again, so labels read as they are printed.
 */
function glueSplitCapitals(words: Word[], height: number): Word[] {
  const out: Word[] = [];
  for (const w of words) {
    const prev = out[out.length - 1];
    if (
      prev &&
      prev.source === 'ocr' &&
      w.source === 'ocr' &&
      isCutCapital(prev.text) &&
      startsLowerCase(w.text) &&
      w.x0 - prev.x1 < SPLIT_CAPITAL_GAP * height
    ) {
      out[out.length - 1] = {
        ...prev,
        text: prev.text + w.text,
        x1: w.x1,
        y0: Math.min(prev.y0, w.y0),
        y1: Math.max(prev.y1, w.y1),
        conf: Math.min(prev.conf, w.conf),
      };
    } else out.push(w);
  }
  return out;
}

/** Join words with single spaces, leaving no space before closing punctuation glued by the OCR. */
export function joinWords(words: Word[]): string {
  return words
    .map((w) => w.text)
    .join(' ')
    .replace(/\s+/g, ' ')
    .trim();
}

/** Build the layout of every page in reading order. */
export function buildLayout(pages: PageContent[]): Layout {
  const lines: Line[] = [];
  for (const p of pages) lines.push(...buildLines(p));
  const segments: Segment[] = [];
  lines.forEach((l, i) => {
    for (const s of l.segments) {
      s.line = i;
      segments.push(s);
    }
  });
  return { lines, segments, pages };
}
