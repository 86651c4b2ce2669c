import { describe, expect, it } from 'vitest';
import { describeCheck, describeSource } from './source-link.ts';

describe('describeSource', () => {
  it('opens the inbox for uploads and shows the path for local folders', () => {
    expect(describeSource({ kind: 'upload', url: '' })).toEqual({ kind: 'upload', label: 'Upload inbox' });
    expect(describeSource({ kind: 'local', url: '/srv/inbox' })).toEqual({
      kind: 'local',
      label: '/srv/inbox',
      path: '/srv/inbox',
    });
  });
  it('links Drive folders only over https', () => {
    const url = 'https://drive.google.com/drive/folders/1AbC';
    expect(describeSource({ kind: 'drive', url, folderName: 'Invoices FY26' })).toEqual({
      kind: 'drive',
      label: 'Invoices FY26',
      href: url,
    });
    expect(describeSource({ kind: 'drive', url: 'javascript:alert(1)' }).kind).toBe('local');
  });
});

describe('describeCheck', () => {
  it('turns check codes into plain words', () => {
    expect(describeCheck('taxes_sum_to_total')).toBe("Taxable value plus taxes doesn't equal the total");
    expect(describeCheck('gstin_checksum:vendorGstin')).toBe(
      "A GSTIN's check digit is wrong — likely a typo (vendorGstin)",
    );
    expect(describeCheck('some_new_check')).toBe('some new check');
  });
});
