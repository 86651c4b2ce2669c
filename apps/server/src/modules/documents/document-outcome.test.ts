import { describe, expect, it } from 'vitest';
import { describeExtractionError } from './document-outcome.ts';

describe('engine errors in plain words', () => {
  it('says how many pages a too-long document has and how many are read', () => {
    expect(describeExtractionError({ code: 'too_large', message: '1000 pages (limit 100)' })).toBe(
      'This document has 1,000 pages; at most 100 are read from one file. Split it into smaller files and upload them again.',
    );
  });

  it('keeps the general sentence for other errors', () => {
    expect(
      describeExtractionError({ code: 'too_large', message: 'page too large (14400 × 14400 pt)' }),
    ).toMatch(/^This document is too large or took too long to read/);
    expect(describeExtractionError({ code: 'encrypted_pdf', message: 'needs a password' })).toMatch(
      /password-protected/,
    );
  });
});
