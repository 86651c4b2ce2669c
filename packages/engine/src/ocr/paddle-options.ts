/** Options of the PP-OCR provider (`paddle.ts`) and the tuning every page reads. */

export interface PaddleOcrOptions {
  /** Threads ONNX Runtime may use inside one inference (default: every core). */
  threads?: number;
  /**
   * Longest side of the image the detector sees; larger finds smaller print but costs time (1920
   * read the real set as well as 2560 in 40 % less detection time).
   */
  detMaxSide?: number;
  /** Probability above which a map pixel is text (PaddleOCR `det_db_thresh`). */
  detThreshold?: number;
  /** Mean probability a region needs to count as text (PaddleOCR `det_db_box_thresh`). */
  detBoxThreshold?: number;
  /** How far a region is grown back to the whole line (PaddleOCR `det_db_unclip_ratio`). */
  unclipRatio?: number;
  /**
   * Keep ONNX Runtime's memory arena between pages (faster) or give memory back after each
   * inference (a smaller resident set for long-lived workers).
   */
  memoryArena?: boolean;
  /** A blank gap between characters wider than this share of the line's character pitch is a space. */
  spaceGap?: number;
  /**
   * Read the page in full-width strips (default) or 1024² square tiles. A typical page (1376 ×
   * 1920 at the detector) is two 1024-pixel-high strips, 2.8 Mpx, against four overlapping tiles,
   * 4.2 Mpx: about a third less detection time, and the real set read as well (scanned/photo
   * subset through dev-fast: 0.832 / 0.729 against 0.830 / 0.725 with tiles). Strips of a tile's
   * pixels (736 high) lost context and joined table cells (0.788 / 0.671), so strips are a tile high.
   */
  detLayout?: 'strips' | 'tiles';
  /**
   * Read only the part of the page holding print (see `inkedArea`; needs `detBlankLevel`), not its
   * blank margins. Off by default: it took a fifth off detection (2.22 → 1.93 Mpx, 0.555 → 0.476
   * CPU-s a dev scan) with the same words on the dev scans (F1 0.996), but the official real-set
   * score fell from 0.907 to 0.905 (photos 0.781 → 0.764; 2026-11-28).
   */
  detInkedArea?: boolean;
  /**
   * A detection tile with no pixel darker than this grey level is paper and is not read (0: read
   * every tile). Page preparation whitens the paper, so such tiles hold no print.
   */
  detBlankLevel?: number;
  /** Height of a detection strip in pixels (a multiple of 32; default: a tile's side, 1024). */
  detStripHeight?: number;
  /**
   * Simplify the models' graphs when they load (`simplify-graph.ts`: the same outputs within float
   * rounding, about 1.3× faster); off only to compare against the packaged graphs.
   */
  simplify?: boolean;
  /**
   * Run the recogniser's wide pointwise convolutions in int8 (`rec-int8.ts`) when this repository's
   * calibration (`rec-int8.json`, made by `npm run ocr:calibrate -w @bahi/engine`) belongs to the
   * installed model. Default: on a CPU with VNNI, where the weights are 8-bit. There it takes a third
   * off recognition (0.90 against 1.35 CPU-s a dev scan, one thread; wall-clock timings on a busy
   * machine had hidden it) and read the real set as well as the float recogniser (`score.mjs
   * --project`: scanned 0.885 / photo 0.781 / overall 0.907 against 0.887 / 0.761 / 0.907; dev
   * scanned 0.991 against 0.990 through dev-fast; 2026-11-28). Elsewhere off: the 7-bit weights a CPU without VNNI needs read
   * scanned 0.871 / photo 0.817 / overall 0.897 (and every convolution in int8 0.840 / 0.838 / 0.881).
   */
  int8?: boolean;
  /**
   * Width of a line at the recogniser's input, as a share of its width at the input height with
   * its shape kept (the recogniser's time is about proportional to it). 1 by default: 0.8 took a
   * fifth off recognition but read the real set worse through dev-fast (scanned 0.878, photo 0.768,
   * overall 0.899 against 0.886 / 0.761 / 0.903; 2026-11-28).
   */
  recWidthScale?: number;
  /**
   * The classes the recogniser can read: 'latin' (default) drops the Chinese, Japanese and Korean
   * characters, nearly all of its 6,625 (`rec-graph.ts` `latinClasses`), and with them most of its
   * CTC head's time; 'all' keeps the packaged model's.
   */
  recClasses?: 'latin' | 'all';
  /** Called with every recogniser input tensor (the calibration script collects them). */
  onRecognitionInput?: (x: Float32Array, dims: number[]) => void;
}

/** The tuning knobs the pipeline reads on every page. */
export type Tuning = Required<
  Omit<
    PaddleOcrOptions,
    'threads' | 'memoryArena' | 'simplify' | 'int8' | 'onRecognitionInput' | 'detStripHeight' | 'recClasses'
  >
> &
  Pick<PaddleOcrOptions, 'detStripHeight'>;

export const DEFAULTS: Tuning = {
  detMaxSide: 1920,
  detThreshold: 0.3,
  detBoxThreshold: 0.6,
  unclipRatio: 1.5,
  spaceGap: 0.42,
  detLayout: 'strips',
  detBlankLevel: 128,
  recWidthScale: 1,
  detInkedArea: false,
};
