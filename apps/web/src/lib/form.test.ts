import { CreateOrganizationInputSchema, paymentTermsDaysMessage, VendorUpdateSchema } from '@bahi/contracts';
import { zodResolver } from '@hookform/resolvers/zod';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { readOptionalNumber, setServerFieldErrors, textField } from './form.ts';

/** What a react-hook-form form gets from `zodResolver` for `values`: its values, or its messages by field. */
async function resolve<T extends z.ZodType>(schema: T, values: unknown) {
  const resolver = zodResolver(schema as z.ZodType<Record<string, unknown>, Record<string, unknown>>);
  const result = await resolver(values as Record<string, unknown>, undefined, {
    fields: {},
    shouldUseNativeValidation: false,
  });
  const messages = Object.fromEntries(
    Object.entries(result.errors).map(([field, error]) => [field, (error as { message?: string }).message]),
  );
  return { values: result.values, messages };
}

describe('contract schemas in react-hook-form', () => {
  it('give the form the contract’s messages, one per field', async () => {
    const { messages } = await resolve(CreateOrganizationInputSchema, {
      orgName: ' ',
      phone: '12345',
      orgType: '',
      address: '',
    });
    expect(messages).toEqual({
      orgName: 'Organization name is required',
      phone: 'Please enter a valid phone number',
      orgType: 'Organization type is required',
      address: 'Business address is required',
    });
  });

  it('hand the submit handler the contract’s output: the request body', async () => {
    const { values } = await resolve(CreateOrganizationInputSchema, {
      orgName: ' Acme Traders ',
      phone: ' +91 98450 12345 ',
      orgType: 'llp',
      address: ' Pune ',
    });
    expect(values).toEqual({
      orgName: 'Acme Traders',
      phone: '+91 98450 12345',
      orgType: 'llp',
      address: 'Pune',
    });
  });
});

describe('textField', () => {
  const days = textField(readOptionalNumber, VendorUpdateSchema.shape.paymentTermsDays, 'Whole days, please');

  it('reads the box and keeps the rule’s value', () => {
    expect(days.parse(' 30 ')).toBe(30);
    expect(days.parse('')).toBeNull();
  });

  it('fails with the form’s words when given, else with the rule’s own', () => {
    expect(days.safeParse('-1').error?.issues.map((i) => i.message)).toEqual(['Whole days, please']);
    expect(days.safeParse('abc').error?.issues.map((i) => i.message)).toEqual(['Whole days, please']);
    const ownWords = textField(readOptionalNumber, VendorUpdateSchema.shape.paymentTermsDays);
    expect(ownWords.safeParse('-1').error?.issues.map((i) => i.message)).toEqual([paymentTermsDaysMessage]);
  });

  it('reports at the field’s own path inside a form schema', () => {
    const form = z.object({ nested: z.object({ days }) });
    expect(form.safeParse({ nested: { days: '1.5' } }).error?.issues[0]?.path).toEqual(['nested', 'days']);
  });
});

describe('setServerFieldErrors', () => {
  it('puts each server message on its dotted field, and says whether there were any', () => {
    const set: Array<[string, string | undefined]> = [];
    const setError = (name: string, error: { message?: string }) => void set.push([name, error.message]);
    expect(setServerFieldErrors(setError, { phone: 'Bad phone', 'tolerances.qtyPct': 'At most 100 %' })).toBe(
      true,
    );
    expect(set).toEqual([
      ['phone', 'Bad phone'],
      ['tolerances.qtyPct', 'At most 100 %'],
    ]);
    expect(setServerFieldErrors(setError, {})).toBe(false);
  });
});
