import { spawn } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { tryFactor } from '../../../src/core/gate/pacer.js';
import { now, startPacer } from '../../../src/io/load/pacer.js';

// A paced tree against its own clock: the work times itself (wall over CPU), so the check needs no
// timing window. Other load on the machine only slows the tree further, so the bound that holds
// under load is one-sided: the tree never gets more than about 1/F of a CPU. The measured factor
// must agree with what the tree's own clock says, in a wide band.

const FACTOR = 3;
/** 400 ms of CPU in a child of the paced process (its tree), timed by the child itself. */
const WORK = `const s = performance.now(); const c = process.cpuUsage(); let x = 0;
for (;;) { const u = process.cpuUsage(c); if (u.user + u.system > 400_000) break; x += Math.sqrt(x + 1); }
const u = process.cpuUsage(c); console.log(JSON.stringify({ wall: performance.now() - s, cpu: (u.user + u.system) / 1000 }));`;
const TREE = `const r = require('node:child_process').execFileSync(process.execPath, ['-e', ${JSON.stringify(WORK)}]); process.stdout.write(r);`;

const cgroupsLeft = (): string[] => {
  const dir = '/sys/fs/cgroup/cpu';
  return existsSync(dir) ? readdirSync(dir).filter((d) => d.startsWith(`flakeguard-${process.pid}-`)) : [];
};

async function pacedTree(cgroups: boolean) {
  const pacer = startPacer(FACTOR, { cgroups });
  // A session of its own, as a Vitest call's workers have: the signal pacer may raise the tree's
  // autogroup (io/load/priority.ts), which must not be this test process's own.
  const child = spawn(process.execPath, ['-e', TREE], { stdio: ['ignore', 'pipe', 'inherit'], detached: true });
  pacer.addWorker(child.pid ?? 0, child.pid ?? 0);
  const from = now();
  let out = '';
  child.stdout.on('data', (d: Buffer) => {
    out += String(d);
  });
  await new Promise((resolve) => child.on('exit', resolve));
  const window = pacer.window(child.pid ?? 0, from, now());
  const method = pacer.method;
  pacer.stop();
  return { self: JSON.parse(out) as { wall: number; cpu: number }, window, method };
}

const onLinux = existsSync('/proc/self/schedstat');

describe.runIf(onLinux)('startPacer: a worker and the processes it starts, paced to 1/F of a CPU', () => {
  for (const cgroups of [true, false]) {
    it(`${cgroups ? 'by cgroup where offered' : 'by signals'}: the tree's own clock and the measured factor agree`, async () => {
      const { self, window, method } = await pacedTree(cgroups);
      if (!cgroups) expect(method.kind).toBe('signals');
      else expect(['cgroup-v1', 'cgroup-v2', 'signals']).toContain(method.kind);
      const selfFactor = self.wall / self.cpu;
      // Never more than about 1/F of a CPU, whatever else runs (unpaced on an idle core it would be 1).
      expect(selfFactor).toBeGreaterThan(FACTOR / 1.35);
      const got = tryFactor(window).factor ?? 0;
      expect(got).toBeGreaterThan(selfFactor / 1.5);
      expect(got).toBeLessThan(selfFactor * 1.5);
      // The grandchild's CPU is in the tree's figures, though it ended before the window did.
      expect(window?.cpuMs ?? 0).toBeGreaterThan(self.cpu * 0.8);
      // The process below the worker on its own: its CPU, and its wait as one process (the time it
      // was runnable less its CPU), against its own clock.
      const children = window?.children;
      expect(children?.cpuMs ?? 0).toBeGreaterThan(self.cpu * 0.8);
      const own = tryFactor(
        children ? { ...children, wallMs: window?.wallMs ?? 0, stoppedMs: window?.stoppedMs ?? 0 } : null,
      );
      expect(own.factor ?? 0).toBeGreaterThan(selfFactor / 1.5);
      expect(own.factor ?? 0).toBeLessThan(selfFactor * 1.5);
      expect(cgroupsLeft()).toEqual([]);
    }, 30_000);
  }

  it('leaves no tree stopped when it stops in the middle of a stop', async () => {
    const pacer = startPacer(8, { cgroups: false });
    const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore', detached: true });
    pacer.addWorker(child.pid ?? 0, child.pid ?? 0);
    await new Promise((r) => setTimeout(r, 300));
    pacer.stop();
    await new Promise((r) => setTimeout(r, 50));
    const state = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]?.[0];
    child.kill('SIGKILL');
    expect(state).not.toBe('T');
  });
});
