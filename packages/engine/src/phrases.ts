/**
 * A small notation for label wordings, compiled into the RegExps that match them at the start of a
 * label's normalised text (lower case, single spaces: see `normalizeLabelText`). Vocabularies list
 * phrases in it instead of writing one regex per wording:
 *
 * - `place of supply`: words as printed; a space stands for one space.
 * - `invoice~no`: `~` joins two words with a space OCR may drop ("invoice no", "invoiceno").
 * - `sub-total`: `-` joins two words with a hyphen, a space or nothing ("sub-total", "sub total", "subtotal").
 * - `inv.`: a dot after a word is an abbreviation's, printed or not ("inv.", "inv"); between
 *   letters it may carry a space too: `p.o.` reads "p.o.", "p. o.", "po".
 * - `buyer's`: a possessive in any printed form ("buyer's", "buyers", "buyer'", "buyer").
 * - `[bill|invoice|voucher]`: one of several wordings; `[tax]?` an optional one. An optional word
 *   between two others takes the space after it along ("[tax]? invoice": "tax invoice", "invoice");
 *   last in a phrase, the space before it ("goods receipt [note]?").
 * - `{no}`: a named part, spelled out in the `parts` given to the compiler.
 * - `vehicle !type`: the phrase must not be followed by the words after `!` (here " type"); the
 *   separator before `!` belongs to what must not follow (`~!off`: " off" or "off").
 * - `date*`, `[to|from]*`: any word starting so ("date", "dated"), where a phrase would end at the
 *   end of a word.
 *
 * A phrase ends where a word does: after its last letter or digit no letter or digit may follow
 * (a trailing abbreviation dot is taken when printed); after a mark anything may ("bill #" reads
 * "Bill #12" and "Bill # 12"). Marks other than the notation's own (`#`, `&`, `/`, `:`, `'`) are
 * literal. `phrases.test.ts` shows each rule.
 */

/** How a compiled phrase may start and end beyond its own words. */
export interface PhraseOptions {
  /** Named parts a phrase may use as `{name}`: each one item (a word or one bracketed group). */
  parts?: Readonly<Record<string, string>>;
  /** Words that may introduce the label, with or without a colon ("Add:", "Less :"). */
  lead?: readonly string[];
  /** The label may follow the number of an item in a list of terms ("4. Payment Terms"). */
  numbered?: boolean;
  /** `letter`: the phrase ends where no letter follows, a figure may ("CGST9%"); default a word boundary. */
  end?: 'word' | 'letter';
}

type Sep = ' ' | '~' | '-';
type Item =
  | { kind: 'word'; text: string; dot: boolean; prefix: boolean }
  | { kind: 'group'; alts: Seq[]; optional: boolean; dot: boolean; prefix: boolean }
  | { kind: 'sep'; sep: Sep };
type Seq = Item[];

const SEPARATORS = ' ~-';
/** Characters with a meaning of their own in the notation; any other is literal. */
const SYNTAX = ' ~-[]|?.!{}*';
const SEP_SOURCE: Record<Sep, string> = { ' ': ' ', '~': ' ?', '-': '[- ]?' };
const REGEX_SPECIAL = '\\^$*+?.()|{}[]/';

/** The regex source of literal text, each special character escaped. */
function escapeText(text: string): string {
  return [...text].map((c) => (REGEX_SPECIAL.includes(c) ? `\\${c}` : c)).join('');
}

