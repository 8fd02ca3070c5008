import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runTestsRepeatedly } from '../../../src/io/vitest/vitest-tries.js';
import { createFixture, DIST_AS_MODULES, type Fixture } from '../../helpers/fixture.js';

// Needs `npm run build`. The factor each try reports, through the whole path a gate try takes (the
// runner's try line, the pacer's samples of the worker's tree, the try's window), against the
// test's own clock: the test times its CPU-bound work (wall over process.cpuUsage) and writes it
// down. No timing window: the two figures must agree in a wide band, and other load on the machine
// moves both alike. The pacer alone against a process's clock: test/io/load/pacer.test.ts.

const FACTOR = 3;
/** A test that spins `ms` of CPU, timing it itself (wall over process.cpuUsage), and writes what it got beside its pid. */
const selfTimed = (name: string, ms: number): string => `import { writeFileSync } from 'node:fs';
import { expect, it } from 'vitest';
it('${name}', () => {
  const s = performance.now();
  const c = process.cpuUsage();
  let x = 0;
  for (;;) { for (let k = 0; k < 1e4; k += 1) x += Math.sqrt(x + 1); const u = process.cpuUsage(c); if (u.user + u.system > ${ms * 1000}) break; }
  const u = process.cpuUsage(c);
  writeFileSync('self-' + process.pid + '.json', JSON.stringify({ wall: performance.now() - s, cpu: (u.user + u.system) / 1000 }));
  expect(x).toBeGreaterThan(0);
}, 60_000);
`;
const LONG = 'spins 300ms of cpu and times it';
const SHORT = 'spins 20ms of cpu and times it';

describe.runIf(existsSync('/proc/self/schedstat'))(
  'runTestsRepeatedly at a slowdown: each try reports the factor its tree got',
  () => {
    let fixture: Fixture;
    beforeAll(async () => {
      fixture = await createFixture({
        files: { 'long.test.ts': selfTimed(LONG, 300), 'short.test.ts': selfTimed(SHORT, 20) },
      });
    });
    afterAll(() => fixture.remove());

    it("agrees with the test's own clock, for 300 ms and for 20 ms of CPU, and the call's factor is the tries' CPU-weighted one", async () => {
      const outcome = await runTestsRepeatedly({
        env: DIST_AS_MODULES,
        root: fixture.root,
        tests: [
          { file: 'long.test.ts', fullName: LONG, line: 3 },
          { file: 'short.test.ts', fullName: SHORT, line: 3 },
        ],
        tries: 3,
        slowdown: FACTOR,
      });
      // Each try's own figures, by the worker's pid (one try per worker).
      const self = (pid: number | undefined): { wall: number; cpu: number } =>
        JSON.parse(readFileSync(path.join(fixture.root, `self-${pid}.json`), 'utf8')) as { wall: number; cpu: number };
      expect(['cgroup-v1', 'cgroup-v2', 'signals']).toContain(outcome.pace.method.kind);
      const [long, short] = outcome.tests;
      for (const test of [long, short]) {
        const tries = test?.tries ?? [];
        expect(tries.map((t) => t.state)).toEqual(['passed', 'passed', 'passed']);
        for (const t of tries) {
          const own = self(t.pid);
          const selfFactor = own.wall / own.cpu;
          // Paced, for 20 ms too: never much more than 1/F of a CPU, whatever else runs.
          expect(selfFactor).toBeGreaterThan(FACTOR / 1.5);
          expect(t.slowdownNote).toBeUndefined();
          // Measured over the test function, from the worker's own threads: it started no process.
          expect(t.body?.alone).toBe(true);
          expect(t.body?.wallMs).toBeGreaterThan(own.wall * 0.9);
          expect(t.body?.wallMs).toBeLessThan(t.durationMs);
          // The try's own tree: at least the test's CPU (hooks and the worker's own work add a little).
          expect(t.cpuMs).toBeGreaterThan(own.cpu * 0.8);
          // The factor of the test function, measured by the gate, against the test's own clock.
          expect(t.slowdown).toBeGreaterThan(selfFactor / 1.25);
          expect(t.slowdown).toBeLessThan(selfFactor * 1.25);
        }
      }
      const tries = outcome.tests.flatMap((t) => t.tries);
      const weighted = tries.reduce((n, t) => n + (t.cpuMs ?? 0) * (t.slowdown ?? 0), 0);
      const cpu = tries.reduce((n, t) => n + (t.cpuMs ?? 0), 0);
      expect(outcome.pace.factor).toBeCloseTo(weighted / cpu, 1);
    }, 60_000);
  },
);
