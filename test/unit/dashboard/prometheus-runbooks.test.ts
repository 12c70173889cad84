// Every shipped alert names its section of docs/alerts.md in a `runbook` annotation, and that
// section exists (its heading's anchor), so a page or ticket always leads to what to do.
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

const read = (path: string) => readFileSync(new URL(`../../../${path}`, import.meta.url), 'utf8');
const rules = ['scorestream-alerts.rules.yml', 'scorestream-slo.rules.yml'].map((file) => read(`dashboard/prometheus/${file}`)).join('\n');
const anchors = new Set([...read('docs/alerts.md').matchAll(/^#+ (.+)$/gm)].map((match) => match[1]!.toLowerCase().replace(/[^a-z0-9 -]/g, '').replace(/ /g, '-')));

describe('the alerts runbooks', () => {
  it('every alert has a runbook annotation pointing at a section of docs/alerts.md', () => {
    const alerts = [...rules.matchAll(/- alert: (\w+)([\s\S]*?)(?=\n\s+- alert:|\n {2}- name:|$)/g)];
    expect(alerts.length).toBe(12);
    for (const [, name, body] of alerts) {
      const runbook = /runbook: docs\/alerts\.md#([\w-]+)/.exec(body!)?.[1];
      expect(runbook, `${name}'s runbook`).toBe(name!.toLowerCase());
      expect(anchors, `docs/alerts.md#${runbook}`).toContain(runbook);
    }
  });
});
