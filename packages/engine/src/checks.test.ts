import { describe, expect, it } from 'vitest';
import { pageOfLines } from '../test/test-words.ts';
import { findAmountInWords, runChecks } from './checks.ts';
import { buildLayout } from './layout.ts';

describe('findAmountInWords', () => {
  it('reads the printed amount in words', () => {
    const layout = buildLayout([
      pageOfLines(['Amount in words: Rupees Ninety Eight Thousand Seven Hundred Only']),
    ]);
    expect(findAmountInWords(layout)?.value).toBe(98700);
  });

  it('ignores a garbled OCR reading instead of contradicting the total', () => {
    const garbled = 'INR nety Eight Eight Thousand Thousand Seven Hundred Hundre Ninety Eight';
    expect(findAmountInWords(buildLayout([pageOfLines([garbled], 'ocr')]))).toBeNull();
    // The same words from a text layer are what the document prints: they are read.
    expect(findAmountInWords(buildLayout([pageOfLines([garbled], 'text')]))).not.toBeNull();
  });
});

describe('runChecks', () => {
  it('reports the amount in words against the total, passed or failed', () => {
    const fields = { total: 98798 };
    const ok = runChecks('invoice', fields, [], 98798).find(
      (c) => c.code === 'amount_in_words_matches_total',
    );
    const bad = runChecks('invoice', fields, [], 17798).find(
      (c) => c.code === 'amount_in_words_matches_total',
    );
    expect(ok?.ok).toBe(true);
    expect(bad?.ok).toBe(false);
  });
});