/** Whether a character is one a regex word boundary counts as part of a word. */
function isWordChar(c: string | undefined): boolean {
  return c !== undefined && ((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c === '_');
}

/** Parse the sequence starting at `pos` up to a `|`, `]`, `!` or the end. */
function parseSeq(src: string, pos: number): [Seq, number] {
  const seq: Seq = [];
  let i = pos;
  while (i < src.length && !'|]!'.includes(src[i]!)) {
    const c = src[i]!;
    if (SEPARATORS.includes(c)) {
      seq.push({ kind: 'sep', sep: c as Sep });
      i++;
    } else if (c === '[') {
      const alts: Seq[] = [];
      i++;
      for (;;) {
        const [alt, next] = parseSeq(src, i);
        alts.push(alt);
        if (src[next] === '|') i = next + 1;
        else if (src[next] === ']') {
          i = next + 1;
          break;
        } else throw new Error(`phrase "${src}": unclosed [`);
      }
      const optional = src[i] === '?';
      if (optional) i++;
      const prefix = src[i] === '*';
      if (prefix) i++;
      const dot = src[i] === '.';
      if (dot) i++;
      seq.push({ kind: 'group', alts, optional, dot, prefix });
    } else {
      let j = i;
      while (j < src.length && !SYNTAX.includes(src[j]!)) j++;
      if (j === i) throw new Error(`phrase "${src}": unexpected "${c}" at ${i}`);
      // Dots between letters ("p.o."): an initialism, each dot optional and a space after it too.
      while (src[j] === '.' && j + 1 < src.length && !SYNTAX.includes(src[j + 1]!)) {
        j++;
        while (j < src.length && !SYNTAX.includes(src[j]!)) j++;
      }
      const text = src.slice(i, j);
      const prefix = src[j] === '*';
      if (prefix) j++;
      const dot = src[j] === '.';
      seq.push({ kind: 'word', text, dot, prefix });
      i = dot ? j + 1 : j;
    }
  }
  return [seq, i];
}

/** The regex source of one word: a possessive's forms, an initialism's dots and spaces. */
function wordSource(text: string): string {
  if (/^[a-z]+'s$/.test(text)) return `${escapeText(text.slice(0, -2))}'?s?`;
  return text.split('.').map(escapeText).join(String.raw`\.? ?`);
}

const DOT = String.raw`\.?`;

/**
 * Which separator each optional group takes along, by the group's index: the one after it when it
 * stands between two words ("[tax]? invoice"), the one before it when it ends the sequence.
 */
function takenSeparators(seq: Seq): Map<number, number> {
  const taken = new Map<number, number>();
  const isSep = (k: number) => seq[k]?.kind === 'sep';
  const used = new Set<number>();
  seq.forEach((item, k) => {
    if (item.kind !== 'group' || !item.optional) return;
    const standsAlone = k === 0 || isSep(k - 1);
    if (standsAlone && isSep(k + 1) && k + 2 < seq.length) taken.set(k, k + 1);
    else if (k === seq.length - 1 && isSep(k - 1) && !used.has(k - 1)) taken.set(k, k - 1);
    else return;
    used.add(taken.get(k)!);
  });
  return taken;
}

/** The regex source of a sequence; `atEnd`: it ends the phrase, so its last word ends at a boundary. */
function seqSource(seq: Seq, atEnd: boolean): string {
  const taken = takenSeparators(seq);
  const takenSeps = new Set(taken.values());
  let out = '';
  seq.forEach((item, k) => {
    const last = k === seq.length - 1;
    if (item.kind === 'sep') {
      if (!takenSeps.has(k)) out += SEP_SOURCE[item.sep];
    } else if (item.kind === 'word') {
      const boundary = atEnd && last && !item.prefix && isWordChar(item.text.at(-1)) ? String.raw`\b` : '';
      out += wordSource(item.text) + boundary + (item.dot ? DOT : '');
    } else {
      // A required group ending the phrase puts the boundary after each of its wordings.
      const pushEnd = atEnd && last && !item.optional && !item.prefix;
      const alts = item.alts.map((a) => seqSource(a, pushEnd));
      const single = alts.length === 1;
      let body = single ? alts[0]! : `(?:${alts.join('|')})`;
      const sepAt = taken.get(k);
      if (sepAt !== undefined) {
        const sep = SEP_SOURCE[(seq[sepAt] as { sep: Sep }).sep];
        body = sepAt > k ? `(?:${body}${sep})?` : `(?:${sep}${body})?`;
      } else if (item.optional) body = single ? `(?:${body})?` : `${body}?`;
      else if (single && item.dot) body = `(?:${body})`;
      const boundary = atEnd && last && !pushEnd && !item.prefix ? String.raw`\b` : '';
      out += body + boundary + (item.dot ? DOT : '');
    }
  });
  return out;
}

/** Replace each `{name}` by its part. */
function expandParts(phrase: string, parts: Readonly<Record<string, string>>): string {
  return phrase.replace(/\{(\w+)\}/g, (_, name: string) => {
    const part = parts[name];
    if (part === undefined) throw new Error(`phrase "${phrase}": no part {${name}}`);
    return part;
  });
}

/** The regex source of a phrase (without the start anchor and lead), its exclusions as lookaheads. */
export function phraseSource(phrase: string, options: PhraseOptions = {}): string {
  const src = expandParts(phrase, options.parts ?? {});
  const [main, stop] = parseSeq(src, 0);
  // The separator before a `!` belongs to what must not follow: take it off the sequence before.
  const sepBefore = (seq: Seq) =>
    seq.at(-1)?.kind === 'sep' ? SEP_SOURCE[(seq.pop() as { sep: Sep }).sep] : '';
  const excluded: string[] = [];
  let sep = sepBefore(main);
  let i = stop;
  while (src[i] === '!') {
    const [not, next] = parseSeq(src, i + 1);
    const nextSep = sepBefore(not);
    excluded.push(`(?!${sep}${seqSource(not, true)})`);
    sep = nextSep;
    i = next;
  }
  if (i < src.length) throw new Error(`phrase "${phrase}": unexpected "${src[i]}" at ${i}`);
  let body = seqSource(main, options.end !== 'letter');
  if (options.end === 'letter') body += '(?![a-z])';
  return body + excluded.join('');
}

/** Compile a phrase into a RegExp that matches it at the start of normalised label text. */
export function phraseRegex(phrase: string, options: PhraseOptions = {}): RegExp {
  const lead = options.lead?.length ? `(?:(?:${options.lead.map(escapeText).join('|')}) ?:? ?)?` : '';
  const numbered = options.numbered ? String.raw`(?:\d+\.\s*)?` : '';
  return new RegExp(`^${numbered}${lead}${phraseSource(phrase, options)}`);
}

/** Compile a list of phrases, in order (callers take the first that matches). */
export function phraseRegexes(phrases: readonly string[], options: PhraseOptions = {}): RegExp[] {
  return phrases.map((p) => phraseRegex(p, options));
}

/**
 * One case-insensitive pattern for a vocabulary of phrases in raw text (document titles, type
 * words, labels that name no field), each as whole words: anywhere in the text, or at its start
 * (`atStart`). `global` counts matches (`String.match`).
 */
export function wordPhrases(
  phrases: readonly string[],
  { atStart = false, global = false }: { atStart?: boolean; global?: boolean } = {},
): RegExp {
  const sources = phrases.map((p) => phraseSource(p.toLowerCase()));
  return new RegExp(`${atStart ? '^' : '\\b'}(?:${sources.join('|')})`, global ? 'gi' : 'i');
}
