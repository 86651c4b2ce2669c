import { roundMoney } from '@bahi/india';
import type { Layout, Line, Segment } from '../layout.ts';
import { type Candidate, candidateFrom } from './header.ts';
import { matchStart } from './labels.ts';
import { parseValue } from './values.ts';
import { AMOUNT_LABELS, normalizeLabelText } from './vocabulary.ts';

/** The money fields of a totals block, solved together. */
export const AMOUNT_FIELDS = ['taxableValue', 'cgst', 'sgst', 'igst', 'cess', 'roundOff', 'total'] as const;
/** One of the totals-block fields. */
export type AmountField = (typeof AMOUNT_FIELDS)[number];

// Specific labels first: "Total Taxable Value" is taxable, "Round Off" is not a total.
const ORDER: AmountField[] = ['roundOff', 'cgst', 'sgst', 'igst', 'cess', 'taxableValue', 'total'];

const MONEY_TOKEN = /^\(?-?\)?\s*(?:₹|rs\.?|inr)?\s*-?\(?-?\)?[\d,]*\d(?:\.\d{1,2})?\/?-?$/i;

/** Which amount field a label names, and where the label ends. */
export function amountLabel(text: string): { field: AmountField; end: number } | null {
  for (const f of ORDER) {
    const end = matchStart(text, AMOUNT_LABELS[f]);
    if (end !== null) return { field: f, end };
  }
  return null;
}

const isPercent = (s: string) => /%\s*$/.test(s) || /^@/.test(s.trim());
const COLUMN_WORDS =
  /\b(?:qty|quantity|rate|hsn|sac|description|particulars|uom|unit|s\.? ?no|sl|sr|item|per|price|disc)\b/gi;

function looksLikeTableHeader(line: Line): boolean {
  return (line.text.match(COLUMN_WORDS) ?? []).length >= 3;
}

function signFor(field: AmountField, labelText: string, valueText: string, value: number): number {
  if (field !== 'roundOff') return value;
  // "Less : Round Off 0.40" is negative; "(-)0.40" already parsed negative.
  if (/^\s*less\b/i.test(labelText) && value > 0 && !/\(\+\)|\+/.test(valueText)) return -value;
  return value;
}

/**
 * Collect candidates for the totals-block amounts: a label with the right-most amount on its
 * line ("CGST @ 9%  ...  24,688.90"), and rows of labels with their amounts on the line below
 * (the e-invoice summary "Tax'ble Amt | CGST Amt | ... | Total Inv. Amt"). Unlabelled lone amounts
 * become weak taxable-value candidates (Tally prints the sub-total without a label): the solver
 * keeps them only when they make the document add up.
 */
