import { deflateSync } from 'node:zlib';

/**
 * Small files that are costly to handle, built byte by byte for tests and `npm run bench:hostile`: each
 * stands for a finding of the hardening probe (#33).
 */

/** A PDF from its objects (numbered from 1, the first being the catalog), with an exact xref table. */
function buildPdf(objects: Array<string | Buffer>): Buffer {
  const chunks: Buffer[] = [Buffer.from('%PDF-1.7\n')];
  let length = chunks[0]!.length;
  const offsets: number[] = [];
  const push = (chunk: Buffer) => {
    chunks.push(chunk);
    length += chunk.length;
  };
  objects.forEach((object, i) => {
    offsets.push(length);
    push(Buffer.from(`${i + 1} 0 obj\n`));
    push(typeof object === 'string' ? Buffer.from(object) : object);
    push(Buffer.from('\nendobj\n'));
  });
  const xref = length;
  const table = offsets.map((o) => `${String(o).padStart(10, '0')} 00000 n \n`).join('');
  push(
    Buffer.from(
      `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n${table}trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`,
    ),
  );
  return Buffer.concat(chunks);
}

/**
 * A one-page PDF of `count` stroked lines `lineWidth` points wide, compressed: a few kilobytes that take
 * mupdf minutes to draw at full width (5,000 lines: about 100 s at 2400 pixels).
 */
export function strokedLinesPdf(count: number, lineWidth = 200): Buffer {
  let content = '';
  for (let i = 0; i < count; i++) content += `${lineWidth} w ${i % 612} 0 m ${(i * 7) % 612} 792 l S\n`;
  const data = deflateSync(Buffer.from(content), { level: 9 });
  return buildPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
    Buffer.concat([
      Buffer.from(`<< /Length ${data.length} /Filter /FlateDecode >>\nstream\n`),
      data,
      Buffer.from('\nendstream'),
    ]),
  ]);
}

/** A PDF of `count` empty A4 pages under one page-tree node (100,000 pages: about 7 MB). */
export function manyPagesPdf(count: number): Buffer {
  const kids = Array.from({ length: count }, (_, i) => `${i + 3} 0 R`).join(' ');
  const page = '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] >>';
  return buildPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${count} >>`,
    ...Array.from({ length: count }, () => page),
  ]);
}
