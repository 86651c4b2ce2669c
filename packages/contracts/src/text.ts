import { z } from 'zod';

/**
 * Text a person sends (names, reasons, corrections, searches) is stored in PostgreSQL, which refuses a NUL
 * character anywhere and cannot encode half of a UTF-16 surrogate pair. Every text field of a request is
 * declared with {@link safeText}, so such input gets a field message, in the browser and on the server
 * alike, instead of failing deep in the database.
 */

/** What a person reads next to a field holding a NUL or a broken character. */
export const UNSAFE_TEXT_MESSAGE =
  'This text contains a character that cannot be stored (an invisible NUL or a broken character); remove it and try again.';

// A high surrogate not followed by a low one, or a low surrogate not preceded by a high one.
const UNPAIRED_SURROGATE = /[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True when `value` holds a NUL or an unpaired surrogate. */
export function hasUnsafeCharacters(value: string): boolean {
  return value.includes('\u0000') || UNPAIRED_SURROGATE.test(value);
}

/** A string refusing NUL and unpaired surrogates with {@link UNSAFE_TEXT_MESSAGE}; chain `.trim()`, `.max()`. */
export function safeText(params?: Parameters<typeof z.string>[0]) {
  return z.string(params).refine((value) => !hasUnsafeCharacters(value), { message: UNSAFE_TEXT_MESSAGE });
}
