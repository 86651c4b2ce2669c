import { describe, expect, it } from 'vitest';
import { CreateWorkflowInputSchema } from './flows.ts';
import { UpdateOrganizationInputSchema } from './organization.ts';
import { OverrideExceptionSchema, VendorUpdateSchema } from './reconcile.ts';
import { DocumentCorrectionSchema, ReviewQueueQuerySchema } from './review.ts';
import { hasUnsafeCharacters, safeText, UNSAFE_TEXT_MESSAGE } from './text.ts';

const NUL = 'Tata\u0000Steel';
const LONE_HIGH = 'Tata \uD83D Steel';
const LONE_LOW = 'Tata \uDE00 Steel';

/** The first issue's path and message of a refused input. */
function refusal(result: {
  success: boolean;
  error?: { issues: Array<{ path: PropertyKey[]; message: string }> };
}) {
  expect(result.success).toBe(false);
  const issue = result.error!.issues[0]!;
  return { path: issue.path.join('.'), message: issue.message };
}

describe('safe text', () => {
  it('finds NUL and unpaired surrogates, and lets paired ones (emoji) and Indian scripts through', () => {
    for (const bad of [NUL, LONE_HIGH, LONE_LOW, '\uD83D', 'end\uD800'])
      expect(hasUnsafeCharacters(bad)).toBe(true);
    for (const good of ['Tata Steel 😀', 'बही खाता', 'ತೆರಿಗೆ', '', 'a\tb\nc'])
      expect(hasUnsafeCharacters(good)).toBe(false);
    expect(safeText().trim().max(10).safeParse(' ok ').data).toBe('ok');
    expect(refusal(safeText().safeParse(NUL)).message).toBe(UNSAFE_TEXT_MESSAGE);
  });

  it('is applied to the text fields of corrections, vendors, overrides, flows, organisations and searches', () => {
    expect(refusal(DocumentCorrectionSchema.safeParse({ fields: { vendorName: NUL } }))).toEqual({
      path: 'fields.vendorName',
      message: UNSAFE_TEXT_MESSAGE,
    });
    expect(
      refusal(
        DocumentCorrectionSchema.safeParse({ lines: [{ line: 1, field: 'description', value: LONE_HIGH }] }),
      ),
    ).toEqual({ path: 'lines.0.value', message: UNSAFE_TEXT_MESSAGE });
    expect(refusal(VendorUpdateSchema.safeParse({ displayName: LONE_LOW }))).toEqual({
      path: 'displayName',
      message: UNSAFE_TEXT_MESSAGE,
    });
    expect(refusal(OverrideExceptionSchema.safeParse({ reason: `paid in cash ${NUL}` }))).toEqual({
      path: 'reason',
      message: UNSAFE_TEXT_MESSAGE,
    });
    const flow = {
      name: NUL,
      types: ['INVOICE'],
      io: { input: { kind: 'upload' }, output: { kind: 'xlsx' } },
    };
    expect(refusal(CreateWorkflowInputSchema.safeParse(flow))).toEqual({
      path: 'name',
      message: UNSAFE_TEXT_MESSAGE,
    });
    expect(refusal(ReviewQueueQuerySchema.safeParse({ q: NUL }))).toEqual({
      path: 'q',
      message: UNSAFE_TEXT_MESSAGE,
    });
    expect(refusal(ReviewQueueQuerySchema.safeParse({ vendor: LONE_HIGH })).path).toBe('vendor');
    const profile = { legalName: NUL, phone: '+91 98450 12345', orgType: 'pvt_ltd', address: 'MG Road' };
    expect(refusal(UpdateOrganizationInputSchema.safeParse(profile)).path).toBe('legalName');
  });
});
