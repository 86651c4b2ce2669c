import { describe, expect, it } from 'vitest';
import { formatDocumentStatus } from './document-status.ts';

describe('formatDocumentStatus', () => {
  it('maps server statuses to the inbox words', () => {
    expect(formatDocumentStatus('pending')).toEqual({ label: 'New', tone: 'new' });
    expect(formatDocumentStatus('needs_review').label).toBe('Needs review');
    expect(formatDocumentStatus('failed').tone).toBe('failed');
  });
});
