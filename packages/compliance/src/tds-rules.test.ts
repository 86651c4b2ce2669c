import { describe, expect, it } from 'vitest';
import RULES from './tds-rules.json';
import { listTdsRules, ruleInForce, sectionRule, TDS_RULES_VERSION } from './tds-rules.ts';
import { TDS_SECTIONS } from './tds-sections.ts';

describe('the TDS rule file', () => {
  it('has a dated row for every section and every SAC prefix', () => {
    expect(TDS_RULES_VERSION).toBe(RULES.version);
    for (const section of TDS_SECTIONS) expect(sectionRule(section, '2025-10-01').section).toBe(section);
    for (const row of [...listTdsRules().sections, ...listTdsRules().sac, ...listTdsRules().withoutPan])
      expect(row.effectiveFrom).toMatch(/^\d{4}-\d{2}-\d{2}$/);
  });

  it('gives each date the row in force then: a later row never changes an earlier document', () => {
    const rows = [
      { effectiveFrom: '2025-04-01', year: 50000 },
      { effectiveFrom: '2026-04-01', year: 75000 },
    ];
    expect(ruleInForce(rows, '2026-03-31')?.year).toBe(50000);
    expect(ruleInForce(rows, '2026-04-01')?.year).toBe(75000);
    // Before every row: the first; undated: the latest.
    expect(ruleInForce(rows, '2024-06-30')?.year).toBe(50000);
    expect(ruleInForce(rows, null)?.year).toBe(75000);
  });
});
