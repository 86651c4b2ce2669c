import { readFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { type Page, screenshot } from './harness.ts';

const axeSource = await readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** One serious or critical axe finding, shaped to read well in a failed assertion. */
export interface AxeFinding {
  screen: string;
  rule: string;
  impact: string;
  help: string;
  targets: string[];
}

/**
 * Runs axe-core on what the page shows now (WCAG 2.1 A/AA and best practices), keeps a screenshot named
 * after the screen, and returns the serious and critical findings (as the a11y e2e test does).
 */
export async function auditAccessibility(page: Page, screen: string): Promise<AxeFinding[]> {
  // Let entrance animations finish: a half-faded dialog reads as low contrast.
  await page.waitForTimeout(400);
  const loaded = await page.evaluate('typeof window.axe !== "undefined"');
  if (!loaded) await page.evaluate(`${axeSource}\n;0`);
  const violations = (await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run: (ctx: unknown, opts: unknown) => Promise<unknown> } })
      .axe;
    const result = (await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] },
      resultTypes: ['violations'],
    })) as {
      violations: Array<{
        id: string;
        impact: string | null;
        help: string;
        nodes: Array<{ target: string[] }>;
      }>;
    };
    return result.violations.map((v) => ({
      rule: v.id,
      impact: v.impact ?? 'unknown',
      help: v.help,
      targets: v.nodes.slice(0, 5).map((n) => n.target.join(' ')),
    }));
  })) as Array<Omit<AxeFinding, 'screen'>>;
  await screenshot(page, screen, { fullPage: true });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => ({ screen, ...v }));
}
