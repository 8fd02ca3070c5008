import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { achievedDuty, stoppedWithin } from '../../../src/core/gate/slowdown.js';
import { now, startDutyCycle } from '../../../src/io/load/duty-cycle.js';
import { sleep } from '../../helpers/processes.js';

const state = (pid: number): string => {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0] ?? '';
};

describe('startDutyCycle', () => {
  it('stops and resumes a process group, accounts every stop, and always leaves it running', async () => {
    const child = spawn(
      process.execPath,
      ['-e', 'setInterval(() => { let x = 0; for (let i = 0; i < 1e5; i += 1) x += i; }, 1)'],
      { detached: true, stdio: 'ignore' },
    );
    const pid = child.pid ?? 0;
    try {
      const started = now();
      // Ambient given as 1 and no re-measuring: the duty factor is the target, whatever the machine runs.
      const duty = startDutyCycle({ pgid: pid, target: 3, ambient: 1, measureEveryMs: 1e9 });
      await sleep(1000);
      const summary = duty.stop();
      expect(summary.stops.length).toBeGreaterThan(3);
      // The controller's own accounting: a wide band around the factor asked.
      expect(achievedDuty(summary.wallMs, summary.stoppedMs)).toBeGreaterThan(1.5);
      expect(achievedDuty(summary.wallMs, summary.stoppedMs)).toBeLessThan(6);
      expect(stoppedWithin(summary.stops, started, now())).toBeCloseTo(
        summary.stops.reduce((s, x) => s + x.to - x.from, 0),
        6,
      );
      await sleep(50);
      expect(state(pid)).not.toBe('T');
    } finally {
      child.kill('SIGKILL');
    }
  });

  it('a target of 1 never stops anything', async () => {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], { detached: true, stdio: 'ignore' });
    try {
      const duty = startDutyCycle({ pgid: child.pid ?? 0, target: 1, ambient: 1 });
      await sleep(200);
      expect(duty.stop().stops).toEqual([]);
    } finally {
      child.kill('SIGKILL');
    }
  });
});
