/**
 * GST state codes, as used in the first two characters of a GSTIN and in the "place of supply"
 * field of a tax invoice. Source of truth: the GST state code list published by GSTN (the same
 * list appears in the e-invoice schema's `StateCode` master). Codes 25 and 28 are kept because
 * documents from before the 2020 Dadra & Nagar Haveli + Daman & Diu merger and old Andhra
 * Pradesh registrations still carry them.
 */

/** One entry of the GST state code list. */
export interface IndianState {
  /** Two-digit GST state code, e.g. '29'. */
  code: string;
  /** Current official name. */
  name: string;
  /** Common two-letter (vehicle / ISO-like) abbreviation, upper case. */
  abbr: string;
  /** 'state', 'ut' (union territory: UTGST instead of SGST) or 'other' (97, 99). */
  kind: 'state' | 'ut' | 'other';
  /** True for codes no longer issued to new registrations (25, 28). */
  historical?: boolean;
}

/** Every GST state code: 01–38, 97 Other Territory and 99 Centre Jurisdiction. */
export const STATES: readonly IndianState[] = Object.freeze([
  { code: '01', name: 'Jammu and Kashmir', abbr: 'JK', kind: 'ut' },
  { code: '02', name: 'Himachal Pradesh', abbr: 'HP', kind: 'state' },
  { code: '03', name: 'Punjab', abbr: 'PB', kind: 'state' },
  { code: '04', name: 'Chandigarh', abbr: 'CH', kind: 'ut' },
  { code: '05', name: 'Uttarakhand', abbr: 'UK', kind: 'state' },
  { code: '06', name: 'Haryana', abbr: 'HR', kind: 'state' },
  { code: '07', name: 'Delhi', abbr: 'DL', kind: 'ut' },
  { code: '08', name: 'Rajasthan', abbr: 'RJ', kind: 'state' },
  { code: '09', name: 'Uttar Pradesh', abbr: 'UP', kind: 'state' },
  { code: '10', name: 'Bihar', abbr: 'BR', kind: 'state' },
  { code: '11', name: 'Sikkim', abbr: 'SK', kind: 'state' },
  { code: '12', name: 'Arunachal Pradesh', abbr: 'AR', kind: 'state' },
  { code: '13', name: 'Nagaland', abbr: 'NL', kind: 'state' },
  { code: '14', name: 'Manipur', abbr: 'MN', kind: 'state' },
  { code: '15', name: 'Mizoram', abbr: 'MZ', kind: 'state' },
  { code: '16', name: 'Tripura', abbr: 'TR', kind: 'state' },
  { code: '17', name: 'Meghalaya', abbr: 'ML', kind: 'state' },
  { code: '18', name: 'Assam', abbr: 'AS', kind: 'state' },
  { code: '19', name: 'West Bengal', abbr: 'WB', kind: 'state' },
  { code: '20', name: 'Jharkhand', abbr: 'JH', kind: 'state' },
  { code: '21', name: 'Odisha', abbr: 'OD', kind: 'state' },
  { code: '22', name: 'Chhattisgarh', abbr: 'CG', kind: 'state' },
  { code: '23', name: 'Madhya Pradesh', abbr: 'MP', kind: 'state' },
  { code: '24', name: 'Gujarat', abbr: 'GJ', kind: 'state' },
  { code: '25', name: 'Daman and Diu', abbr: 'DD', kind: 'ut', historical: true },
  { code: '26', name: 'Dadra and Nagar Haveli and Daman and Diu', abbr: 'DN', kind: 'ut' },
  { code: '27', name: 'Maharashtra', abbr: 'MH', kind: 'state' },
  { code: '28', name: 'Andhra Pradesh (Old)', abbr: 'AP', kind: 'state', historical: true },
  { code: '29', name: 'Karnataka', abbr: 'KA', kind: 'state' },
  { code: '30', name: 'Goa', abbr: 'GA', kind: 'state' },
  { code: '31', name: 'Lakshadweep', abbr: 'LD', kind: 'ut' },
  { code: '32', name: 'Kerala', abbr: 'KL', kind: 'state' },
  { code: '33', name: 'Tamil Nadu', abbr: 'TN', kind: 'state' },
  { code: '34', name: 'Puducherry', abbr: 'PY', kind: 'ut' },
  { code: '35', name: 'Andaman and Nicobar Islands', abbr: 'AN', kind: 'ut' },
  { code: '36', name: 'Telangana', abbr: 'TS', kind: 'state' },
  { code: '37', name: 'Andhra Pradesh', abbr: 'AP', kind: 'state' },
  { code: '38', name: 'Ladakh', abbr: 'LA', kind: 'ut' },
  { code: '97', name: 'Other Territory', abbr: 'OT', kind: 'other' },
  { code: '99', name: 'Centre Jurisdiction', abbr: 'CJ', kind: 'other' },
] satisfies IndianState[]);

