import { describe, expect, it } from 'vitest';
import { formatDocumentTitle } from './document-title.ts';

describe('formatDocumentTitle', () => {
  it('suffixes the product name', () => {
    expect(formatDocumentTitle('Profile')).toBe('Profile · Bahi');
    expect(formatDocumentTitle()).toBe('Bahi');
    expect(formatDocumentTitle('')).toBe('Bahi');
  });
});
