import type { ConfidenceEvidence } from '../../src/interpret.ts';

export type { ConfidenceEvidence };

/**
 * What the learned confidence model sees of one header value, computed in one place for training
 * and for scoring (`learned.ts`, `../bench-confidence.ts`). Every feature is a number in about
 * [0, 1]; the names are the keys of the weights file, so a feature added here is a weight to fit,
 * never a silent shift of the others.
 */
export const FEATURE_NAMES = [
  'bias',
  'rule',
  'ruleSure',
  'ruleReview',
  'raw',
  'ocr',
  'qr',
  'failedCheck',
  'docFailedChecks',
  'disputed',
  'amountsAddUp',
  'length',
  'digitShare',
  'tokens',
  'lowerShare',
  'docFilled',
  'po',
  'grn',
] as const;

/** One feature's name. */
export type FeatureName = (typeof FEATURE_NAMES)[number];

/** Groups of fields that share one set of weights: values of a kind fail in the same ways. */
export const FIELD_GROUPS = ['money', 'date', 'number', 'gstin', 'name', 'text', 'code'] as const;

/** One field group's name. */
export type FieldGroup = (typeof FIELD_GROUPS)[number];

const MONEY = /^(?:taxableValue|cgst|sgst|igst|cess|roundOff|total|discount|freight|tcs|amount)/;
const NUMBER = /(?:Number|No|Id|Irn|irn)$|^irn$/;
const NAME = /Name$/;
const TEXT = /(?:Address|Terms|Remarks|Narration)$/;

/** Which weights a field uses. */
export function fieldGroup(field: string): FieldGroup {
  if (MONEY.test(field)) return 'money';
  if (/Date$/.test(field)) return 'date';
  if (/Gstin$/.test(field)) return 'gstin';
  if (NAME.test(field)) return 'name';
  if (TEXT.test(field)) return 'text';
  if (NUMBER.test(field)) return 'number';
  return 'code';
}

/** The feature vector of one field's value, in `FEATURE_NAMES` order. */
export function fieldFeatures(field: string, e: ConfidenceEvidence): number[] {
  const value = e.fields[field];
  const text = typeof value === 'string' ? value : '';
  const rule = e.rule[field] ?? 0;
  const failed = e.checks.filter((c) => !c.ok);
  const filled = Object.values(e.fields).filter((v) => v !== null && v !== undefined && v !== '').length;
  const letters = text.replace(/[^A-Za-z]/g, '');
  const f: Record<FeatureName, number> = {
    bias: 1,
    rule,
    ruleSure: rule >= 0.9 ? 1 : 0,
    ruleReview: rule < 0.8 ? 1 : 0,
    raw: Math.min(1, e.raw[field] ?? rule),
    ocr: e.provenance[field]?.source === 'ocr' ? 1 : 0,
    qr: e.provenance[field]?.source === 'qr' ? 1 : 0,
    failedCheck: failed.some((c) => c.field === field) ? 1 : 0,
    docFailedChecks: Math.min(3, failed.length) / 3,
    disputed: e.disputed.has(field) ? 1 : 0,
    amountsAddUp: e.amountsAddUp ? 1 : 0,
    length: Math.min(1, Math.log1p(text.length) / Math.log1p(64)),
    digitShare: text ? text.replace(/\D/g, '').length / text.length : 0,
    tokens: Math.min(8, text.split(/\s+/).filter(Boolean).length) / 8,
    lowerShare: letters ? letters.replace(/[^a-z]/g, '').length / letters.length : 0,
    docFilled: filled / Math.max(1, Object.keys(e.fields).length),
    po: e.type === 'po' ? 1 : 0,
    grn: e.type === 'grn' ? 1 : 0,
  };
  return FEATURE_NAMES.map((n) => f[n]);
}
