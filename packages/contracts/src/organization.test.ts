import { describe, expect, it } from 'vitest';
import { CreateOrganizationInputSchema, UpdateOrganizationInputSchema } from './organization.ts';

/** Flattens zod issues to `{ path: message }` like the server's error handler does. */
function collectMessages(result: {
  success: boolean;
  error?: { issues: { path: PropertyKey[]; message: string }[] };
}) {
  return Object.fromEntries((result.error?.issues ?? []).map((i) => [i.path.join('.'), i.message]));
}

describe('CreateOrganizationInputSchema', () => {
  it('reports the exact required-field messages for an empty body', () => {
    expect(collectMessages(CreateOrganizationInputSchema.safeParse({}))).toEqual({
      orgName: 'Organization name is required',
      phone: 'Contact phone is required',
      orgType: 'Organization type is required',
      address: 'Business address is required',
    });
  });

  it('treats whitespace-only and unknown values as missing', () => {
    const result = CreateOrganizationInputSchema.safeParse({
      orgName: '  ',
      phone: '',
      orgType: 'x',
      address: ' ',
    });
    expect(collectMessages(result)).toEqual({
      orgName: 'Organization name is required',
      phone: 'Contact phone is required',
      orgType: 'Organization type is required',
      address: 'Business address is required',
    });
  });

  it('rejects phone numbers that are not Indian numbers', () => {
    const result = CreateOrganizationInputSchema.safeParse({
      orgName: 'Acme',
      phone: '12345',
      orgType: 'llp',
      address: 'Pune',
    });
    expect(collectMessages(result)).toEqual({ phone: 'Please enter a valid phone number' });
  });

  it('trims accepted values', () => {
    const result = CreateOrganizationInputSchema.parse({
      orgName: ' Acme ',
      phone: ' 9876543210 ',
      orgType: 'llp',
      address: ' Pune ',
    });
    expect(result).toEqual({ orgName: 'Acme', phone: '9876543210', orgType: 'llp', address: 'Pune' });
  });
});

describe('UpdateOrganizationInputSchema', () => {
  it('defaults GSTINs to an empty set and requires the legal name', () => {
    const ok = UpdateOrganizationInputSchema.parse({
      legalName: 'A',
      phone: '080 2222 3333',
      orgType: 'ltd',
      address: 'x',
    });
    expect(ok.gstins).toEqual([]);
    const bad = UpdateOrganizationInputSchema.safeParse({
      phone: '+91 98450 12345',
      orgType: 'ltd',
      address: 'x',
      gstins: [{}],
    });
    expect(collectMessages(bad)).toEqual({
      legalName: 'Legal name is required',
      'gstins.0.gstin': 'GSTIN is required',
    });
  });
});
