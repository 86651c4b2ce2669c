/**
 * Build small PDFs byte by byte for tests: objects are numbered from 1 in the given order and the
 * cross-reference table gets exact offsets, so any reader opens them without repair.
 */
export function buildPdf(objects: Array<string | Uint8Array>, trailerExtra = ''): Uint8Array {
  const chunks: Uint8Array[] = [];
  const enc = new TextEncoder();
  let length = 0;
  const push = (c: string | Uint8Array) => {
    const b = typeof c === 'string' ? enc.encode(c) : c;
    chunks.push(b);
    length += b.length;
  };
  push('%PDF-1.7\n%\xe2\xe3\xcf\xd3\n');
  const offsets: number[] = [];
  objects.forEach((o, i) => {
    offsets.push(length);
    push(`${i + 1} 0 obj\n`);
    push(o);
    push('\nendobj\n');
  });
  const xref = length;
  push(`xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`);
  for (const off of offsets) push(`${String(off).padStart(10, '0')} 00000 n \n`);
  push(`trailer\n<< /Size ${objects.length + 1} /Root 1 0 R ${trailerExtra} >>\nstartxref\n${xref}\n%%EOF\n`);
  const out = new Uint8Array(length);
  let pos = 0;
  for (const c of chunks) {
    out.set(c, pos);
    pos += c.length;
  }
  return out;
}

/** A stream object with the given dictionary entries and raw data. */
export function streamObject(data: Uint8Array, dict = ''): Uint8Array {
  const enc = new TextEncoder();
  const head = enc.encode(`<< /Length ${data.length} ${dict} >>\nstream\n`);
  const tail = enc.encode('\nendstream');
  const out = new Uint8Array(head.length + data.length + tail.length);
  out.set(head, 0);
  out.set(data, head.length);
  out.set(tail, head.length + data.length);
  return out;
}

/** A PDF of `n` pages, each showing one line of text in Helvetica. */
export function textPdf(lines: string[][]): Uint8Array {
  const n = lines.length;
  const objs: Array<string | Uint8Array> = [];
  objs.push('<< /Type /Catalog /Pages 2 0 R >>');
  const kids = Array.from({ length: n }, (_, i) => `${4 + i * 2} 0 R`).join(' ');
  objs.push(`<< /Type /Pages /Kids [${kids}] /Count ${n} >>`);
  objs.push('<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>');
  for (let i = 0; i < n; i++) {
    objs.push(
      `<< /Type /Page /Parent 2 0 R /MediaBox [0 0 595 842] /Resources << /Font << /F1 3 0 R >> >> /Contents ${5 + i * 2} 0 R >>`,
    );
    const body = lines[i]!.map(
      (t, k) => `BT /F1 10 Tf 40 ${800 - k * 14} Td (${t.replace(/[()\\]/g, '\\$&')}) Tj ET`,
    ).join('\n');
    objs.push(streamObject(new TextEncoder().encode(body)));
  }
  return buildPdf(objs);
}

/** A one-page PDF of `count` stroked lines `lineWidth` points wide: cheap to store, costly to draw. */
export function strokedLinesPdf(count: number, lineWidth = 200): Uint8Array {
  let content = '';
  for (let i = 0; i < count; i++) content += `${lineWidth} w ${i % 612} 0 m ${(i * 7) % 612} 792 l S\n`;
  return buildPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    '<< /Type /Pages /Kids [3 0 R] /Count 1 >>',
    '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>',
    streamObject(new TextEncoder().encode(content)),
  ]);
}

/** A PDF of `count` empty pages sharing one page tree node. */
export function manyPagesPdf(count: number): Uint8Array {
  const kids = Array.from({ length: count }, (_, i) => `${i + 3} 0 R`).join(' ');
  const pages = Array.from(
    { length: count },
    () => '<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>',
  );
  return buildPdf([
    '<< /Type /Catalog /Pages 2 0 R >>',
    `<< /Type /Pages /Kids [${kids}] /Count ${count} >>`,
    ...pages,
  ]);
}
