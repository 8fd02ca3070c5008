/** `gate --shard i/n` on two CI jobs, `gate --merge` of their reports, and `--html`, on real Vitest. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GateReportJson } from '../../src/core/gate/gate-report.js';
import type { Fixture } from '../helpers/fixture.js';
import { schemaErrors } from '../helpers/schema-check.js';
import { A_ADDS_EMPTY, createGateFixture, gateAtNoSlowdown } from './gate-fixtures.js';

// The two shard gates run once (the first test); the second merges one of their reports alone.
// The passing tests exist on main with another body: changed, not new, so neither shard's gate
// starts a Vitest for alone tries (order dependence is gate.test.ts's subject, not the split's).
let fx: Fixture;

beforeAll(async () => {
  fx = await createGateFixture(
    {
      'test/a.test.ts':
        "import { expect, it } from 'vitest';\nit('old', () => {});\nit('adds', () => { expect(1 + 1).toBe(2); });\nit('fails', () => { expect(1).toBe(2); });\n",
      'test/b.test.ts':
        "import { expect, it } from 'vitest';\nit('joins \"quoted\" <names>', () => { expect('a' + 'b').toBe('ab'); });\n",
    },
    {
      'test/a.test.ts': A_ADDS_EMPTY,
      'test/b.test.ts': "import { it } from 'vitest';\nit('joins \"quoted\" <names>', () => {});\n",
    },
  );
});

afterAll(() => fx.remove());

describe('flakeguard gate across shards', () => {
  it('runs every selected test in exactly one shard and merges the reports into one verdict', async () => {
    // At no slowdown (--slowdown 1): the subject is the split and the merge, not the factor.
    const common = gateAtNoSlowdown(2, 0, '--base', 'main', '--json');
    const [one, two] = await Promise.all([
      fx.flakeguard([...common, '--shard', '1/2']),
      fx.flakeguard([...common, '--shard', '2/2']),
    ]);
    fx.write('shard-1.json', one.stdout);
    fx.write('shard-2.json', two.stdout);
    const r1 = JSON.parse(one.stdout) as GateReportJson;
    const r2 = JSON.parse(two.stdout) as GateReportJson;
    expect(r1.shard).toEqual({ index: 1, count: 2 });
    // What real gates print is what schemas/gate-report.schema.json says (issue 47).
    for (const r of [r1, r2]) expect(schemaErrors('gate-report', r)).toEqual([]);
    expect(r1.tests.map((t) => t.project)).toEqual(r1.tests.map(() => ''));
    const names = [...r1.tests, ...r2.tests].map((t) => t.fullName).sort();
    expect(names).toEqual(['adds', 'fails', 'joins "quoted" <names>']);

    const merged = await fx.flakeguard(['gate', '--merge', 'shard-1.json', 'shard-2.json', '--html', 'gate.html']);
    expect(merged.exitCode, merged.output).toBe(1);
    expect(merged.stdout).toMatch(/failing\s+test\/a\.test\.ts:4 > fails/);
    expect(merged.stdout).toContain('1 failing, 2 stable');
    const html = readFileSync(path.join(fx.root, 'gate.html'), 'utf8');
    expect(html).toContain('joins &quot;quoted&quot; &lt;names&gt;');
    expect(html.match(/class="series"/g)).toHaveLength(3);
  });

  it('refuses to merge when a shard is missing: exit 2, the missing shard named', async () => {
    // Shard 1/2's report from the run above, alone: the merge must name 2/2 as missing.
    const merged = await fx.flakeguard(['gate', '--merge', 'shard-1.json']);
    expect(merged.exitCode).toBe(2);
    expect(merged.stderr).toContain('missing shard report 2/2');
  });
});
