import { ZxcvbnFactory } from '@zxcvbn-ts/core';
import * as common from '@zxcvbn-ts/language-common';
import * as en from '@zxcvbn-ts/language-en';

/**
 * zxcvbn's score a password needs (0–4). 3 is "safely unguessable": it resists an offline attack on a
 * stolen hash, which is the bar for an account that holds a company's invoices and GSTINs.
 */
export const MIN_PASSWORD_SCORE = 3;

// Dictionaries (common passwords, English words, names, keyboard patterns) ship in the npm packages:
// the check runs offline and is built once.
const zxcvbn = new ZxcvbnFactory({
  dictionary: { ...common.dictionary, ...en.dictionary },
  graphs: common.adjacencyGraphs,
  translations: en.translations,
});

/**
 * Why a password is too weak, as a sentence for the person choosing it, or null when it is strong
 * enough. `related` are the account's own details (e-mail, name): a password made of them is weak.
 */
export function describeWeakPassword(password: string, related: Array<string | undefined>): string | null {
  const inputs = related
    .filter((r): r is string => !!r?.trim())
    .flatMap((r) => [r, ...r.split(/[@.\s_-]+/)])
    .filter((r) => r.length >= 3);
  const result = zxcvbn.check(password, inputs);
  if (result.score >= MIN_PASSWORD_SCORE) return null;
  const why = result.feedback.warning ? ` ${result.feedback.warning}` : '';
  const how = result.feedback.suggestions[0] ?? 'Add more words that are less common.';
  return `This password is too easy to guess.${why} ${how}`;
}
