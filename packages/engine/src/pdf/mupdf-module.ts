/**
 * Access to mupdf's WASM exports, for the one hot loop the JS API makes slow.
 *
 * `StructuredText.walk()` allocates a `Font` (registered with a FinalizationRegistry), a quad,
 * a point and a colour for every character: on a text-layer invoice that is ~2,000 characters,
 * a few ms of JS and most of the GC work of reading the page. mupdf.js hands
 * `globalThis.$libmupdf_wasm_Module` to its Emscripten factory as the module object, which the
 * factory fills with the WASM exports; this module creates that object before mupdf loads (it
 * is imported ahead of `mupdf`), so `readPageWords` can read characters through the exports
 * directly. When mupdf was loaded first (or a mupdf version lacks these exports), `stextExports`
 * returns null and the caller uses `walk()`.
 */

/** The subset of mupdf's WASM exports used to read structured-text characters. */
export interface StextExports {
  HEAPF32: Float32Array;
  _wasm_stext_page_get_first_block(page: number): number;
  _wasm_stext_block_get_next(block: number): number;
  _wasm_stext_block_get_type(block: number): number;
  _wasm_stext_block_get_first_line(block: number): number;
  _wasm_stext_line_get_next(line: number): number;
  _wasm_stext_line_get_first_char(line: number): number;
  _wasm_stext_char_get_next(ch: number): number;
  _wasm_stext_char_get_c(ch: number): number;
  _wasm_stext_char_get_size(ch: number): number;
  _wasm_stext_char_get_quad(ch: number): number;
}

const holder = globalThis as { $libmupdf_wasm_Module?: Record<string, unknown> };
holder.$libmupdf_wasm_Module ??= {};
const module = holder.$libmupdf_wasm_Module;

const NEEDED = [
  '_wasm_stext_page_get_first_block',
  '_wasm_stext_block_get_next',
  '_wasm_stext_block_get_type',
  '_wasm_stext_block_get_first_line',
  '_wasm_stext_line_get_next',
  '_wasm_stext_line_get_first_char',
  '_wasm_stext_char_get_next',
  '_wasm_stext_char_get_c',
  '_wasm_stext_char_get_size',
  '_wasm_stext_char_get_quad',
] as const;

/** mupdf's structured-text exports, or null when they are not reachable. */
export function stextExports(): StextExports | null {
  if (!(module.HEAPF32 instanceof Float32Array)) return null;
  for (const name of NEEDED) if (typeof module[name] !== 'function') return null;
  return module as unknown as StextExports;
}
