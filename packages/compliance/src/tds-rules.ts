// The TDS rule file (tds-rules.json) read once and looked up by date: the rows in force on a document's
// date. A budget change is a new row with its effectiveFrom, so invoices dated before it keep their rule.
import RULES from './tds-rules.json';
import type { TdsSection } from './tds-sections.ts';

/** How a section's threshold works. Amounts in rupees. */
export type TdsThreshold =
  | { kind: 'bill-or-year'; bill: number; year: number }
  | { kind: 'year'; year: number }
  | { kind: 'bill'; bill: number }
  | { kind: 'above-year'; year: number };

/** One section's rule from a date on. */
export interface SectionRule {
  section: TdsSection;
  effectiveFrom: string;
  /** What the amounts are, in the reasons (`fees`, `rent`, …). */
  what: string;
  rate: number;
  /** A lower rate for individuals and HUFs (194C). */
  rateIndividualOrHuf?: number;
  threshold: TdsThreshold;
}

/** A SAC prefix's section from a date on (null: a carve-out no section covers). */
export interface SacRule {
  prefix: string;
  section: TdsSection | null;
  effectiveFrom: string;
  what: string;
}

interface WithoutPanRule {
  effectiveFrom: string;
  minimumRate: number;
  minimumRate194Q: number;
}

interface RuleFile {
  version: string;
  sections: SectionRule[];
  withoutPan: WithoutPanRule[];
  sac: SacRule[];
}

const rules = RULES as unknown as RuleFile;

/** The rule file's version (shown beside worked-out TDS, so a reader knows which rules gave it). */
export const TDS_RULES_VERSION: string = rules.version;

/**
 * Of rows sharing a key, the one in force on `date`: the latest `effectiveFrom` on or before it. A date
 * before every row takes the first (the rule file starts where Bahi's history does); no date takes the
 * latest.
 */
export function ruleInForce<T extends { effectiveFrom: string }>(
  rows: readonly T[],
  date: string | null,
): T | undefined {
  const sorted = [...rows].sort((a, b) => a.effectiveFrom.localeCompare(b.effectiveFrom));
  if (!date) return sorted.at(-1);
  return sorted.filter((r) => r.effectiveFrom <= date).at(-1) ?? sorted[0];
}

/** The rule of a section on a date. */
export function sectionRule(section: TdsSection, date: string | null): SectionRule {
  const found = ruleInForce(
    rules.sections.filter((r) => r.section === section),
    date,
  );
  if (!found) throw new Error(`the TDS rule file has no row for section ${section}`);
  return found;
}

/** The rates without a PAN on a date. */
export function withoutPanOn(date: string | null): WithoutPanRule {
  return ruleInForce(rules.withoutPan, date)!;
}

/** The SAC table on a date: for each prefix, its row in force. */
export function sacTableOn(date: string | null): SacRule[] {
  const prefixes = [...new Set(rules.sac.map((r) => r.prefix))];
  return prefixes.map((p) =>
    ruleInForce(
      rules.sac.filter((r) => r.prefix === p),
      date,
    ),
  ) as SacRule[];
}

/** Every row of the rule file (the TDS screen lists them). */
export function listTdsRules(): Readonly<RuleFile> {
  return rules;
}