const BY_CODE = new Map(STATES.map((s) => [s.code, s]));

/** The state for a GST state code ('29', or '9' for '09'); undefined when the code is not on the list. */
export function stateByCode(code: string): IndianState | undefined {
  const trimmed = code.trim();
  if (!/^\d{1,2}$/.test(trimmed)) return undefined;
  return BY_CODE.get(trimmed.padStart(2, '0'));
}

/** Squash case, '&' and punctuation so 'Jammu & Kashmir' and 'JAMMU AND KASHMIR' compare equal. */
function squashName(text: string): string {
  return text
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z]+/g, ' ')
    .trim();
}

// Names seen on real invoices besides the official ones: pre-rename names, spellings without
// spaces, and the "Dadra/Daman" variants. Values are GST codes.
const ALIASES: ReadonlyArray<readonly [string, string]> = [
  ['jammu and kashmir', '01'],
  ['j and k', '01'],
  ['jammu kashmir', '01'],
  ['uttaranchal', '05'],
  ['new delhi', '07'],
  ['nct of delhi', '07'],
  ['orissa', '21'],
  ['chattisgarh', '22'],
  ['chhatisgarh', '22'],
  ['dadra and nagar haveli', '26'],
  ['dadra nagar haveli', '26'],
  ['dnh and dd', '26'],
  ['tamilnadu', '33'],
  ['pondicherry', '34'],
  ['pondichery', '34'],
  ['andaman and nicobar', '35'],
  ['andaman nicobar', '35'],
  ['telengana', '36'],
  ['other territory', '97'],
  ['centre jurisdiction', '99'],
  ['center jurisdiction', '99'],
];

const NAME_TABLE: ReadonlyArray<readonly [string, string]> = [
  // Current names first so '37 Andhra Pradesh' wins over '28 Andhra Pradesh (Old)'.
  ...STATES.filter((s) => !s.historical).map((s) => [squashName(s.name), s.code] as const),
  ...ALIASES,
  ...STATES.filter((s) => s.historical).map((s) => [squashName(s.name), s.code] as const),
]
  .map(([name, code], order) => ({ name, code, order }))
  // Longest first, so among names starting at the same word the fullest one is found first.
  .sort((a, b) => b.name.length - a.name.length || a.order - b.order)
  .map(({ name, code }) => [name, code] as const);

// Abbreviations, including older ones still printed on invoices (OR, CT, TG, UT).
const ABBREVIATIONS: ReadonlyMap<string, string> = new Map([
  ...STATES.filter((s) => !s.historical && s.kind !== 'other').map((s) => [s.abbr, s.code] as const),
  ['OR', '21'],
  ['CT', '22'],
  ['TG', '36'],
  ['UT', '05'],
  ['PD', '34'],
  ['DH', '26'],
]);

