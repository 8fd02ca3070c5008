import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTestsRepeatedly } from '../../../src/io/vitest/vitest-tries.js';
import { createFixture, type Fixture } from '../../helpers/fixture.js';

// Needs `npm run build`. The factor each try reports, through the whole path a gate try takes (the
// runner's try line, the pacer's samples of the worker's tree, the try's window), against the
// test's own clock: the test times its CPU-bound work (wall over process.cpuUsage) and writes it
// down. No timing window: the two figures must agree in a wide band, and other load on the machine
// moves both alike. The pacer alone against a process's clock: test/io/load/pacer.test.ts.

const FACTOR = 3;
const SELF_TIMED = `import { writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
it('spins 300ms of cpu and times it', () => {
  const s = performance.now();
  const c = process.cpuUsage();
  let x = 0;
  for (;;) { const u = process.cpuUsage(c); if (u.user + u.system > 300_000) break; x += Math.sqrt(x + 1); }
  const u = process.cpuUsage(c);
  writeFileSync('self-' + process.pid + '.json', JSON.stringify({ wall: performance.now() - s, cpu: (u.user + u.system) / 1000 }));
  expect(x).toBeGreaterThan(0);
}, 60_000);
`;

describe.runIf(existsSync('/proc/self/schedstat'))(
  'runTestsRepeatedly at a slowdown: each try reports the factor its tree got',
  () => {
    let fixture: Fixture;
    beforeAll(async () => {
      fixture = await createFixture({ files: { 'cpu.test.ts': SELF_TIMED } });
    });
    afterAll(() => fixture.remove());

    it("agrees with the test's own clock, and the call's factor is the tries' CPU-weighted one", async () => {
      const outcome = await runTestsRepeatedly({
        root: fixture.root,
        tests: [{ file: 'cpu.test.ts', fullName: 'spins 300ms of cpu and times it', line: 3 }],
        tries: 2,
        slowdown: FACTOR,
      });
      const tries = outcome.tests[0]?.tries ?? [];
      expect(tries.map((t) => t.state)).toEqual(['passed', 'passed']);
      const selves = readdirSync(fixture.root)
        .filter((f) => f.startsWith('self-'))
        .map((f) => JSON.parse(readFileSync(path.join(fixture.root, f), 'utf8')) as { wall: number; cpu: number });
      expect(selves).toHaveLength(2);
      const selfFactor = Math.max(...selves.map((s) => s.wall / s.cpu));
      // Paced: never much more than 1/F of a CPU, whatever else runs.
      expect(Math.min(...selves.map((s) => s.wall / s.cpu))).toBeGreaterThan(FACTOR / 1.35);
      expect(['cgroup-v1', 'cgroup-v2', 'signals']).toContain(outcome.pace.method.kind);
      for (const t of tries) {
        expect(t.slowdownNote).toBeUndefined();
        // The try's own tree: at least the test's CPU (hooks and the worker's own work add a little).
        expect(t.cpuMs).toBeGreaterThan(Math.min(...selves.map((s) => s.cpu)) * 0.8);
        expect(t.slowdown).toBeGreaterThan(selfFactor / 1.6);
        expect(t.slowdown).toBeLessThan(selfFactor * 1.5);
      }
      const weighted = tries.reduce((n, t) => n + (t.cpuMs ?? 0) * (t.slowdown ?? 0), 0);
      const cpu = tries.reduce((n, t) => n + (t.cpuMs ?? 0), 0);
      expect(outcome.pace.factor).toBeCloseTo(weighted / cpu, 1);
    }, 60_000);
  },
);
