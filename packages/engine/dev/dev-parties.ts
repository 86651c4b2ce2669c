/**
 * Dev tool: show the party anchors and blocks the engine reads from a cached document
 * (pages cached by dev-fast.ts in /tmp/bahi-pages).  npx tsx packages/engine/dev/dev-parties.ts invoice-027.pdf [type]
 */
import { readFileSync } from 'node:fs';
import { extractParties } from '../src/fields/parties.ts';
import { buildLayout } from '../src/layout.ts';
import type { DocumentType } from '../src/types.ts';

const loaded = JSON.parse(readFileSync(`/tmp/bahi-pages/${process.argv[2]}.json`, 'utf8'));
const type = (process.argv[3] ?? process.argv[2]!.split('-')[0]) as DocumentType;
const layout = buildLayout(loaded.pages);
const { vendor, buyer } = extractParties(layout, type, () => false);
for (const [k, p] of Object.entries({ vendor, buyer }))
  for (const [f, c] of Object.entries(p))
    console.log(k, f, c ? `${JSON.stringify(c.value)} @${c.bbox.join(',')} s=${c.score.toFixed(2)}` : null);
