/**
 * Dev loop for header fields: runs extractDocument over the dev corpus with an OCR provider whose
 * results are cached on disk (keyed by image hash), and scores header fields with the scorer's rules.
 *   npx tsx packages/engine/dev/dev-score-header.ts [--type invoice] [--text|--scanned] [--details] [--only NAME]
 *     [--cached-only]   (documents whose OCR is not cached yet are skipped instead of OCR'd)
 */

import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { extractDocument } from '../src/extract.ts';
import { matchesTruth as match } from './corpus-match.ts';
import { createCachedOcr } from './dev-cached-ocr.ts';

const corpus = new URL('../../../../shared/corpus/dev/', import.meta.url).pathname;
const args = process.argv.slice(2);
const flag = (f: string) => args.includes(f);
const opt = (f: string) => (args.includes(f) ? args[args.indexOf(f) + 1] : undefined);

const ocr = createCachedOcr({ cachedOnly: flag('--cached-only') });

const names = readdirSync(corpus)
  .filter((f) => f.endsWith('.truth.json'))
  .sort();
let tp = 0,
  fp = 0,
  fn = 0;
const perField = new Map<string, [number, number, number]>();
for (const n of names) {
  const stem = n.slice(0, -'.truth.json'.length);
  if (opt('--only') && !stem.includes(opt('--only')!)) continue;
  const truth = JSON.parse(readFileSync(join(corpus, n), 'utf8'));
  if (opt('--type') && truth.documentType !== opt('--type')) continue;
  const scanned = truth.meta.scanned || truth.meta.photo;
  if (flag('--text') && scanned) continue;
  if (flag('--scanned') && !scanned) continue;
  const file = ['.pdf', '.jpg', '.png'].map((x) => join(corpus, stem + x)).find(existsSync)!;
  const r = await extractDocument(new Uint8Array(readFileSync(file)), {
    type: truth.documentType,
    ocr,
    fileName: file,
    qrPublicKeyPem: readFileSync(join(corpus, 'einvoice-qr-public-key.pem'), 'utf8'),
  });
  if (flag('--cached-only') && r.error) continue;
  const miss: string[] = [];
  for (const [f, tv] of Object.entries(truth.fields)) {
    const pv = r.fields[f] ?? null;
    const pf = perField.get(f) ?? [0, 0, 0];
    if (tv !== null) {
      if (match(f, tv, pv)) {
        tp++;
        pf[0]++;
      } else {
        fn++;
        pf[2]++;
        if (pv !== null) {
          fp++;
          pf[1]++;
        }
        miss.push(`${f} t=${JSON.stringify(tv)} p=${JSON.stringify(pv)}`);
      }
    } else if (pv !== null) {
      fp++;
      pf[1]++;
      miss.push(`${f} t=null p=${JSON.stringify(pv)}`);
    }
    perField.set(f, pf);
  }
  if (flag('--details') && miss.length)
    console.log(
      `${stem} [${truth.meta.family}${scanned ? ' scan' : ''}] ${r.error ? JSON.stringify(r.error) : ''}\n   ${miss.join('\n   ')}`,
    );
}
await ocr.close();
const p = tp / (tp + fp || 1),
  r = tp / (tp + fn || 1);
console.log(
  'fields:',
  [...perField]
    .filter(([, v]) => v[1] + v[2] > 0)
    .map(([k, v]) => `${k} ${v.join('/')}`)
    .join('  '),
);
console.log(
  `header P ${p.toFixed(3)} R ${r.toFixed(3)} F1 ${((2 * p * r) / (p + r || 1)).toFixed(3)}  tp ${tp} fp ${fp} fn ${fn}`,
);
