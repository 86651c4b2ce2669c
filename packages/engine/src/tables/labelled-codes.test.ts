import { describe, expect, it } from 'vitest';
import { takeLabelledHsn } from './labelled-codes.ts';

describe('takeLabelledHsn', () => {
  it('moves a labelled HSN out of the description into an empty HSN/SAC', () => {
    const lines: Array<Record<string, string | number | null>> = [
      { description: 'Steelbird SB-50 Helmet | B0152XB2Q0 HSN:6506', hsnSac: null },
      { description: 'Consulting services (SAC Code - 998314)', hsnSac: null },
    ];
    expect(takeLabelledHsn(lines)).toBe(2);
    expect(lines[0]).toEqual({ description: 'Steelbird SB-50 Helmet | B0152XB2Q0', hsnSac: '6506' });
    expect(lines[1]).toEqual({ description: 'Consulting services', hsnSac: '998314' });
  });

  it('takes a labelled code over a shorter number the HSN column caught from the description', () => {
    const lines: Array<Record<string, string | number | null>> = [
      { description: 'Pump motor HSN: 84137010 7.5 kW 1450 RPM', hsnSac: '1450' },
    ];
    expect(takeLabelledHsn(lines)).toBe(1);
    expect(lines[0]).toEqual({ description: 'Pump motor 7.5 kW 1450 RPM', hsnSac: '84137010' });
  });

  it('leaves codes that are not labelled, and a different printed HSN, alone', () => {
    const lines: Array<Record<string, string | number | null>> = [
      { description: 'Bearing 6205 ZZ', hsnSac: null },
      { description: 'Cable HSN: 8544', hsnSac: '8536' },
    ];
    expect(takeLabelledHsn(lines)).toBe(0);
    expect(lines[1]!.description).toBe('Cable HSN: 8544');
  });
});