/**
 * The GST state code named in free text: 'Karnataka', 'KA', '29-Karnataka', '29', 'Karnataka (29)',
 * 'State: Karnataka, Code: 29', old names (Orissa, Pondicherry, Uttaranchal), 'J&K', 'Tamilnadu'.
 * A code labelled 'Code' wins over a name because invoices print it to remove doubt; other
 * numbers count only when they are the whole text or sit next to a (possibly misspelt) name;
 * a two-letter abbreviation counts only when it is the whole text (so 'GA' inside words never matches).
 * Returns null when nothing recognisable is present.
 */
export function stateCodeFromText(text: string): string | null {
  const trimmed = text.trim();
  if (trimmed === '') return null;

  // Numbers count only where they are clearly a state code: the whole text, labelled 'Code',
  // or written next to a name ('29-Karnatka', 'Karnataka (29)'). Stray numbers in an address
  // ('Plot No. 12, Sector 5') must never turn into a state.
  const whole = /^([0-9]{1,2})$/.exec(trimmed);
  if (whole) return stateByCode(whole[1]!)?.code ?? null;
  const labelled = /\bcode\s*(?:no\.?)?\s*[:\-.]?\s*([0-9]{1,2})(?![0-9])/i.exec(trimmed);
  const labelledCode = labelled ? (stateByCode(labelled[1]!)?.code ?? null) : null;
  if (labelledCode !== null) return labelledCode;

  const named = findStateName(squashName(trimmed));
  if (named !== null) return named;

  const prefixed = /^([0-9]{2})\s*[-–:]\s*[A-Za-z]/.exec(trimmed) ?? /\(\s*([0-9]{2})\s*\)\s*$/.exec(trimmed);
  if (prefixed) return stateByCode(prefixed[1]!)?.code ?? null;

  const letters = trimmed.replace(/[.\s]/g, '').toUpperCase();
  if (/^[A-Z]{2}$/.test(letters)) return ABBREVIATIONS.get(letters) ?? null;
  return null;
}

/**
 * The code of the last state name in squashed text. Addresses end with the state, while earlier
 * words are often area or business names ('Punjab National Bank Building, …, Delhi'). A name
 * inside a longer one ('Daman and Diu' inside 'Dadra and Nagar Haveli and Daman and Diu') does not count.
 */
function findStateName(squashed: string): string | null {
  const padded = ` ${squashed} `;
  const hits: Array<{ start: number; end: number; code: string }> = [];
  for (const [name, code] of NAME_TABLE) {
    let from = 0;
    for (;;) {
      const start = findNameOutsideStreet(padded, name, from);
      if (start === -1) break;
      hits.push({ start, end: start + name.length + 1, code });
      from = start + 1;
    }
  }
  const standalone = hits.filter(
    (h) =>
      !hits.some((o) => o !== h && o.start <= h.start && o.end >= h.end && o.end - o.start > h.end - h.start),
  );
  let best: (typeof hits)[number] | null = null;
  for (const h of standalone) {
    // NAME_TABLE order breaks ties: current names before historical ones.
    if (best === null || h.start > best.start) best = h;
  }
  return best?.code ?? null;
}

// A state name followed by one of these is a place name ('Goa Road', 'Delhi Gate', 'Karnataka
// Bank'), not the state of the address.
const STREET_WORDS = new Set([
  'road',
  'rd',
  'street',
  'marg',
  'path',
  'highway',
  'hwy',
  'gate',
  'bazar',
  'bazaar',
  'market',
  'chowk',
  'colony',
  'lane',
  'bank',
]);

/** Index of ` name ` in padded text, from `from` on, where the next word is not a street word; -1 when none. */
function findNameOutsideStreet(padded: string, name: string, from: number): number {
  for (;;) {
    const index = padded.indexOf(` ${name} `, from);
    if (index === -1) return -1;
    const next = padded.slice(index + name.length + 2).split(' ')[0] ?? '';
    if (!STREET_WORDS.has(next)) return index;
    from = index + 1;
  }
}
