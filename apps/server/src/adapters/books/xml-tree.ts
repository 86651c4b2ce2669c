// A small, strict-enough XML reader for Tally's answers and requests: elements, attributes, text and the
// five predefined entities plus numeric references. No DTDs or external entities are ever resolved (a
// `<!DOCTYPE` is refused), so a hostile answer cannot make the server read files or expand entities.

/** One element: its name (upper case as Tally writes it), attributes, text and children in order. */
export interface XmlNode {
  name: string;
  attrs: Record<string, string>;
  text: string;
  children: XmlNode[];
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

/** Replaces entity and character references; an unknown entity stays as written. */
export function decodeXml(s: string): string {
  return s.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-zA-Z]+);/g, (whole, ref: string) => {
    if (ref.startsWith('#x')) return safeChar(Number.parseInt(ref.slice(2), 16), whole);
    if (ref.startsWith('#')) return safeChar(Number.parseInt(ref.slice(1), 10), whole);
    return ENTITIES[ref] ?? whole;
  });
}

function safeChar(code: number, fallback: string): string {
  // Tally writes &#4; and similar control characters in some names: dropped, as XML 1.0 cannot hold them.
  if (code < 0x20 && code !== 9 && code !== 10 && code !== 13) return '';
  try {
    return String.fromCodePoint(code);
  } catch {
    return fallback;
  }
}

function parseAttrs(raw: string): Record<string, string> {
  const attrs: Record<string, string> = {};
  for (const m of raw.matchAll(/([^\s=]+)\s*=\s*("([^"]*)"|'([^']*)')/g))
    attrs[m[1]!.toUpperCase()] = decodeXml(m[3] ?? m[4] ?? '');
  return attrs;
}

/** Parses a document into its root element; throws on text that is not well-formed enough to read. */
export function parseXml(xml: string): XmlNode {
  const root: XmlNode = { name: '#document', attrs: {}, text: '', children: [] };
  const stack: XmlNode[] = [root];
  const re =
    /<!\[CDATA\[([\s\S]*?)\]\]>|<!--[\s\S]*?-->|<\?[\s\S]*?\?>|<!([^>]*)>|<(\/?)([^\s/>]+)([^>]*?)(\/?)>|([^<]+)/g;
  for (const m of xml.matchAll(re)) {
    const top = stack[stack.length - 1]!;
    if (m[1] !== undefined) top.text += m[1];
    else if (m[2] !== undefined) throw new Error('XML declarations (<!DOCTYPE …>) are not accepted');
    else if (m[4] !== undefined) {
      const name = m[4].toUpperCase();
      if (m[3] === '/') {
        if (top.name !== name) throw new Error(`XML closes <${name}> where <${top.name}> is open`);
        stack.pop();
      } else {
        const node: XmlNode = { name, attrs: parseAttrs(m[5] ?? ''), text: '', children: [] };
        top.children.push(node);
        if (m[6] !== '/') stack.push(node);
      }
    } else if (m[7] !== undefined) top.text += decodeXml(m[7]);
  }
  if (stack.length !== 1) throw new Error(`XML ends with <${stack[stack.length - 1]!.name}> still open`);
  const first = root.children[0];
  if (!first) throw new Error('The answer holds no XML element');
  return first;
}

/** Every element named `name` below `node` (depth first, in document order). */
export function findAll(node: XmlNode, name: string): XmlNode[] {
  const out: XmlNode[] = [];
  const walk = (n: XmlNode) => {
    for (const c of n.children) {
      if (c.name === name) out.push(c);
      walk(c);
    }
  };
  walk(node);
  return out;
}

/** The first element named `name` below `node`, if any. */
export function findFirst(node: XmlNode, name: string): XmlNode | undefined {
  return findAll(node, name)[0];
}

/** Trimmed text of the first child element `name`, or null. */
export function childText(node: XmlNode, name: string): string | null {
  const c = node.children.find((x) => x.name === name);
  const t = c?.text.trim();
  return t ? t : null;
}
