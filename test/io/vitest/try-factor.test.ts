import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GateTry } from '../../../src/core/gate/runner-protocol.js';
import { runTestsRepeatedly } from '../../../src/io/vitest/vitest-tries.js';
import { createFixture, DIST_AS_MODULES, type Fixture } from '../../helpers/fixture.js';

// Needs `npm run build`. The factor each try reports, through the whole path a gate try takes (the
// runner's try line, the pacer's samples of the worker's tree, the try's window), against the
// test's own clock: the test times its CPU-bound work (wall over process.cpuUsage) and writes it
// down. The two must agree in a wide band. CPU-bound load beside the try moves both alike (2 and 3
// busy loops on 2 cores: every try within 10%), but time the test's thread spends blocked (not
// runnable: a page fault on a busy disk, a wait for a GC helper thread) is in the test's wall clock
// and not in the gate's figures (CPU plus run-queue wait): beside another e2e file in CI a try read
// x3.23 by its clock, x2.16 by the gate's. So this file runs in `e2e-timing`, alone
// (vitest.config.ts). The pacer alone against a process's clock: test/io/load/pacer.test.ts.

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
/** The same in a child process: the child times its own work and prints it; the test writes it down. */
const childTimed = (name: string, ms: number): string => `import { execFileSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { it } from 'vitest';
it('${name}', () => {
  const work = ${JSON.stringify(`const s = performance.now(); const c = process.cpuUsage(); let x = 0;
for (;;) { for (let k = 0; k < 1e4; k += 1) x += Math.sqrt(x + 1); const u = process.cpuUsage(c); if (u.user + u.system > ${ms * 1000}) break; }
const u = process.cpuUsage(c); console.log(JSON.stringify({ wall: performance.now() - s, cpu: (u.user + u.system) / 1000 }));`)};
  writeFileSync('self-' + process.pid + '.json', execFileSync(process.execPath, ['-e', work]));
}, 60_000);
`;
const LONG = 'spins 300ms of cpu and times it';
const SHORT = 'spins 20ms of cpu and times it';
const CHILD = 'spins 300ms of cpu in a child process and times it';

describe.runIf(existsSync('/proc/self/schedstat'))(
  'runTestsRepeatedly at a slowdown: each try reports the factor its tree got',
  () => {
    let fixture: Fixture;
    beforeAll(async () => {
      fixture = await createFixture({
        files: {
          'long.test.ts': selfTimed(LONG, 300),
          'short.test.ts': selfTimed(SHORT, 20),
          'child.test.ts': childTimed(CHILD, 300),
        },
      });
    });
    afterAll(() => fixture.remove());

    /** Each try's figures against its own clock (the self file its worker wrote, by pid). */
    function expectAgrees(tries: readonly GateTry[], alone: boolean): void {
      const self = (pid: number | undefined): { wall: number; cpu: number } =>
        JSON.parse(readFileSync(path.join(fixture.root, `self-${pid}.json`), 'utf8')) as { wall: number; cpu: number };
      expect(tries.map((t) => t.state)).toEqual(['passed', 'passed', 'passed']);
      for (const t of tries) {
        const own = self(t.pid);
        const selfFactor = own.wall / own.cpu;
        // Paced, for 20 ms too: never much more than 1/F of a CPU, whatever else runs.
        expect(selfFactor).toBeGreaterThan(FACTOR / 1.5);
        expect(t.slowdownNote).toBeUndefined();
        // Measured over the test function: from the worker's own reads, and the child's samples
        // over the same span when it started a process.
        expect(t.body?.alone).toBe(alone);
        expect(t.body?.wallMs).toBeGreaterThan(own.wall * 0.9);
        expect(t.body?.wallMs).toBeLessThan(t.durationMs);
        // The try's own tree: at least the test's CPU (hooks and the worker's own work add a little).
        expect(t.cpuMs).toBeGreaterThan(own.cpu * 0.8);
        // The factor of the test function, measured by the gate, against the test's own clock (for
        // a child, its start-up is in the function too: paced alike, its own clock leaves it out).
        expect(t.slowdown).toBeGreaterThan(selfFactor / 1.25);
        expect(t.slowdown).toBeLessThan(selfFactor * 1.25);
      }
    }

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
      expect(['cgroup-v1', 'cgroup-v2', 'signals']).toContain(outcome.pace.method.kind);
      for (const test of outcome.tests) expectAgrees(test.tries, true);
      const tries = outcome.tests.flatMap((t) => t.tries);
      const weighted = tries.reduce((n, t) => n + (t.cpuMs ?? 0) * (t.slowdown ?? 0), 0);
      const cpu = tries.reduce((n, t) => n + (t.cpuMs ?? 0), 0);
      expect(outcome.pace.factor).toBeCloseTo(weighted / cpu, 1);
    }, 60_000);

    it("agrees with the test's own clock for 300 ms of CPU in a child process (the worker's reads plus the child's samples over the function)", async () => {
      const outcome = await runTestsRepeatedly({
        root: fixture.root,
        tests: [{ file: 'child.test.ts', fullName: CHILD, line: 4 }],
        tries: 3,
        slowdown: FACTOR,
      });
      expectAgrees(outcome.tests[0]?.tries ?? [], false);
    }, 60_000);
  },
);
