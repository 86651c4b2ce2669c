import { describe, expect, it } from 'vitest';
import {
  formatAgo,
  formatBytes,
  formatDateTime,
  formatDuration,
  formatEndTime,
  formatLastRun,
  formatStatusLabel,
  getStatusVariant,
  toggleFlowType,
} from './flow-format.ts';

const now = Date.parse('2026-11-21T12:00:00Z');

describe('formatAgo', () => {
  it('shows minutes, hours and days in short form', () => {
    expect(formatAgo(now - 10_000, now)).toBe('just now');
    expect(formatAgo(now - 5 * 60_000, now)).toBe('5m ago');
    expect(formatAgo(now - 3 * 3_600_000 - 59 * 60_000, now)).toBe('3h ago');
    expect(formatAgo(now - 2 * 86_400_000, now)).toBe('2d ago');
    expect(formatAgo(now - 40 * 86_400_000, now)).toBe('40d ago');
  });
  it('accepts ISO strings and ignores future clocks and bad input', () => {
    expect(formatAgo('2026-11-21T10:00:00Z', now)).toBe('2h ago');
    expect(formatAgo(now + 60_000, now)).toBe('just now');
    expect(formatAgo('not a date', now)).toBe('');
    expect(formatAgo(null, now)).toBe('');
  });
});

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

describe('formatDateTime', () => {
  it('shows day, month and clock time in Indian English', () => {
    const text = formatDateTime('2026-11-21T11:46:00Z', 'Asia/Kolkata');
    expect(text).toMatch(/^21 Nov(,)? 5:16\s?pm$/i);
    expect(formatDateTime(null)).toBe('—');
    expect(formatDateTime('nope')).toBe('—');
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