export function collectAmountCandidates(
  layout: Layout,
  skip: (s: Segment) => boolean,
): Map<AmountField, Candidate[]> {
  const out = new Map<AmountField, Candidate[]>();
  const add = (c: Candidate) => {
    const f = c.field as AmountField;
    const list = out.get(f) ?? [];
    if (!list.some((x) => x.value === c.value)) list.push(c);
    else {
      const same = list.find((x) => x.value === c.value)!;
      same.score = Math.max(same.score, c.score);
    }
    out.set(f, list);
  };
  layout.lines.forEach((line, li) => {
    if (looksLikeTableHeader(line)) return;
    // Sub-total rows often sit inside the table's region (Tally prints the taxable value right
    // under the items): single-label rows and lone amounts are read there too.
    const segs = line.segments;
    if (!segs.length) return;
    const inTable = segs.some(skip);
    const labelled = segs.map((s) => ({ s, l: amountLabel(s.text) })).filter((x) => x.l);
    // A row of several amount labels: values sit underneath.
    if (labelled.length >= 2) {
      if (inTable) return;
      const next = layout.lines[li + 1];
      if (next && next.page === line.page) {
        for (const { s, l } of labelled) {
          const below = next.segments
            .filter(
              (b) => Math.min(b.x1, s.x1 + 20) - Math.max(b.x0, s.x0 - 20) > 0 && MONEY_TOKEN.test(b.text),
            )
            .sort((a, b) => Math.abs(a.x1 - s.x1) - Math.abs(b.x1 - s.x1))[0];
          if (!below || !l) continue;
          const p = parseValue('money', below.text);
          if (p && typeof p.value === 'number')
            add({
              ...candidateFrom(l.field, below, p, 0, 0.95),
              value: signFor(l.field, s.text, below.text, p.value),
            });
        }
      }
      return;
    }
    const first = labelled[0];
    if (first?.l) {
      const { s, l } = first;
      const afterLabel = segs.filter((x) => x.x0 > s.x0 && x !== s && !isPercent(x.text));
      const valueSeg = [...afterLabel].reverse().find((x) => MONEY_TOKEN.test(x.text.replace(/\s+/g, ' ')));
      const score = segs[0] === s ? 1 : 0.85;
      if (valueSeg) {
        const p = parseValue('money', valueSeg.text);
        if (p && typeof p.value === 'number')
          add({
            ...candidateFrom(l.field, valueSeg, p, 0, score),
            value: signFor(l.field, s.text, valueSeg.text, p.value),
          });
      } else {
        // Label and amount in one segment ("IGST 34,549.20"): the last amount after the label.
        const rest = s.text.slice(l.end);
        const m = [...rest.matchAll(/\(?-?\)?\s*(?:₹|rs\.?|inr)?\s*-?[\d,]*\d\.\d{2}\b/gi)].pop();
        if (m && m.index !== undefined) {
          const p = parseValue('money', m[0]);
          if (p && typeof p.value === 'number')
            add({
              ...candidateFrom(
                l.field,
                s,
                { ...p, start: m.index, end: m.index + m[0].length },
                l.end,
                score * 0.95,
              ),
              value: signFor(l.field, s.text, m[0], p.value),
            });
        }
      }
      return;
    }
    // A lone amount on its own line: a possible unlabelled sub-total.
    if (segs.length === 1 && MONEY_TOKEN.test(segs[0]!.text) && /\.\d{2}/.test(segs[0]!.text)) {
      const p = parseValue('money', segs[0]!.text);
      if (p && typeof p.value === 'number' && p.value > 0)
        add(candidateFrom('taxableValue', segs[0]!, p, 0, 0.1));
    }
  });
  // Tax printed per slab ("CGST @ 2.5%", "CGST @ 9%") without a total row: their sum is a reading too.
  for (const f of ['cgst', 'sgst', 'igst'] as const) {
    const list = out.get(f) ?? [];
    if (list.length < 2) continue;
    const sum = roundMoney(list.reduce((a, c) => a + Number(c.value), 0));
    if (!list.some((c) => Math.abs(Number(c.value) - sum) < 0.011))
      list.push({ ...list[0]!, value: sum, score: 0.6 });
  }
  return out;
}

/** The chosen amounts and whether they add up. */
export interface SolvedAmounts {
  values: Partial<Record<AmountField, Candidate>>;
  consistent: boolean;
}

const TOL = 0.011;

/**
 * Choose one reading per amount field so that taxable + CGST + SGST + IGST + cess + round-off =
 * total, preferring higher-scored readings; a set that adds up beats any set that does not.
 * `lineSum` (the line items' amounts) backs a taxable value that equals it.
 */
export function solveAmounts(cands: Map<AmountField, Candidate[]>, lineSum: number | null): SolvedAmounts {
  const opts = (f: AmountField, n: number): Array<Candidate | null> => [
    ...(cands.get(f) ?? []).slice(0, n),
    null,
  ];
  const totals = opts('total', 5);
  const taxables = opts('taxableValue', 6);
  const heads = (['cgst', 'sgst', 'igst', 'cess'] as const).map((f) => opts(f, 3));
  const rounds = opts('roundOff', 3);
  let best: { score: number; pick: Array<Candidate | null>; ok: boolean } | null = null;
  for (const t of totals)
    for (const tv of taxables)
      for (const c of heads[0]!)
        for (const s of heads[1]!)
          for (const i of heads[2]!)
            for (const cs of heads[3]!)
              for (const r of rounds) {
                const pick = [tv, c, s, i, cs, r, t];
                let score = pick.reduce((a, x) => a + (x ? x.score : 0), 0);
                let ok = false;
                if (t && tv) {
                  const sum = [tv, c, s, i, cs, r].reduce((a, x) => a + (x ? Number(x.value) : 0), 0);
                  ok = Math.abs(roundMoney(sum) - Number(t.value)) <= TOL;
                  if (ok) score += 10;
                }
                if (tv && lineSum !== null && Math.abs(Number(tv.value) - lineSum) <= TOL) score += 1;
                if (c && s && c.value === s.value) score += 0.3;
                if (!best || score > best.score + 1e-9) best = { score, pick, ok };
              }
  const values: Partial<Record<AmountField, Candidate>> = {};
  if (best) {
    const fields: AmountField[] = ['taxableValue', 'cgst', 'sgst', 'igst', 'cess', 'roundOff', 'total'];
    best.pick.forEach((c, k) => {
      // A weak unlabelled amount is kept only when it makes the document add up.
      if (c && (c.score > 0.2 || best.ok)) values[fields[k]!] = c;
    });
  }
  return { values, consistent: best?.ok ?? false };
}

/** Normalised label text, exported for tests. */
export const normalizeAmountLabel = normalizeLabelText;
