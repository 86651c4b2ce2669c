import { readFileSync } from 'node:fs';
import { groupLines } from '/work/main/packages/engine/src/tables/geometry.ts';
import { buildColumns } from '/work/main/packages/engine/src/tables/header.ts';
import { normaliseLabel } from '/work/main/packages/engine/src/tables/vocabulary.ts';

const pages = JSON.parse(readFileSync(process.argv[2]!, 'utf8'));
const p = pages[Number(process.argv[5] ?? 0)];
const lines = groupLines(p.words, 0.5);
const y0 = Number(process.argv[3]),
  y1 = Number(process.argv[4]);
const band = lines.filter((l) => l.yc > y0 && l.yc < y1);
for (const l of band)
  console.log(
    l.y0.toFixed(1),
    l.y1.toFixed(1),
    l.h.toFixed(1),
    l.words.map((w) => `${w.text}[${normaliseLabel(w.text)}]`).join(' '),
  );
for (const c of buildColumns(band)) console.log(c.kind, c.x0.toFixed(0), c.x1.toFixed(0), c.label);
