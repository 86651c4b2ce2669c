import { describe, expect, it } from 'vitest';
import {
  formatBytes,
  formatDuration,
  formatEndTime,
  formatLastRun,
  formatStatusLabel,
  getStatusVariant,
  toggleFlowType,
} from './flow-format.ts';

const now = Date.parse('2026-11-21T12:00:00Z');

describe('formatLastRun', () => {
  it('says Never run for a flow that has not run', () => {
    expect(formatLastRun(null, now)).toBe('Never run');
    expect(formatLastRun(undefined, now)).toBe('Never run');
    expect(formatLastRun(now - 7_200_000, now)).toBe('Last run 2h ago');
  });
});

describe('formatDuration', () => {
  it('scales from tenths of seconds to hours', () => {
    expect(formatDuration(830)).toBe('0.8s');
    expect(formatDuration(42_400)).toBe('42s');
    expect(formatDuration(185_000)).toBe('3m 05s');
    expect(formatDuration(3_720_000)).toBe('1h 02m');
    expect(formatDuration(null)).toBe('—');
    expect(formatDuration(-5)).toBe('—');
  });
});

describe('formatBytes', () => {
  it('uses binary units', () => {
    expect(formatBytes(812)).toBe('812 B');
    expect(formatBytes(88_474)).toBe('86 KB');
    expect(formatBytes(5 * 1024 + 512)).toBe('5.5 KB');
    expect(formatBytes(3.2 * 1024 * 1024)).toBe('3.2 MB');
  });
});

describe('toggleFlowType', () => {
  it('keeps a single choice: a new tick replaces, the same tick clears', () => {
    expect(toggleFlowType([], 'PO')).toEqual(['PO']);
    expect(toggleFlowType(['PO'], 'INVOICE')).toEqual(['INVOICE']);
    expect(toggleFlowType(['INVOICE'], 'INVOICE')).toEqual([]);
    // A legacy record with two types collapses to the one ticked.
    expect(toggleFlowType(['PO', 'GRN'], 'INVOICE')).toEqual(['INVOICE']);
  });
});

describe('flow status', () => {
  it('colours success and active green, everything else neutral', () => {
    expect(getStatusVariant('success')).toBe('success');
    expect(getStatusVariant('active')).toBe('success');
    expect(getStatusVariant('inactive')).toBe('secondary');
    expect(getStatusVariant('failed')).toBe('secondary');
    expect(formatStatusLabel('needs_review')).toBe('Needs review');
    expect(formatStatusLabel('')).toBe('Unknown');
  });
});

describe('formatEndTime', () => {
  it('shows only the clock time for a run that ended the same day', () => {
    expect(formatEndTime('2026-11-21T11:46:00Z', '2026-11-21T11:47:30Z', 'Asia/Kolkata')).toMatch(
      /^5:17\s?pm$/i,
    );
    expect(formatEndTime('2026-11-21T18:25:00Z', '2026-11-21T18:35:00Z', 'Asia/Kolkata')).toMatch(/^22 Nov/);
    expect(formatEndTime('2026-11-21T11:46:00Z', null)).toBe('—');
  });
});
