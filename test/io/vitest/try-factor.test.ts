import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LARGE_BLOCKED_SHARE } from '../../../src/core/gate/pacer.js';
import type { GateTry } from '../../../src/core/gate/runner-protocol.js';
import { runTestsRepeatedly } from '../../../src/io/vitest/vitest-tries.js';
import { createFixture, DIST_AS_MODULES, type Fixture } from '../../helpers/fixture.js';

// Needs `npm run build`. The factor each try reports, through the whole path a gate try takes (the
// runner's try line, the pacer's samples of the worker's tree, the try's window), against the
// test's own clock: the test times its CPU-bound work (wall over process.cpuUsage) and writes it
// down. The gate's factor counts CPU, run-queue wait (a cgroup's throttling included) and the
// pacer's stops; the test's wall clock also holds the time its thread was blocked (not runnable: a
// page fault on a busy disk, a wait for a GC helper thread), which slows no CPU work. The gate
// measures that part too, per try (`blockedMs` = wall - CPU - wait - stopped over the function), so
// the band is exact arithmetic with a margin for what the two clocks see differently (the
// interpolated stops, the runner's reads a few microseconds outside the test's own):
// - slowdown + blockedMs / CPU, the gate's figures with the blocked time put back, is within 1.25x of
//   the test's wall / CPU, always;
// - slowdown alone is within 1.25x too whenever the function was blocked under a fifth of its wall
//   (1 - 1/1.25; pacer.ts LARGE_BLOCKED_SHARE): more, and the verdict's reason names it.
// Before blockedMs, beside other e2e files in whole-suite runs a try read x2.27 / x2.42 by the gate
// and x3.1 by its clock (quarantined 2026-12-05, de3c0e16). FLAKEGUARD_TRY_FIGURES=1 prints each
// try's figures. The file still runs in `e2e-timing`, alone (vitest.config.ts). The pacer alone
// against a process's clock: test/io/load/pacer.test.ts.

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
        // The factor of the test function, measured by the gate, with the time it was blocked put
        // back (slowdown + blocked / CPU = wall / CPU), against the test's own clock (for a child,
        // its start-up is in the function too: paced alike, its own clock leaves it out).
        const blocked = t.blockedMs ?? Number.NaN;
        expect(blocked).toBeGreaterThanOrEqual(0);
        const accounted = (t.slowdown ?? 0) + blocked / own.cpu;
        expect(accounted).toBeGreaterThan(selfFactor / 1.25);
        expect(accounted).toBeLessThan(selfFactor * 1.25);
        // The factor alone agrees in the band when the function was blocked well under a fifth of
        // its wall (1 - 1/1.25; over it, the verdict's reason names it: pacer.ts describeBlocked).
        // Not up to the fifth itself: the factor alone is about selfFactor x (1 - blocked share),
        // so at a share near 1/5 it sits on the band's edge and the two clocks' small gap decides
        // (CI, 2026-12-08: x2.49 against a bound of x2.52). Half the share leaves the clocks room.
        if (blocked < (t.body?.wallMs ?? 0) * (LARGE_BLOCKED_SHARE / 2)) {
          expect(t.slowdown).toBeGreaterThan(selfFactor / 1.25);
          expect(t.slowdown).toBeLessThan(selfFactor * 1.25);
        }
        if (process.env.FLAKEGUARD_TRY_FIGURES)
          console.log(
            JSON.stringify({ self: own, selfFactor, slowdown: t.slowdown, blocked, accounted, body: t.body }),
          );
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
