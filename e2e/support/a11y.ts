import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';

/**
 * axe-core's serious and critical violations on the page as it is now (WCAG 2.x A and AA rules and axe's best
 * practices), one line each: rule, impact, how many elements and the first ones' selectors. Empty when none.
 */
export async function seriousViolations(page: Page, where: string): Promise<string[]> {
  const results = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'])
    // The GCD preview is a sandboxed frame without scripts (the user's own HTML): axe cannot run inside it, and
    // waiting for it there hangs the whole analysis.
    .exclude('iframe[sandbox]')
    .analyze();
  return results.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map(
      (v) =>
        `${where}: ${v.id} (${v.impact}) ${v.help} — ${v.nodes.length} elemento(s): ${v.nodes
          .slice(0, 3)
          .map((n) =>
            `${n.target.join(' ')} ${process.env.AXE_DETAIL ? `${n.html.slice(0, 200)} ${n.failureSummary}` : ''}`.trim(),
          )
          .join(' | ')}`,
    );
}
