import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createFixture, type Fixture, vitestConfigWithReporter } from '../helpers/fixture.js';

let fixture: Fixture | undefined;
afterEach(() => fixture?.remove());

describe('--html', () => {
  it('triage writes a self-contained page with the finding of a real red run', async () => {
    fixture = await createFixture({
      files: {
        'vitest.config.ts': vitestConfigWithReporter(),
        'flakeguard.yaml': 'budget:\n  test: 150ms\n',
        'test/slow.test.ts': `import { expect, it } from 'vitest';\nit('waits <long> & "slow"', async () => { await new Promise((r) => setTimeout(r, 250)); expect(1).toBe(1); });\n`,
      },
    });
    const run = await fixture.vitest();
    expect(run.exitCode, run.output).toBe(1);
    const record = readdirSync(path.join(fixture.root, '.flakeguard/runs'))[0] ?? '';
    const triage = await fixture.flakeguard([
      'triage',
      '--record',
      `.flakeguard/runs/${record}`,
      '--exit-code',
      '1',
      '--html',
      'out/triage.html',
    ]);
    expect(triage.exitCode, triage.output).toBe(1);
    const html = readFileSync(path.join(fixture.root, 'out/triage.html'), 'utf8');
    expect(html).toMatch(/^<!doctype html>/i);
    expect(html).toContain('waits &lt;long&gt; &amp; &quot;slow&quot;');
    expect(html).not.toMatch(/<script|src=|href=/);
  });

  it('exits 2 naming the file when the page cannot be written', async () => {
    fixture = await createFixture({ files: { notafolder: 'x' } });
    const report = JSON.stringify({ numTotalTests: 0, success: true, testResults: [] });
    fixture.write('report.json', report);
    const triage = await fixture.flakeguard([
      'triage',
      '--report',
      'report.json',
      '--exit-code',
      '0',
      '--html',
      'notafolder/triage.html',
    ]);
    expect(triage.exitCode, triage.output).toBe(2);
    expect(triage.stderr).toContain('--html');
  });
});
