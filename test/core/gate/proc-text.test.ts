import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  cgroupPathOf,
  parentsOf,
  parseAutogroup,
  parseCgroupLines,
  parseMounts,
  parseProcTable,
  parseSchedstat,
  parseStat,
  parseStatusTgid,
} from '../../../src/core/gate/proc-text.js';

/** A `/proc/<pid>/stat` line as Linux writes it: pid (comm) state ppid pgrp ... utime stime cutime cstime ... */
const statText = (o: {
  pid: number;
  comm: string;
  state: string;
  ppid: number;
  pgid: number;
  times: number[];
}): string =>
  `${o.pid} (${o.comm}) ${o.state} ${o.ppid} ${o.pgid} 7 0 -1 4194560 100 0 0 0 ${o.times.join(' ')} 20 0 1 0 12345 1000 50\n`;

describe('parseStat', () => {
  it('reads state, parent, group and the CPU times in ms (100 ticks per second)', () => {
    expect(parseStat(statText({ pid: 9, comm: 'node', state: 'R', ppid: 1, pgid: 9, times: [120, 30, 5, 1] }))).toEqual(
      {
        state: 'R',
        ppid: 1,
        pgid: 9,
        cpuMs: 1500,
        childCpuMs: 60,
      },
    );
  });

  it('takes a name with spaces and parentheses whole: the last ")" ends it', () => {
    const s = parseStat(statText({ pid: 9, comm: '(a) (b)', state: 'S', ppid: 4, pgid: 2, times: [1, 2, 3, 4] }));
    expect(s).toMatchObject({ state: 'S', ppid: 4, pgid: 2, cpuMs: 30, childCpuMs: 70 });
  });

  it('refuses a text without its name or with figures missing', () => {
    expect(parseStat('9 node R 1')).toBeNull();
    expect(parseStat('9 (node) R 1 9')).toBeNull();
    expect(parseStat('')).toBeNull();
  });

  it('property: any name of up to 15 bytes (spaces, parentheses, digits) parses to the fields written', () => {
    const comm = fc.string({ unit: fc.constantFrom('a', 'Z', '0', ' ', '(', ')', '-', ':', '/'), maxLength: 15 });
    fc.assert(
      fc.property(
        comm,
        fc.constantFrom('R', 'S', 'D', 'T', 'Z', 'I'),
        fc.nat(1 << 22),
        fc.nat(1 << 22),
        fc.array(fc.nat(1e9), { minLength: 4, maxLength: 4 }),
        (c, state, ppid, pgid, times) => {
          const [u, s, cu, cs] = times as [number, number, number, number];
          expect(parseStat(statText({ pid: 7, comm: c, state, ppid, pgid, times }))).toEqual({
            state,
            ppid,
            pgid,
            cpuMs: (u + s) * 10,
            childCpuMs: (cu + cs) * 10,
          });
        },
      ),
    );
  });
});

describe('parseProcTable and parentsOf', () => {
  it('keeps the processes whose text parsed, skips the gone (null) and the unreadable', () => {
    const table = parseProcTable([
      [1, statText({ pid: 1, comm: 'init', state: 'S', ppid: 0, pgid: 1, times: [1, 1, 0, 0] })],
      [5, null],
      [6, 'garbage'],
      [7, statText({ pid: 7, comm: 'a (b)', state: 'R', ppid: 1, pgid: 7, times: [2, 0, 0, 0] })],
    ]);
    expect([...table.keys()]).toEqual([1, 7]);
    expect(table.get(7)?.cpuMs).toBe(20);
    expect(parentsOf(table)).toEqual(
      new Map([
        [1, 0],
        [7, 1],
      ]),
    );
  });
});

describe('parseSchedstat and parseStatusTgid', () => {
  it('reads CPU and run-queue wait in ns, and the thread group', () => {
    expect(parseSchedstat('1500000 250000 12\n')).toEqual({ cpuNs: 1_500_000, waitNs: 250_000 });
    expect(parseSchedstat('12')).toBeNull();
    expect(parseStatusTgid('Name:\tnode\nUmask:\t0022\nState:\tS (sleeping)\nTgid:\t4242\nPid:\t4250\n')).toBe(4242);
    expect(parseStatusTgid('Name:\tnode\n')).toBeNull();
  });
});

describe('cgroup, autogroup and mount texts', () => {
  const cgroup = '12:cpu,cpuacct:/user.slice/flakeguard-9-1/w-4\n11:memory:/user.slice\n0::/user.slice/a:b\n';

  it('splits a cgroup line at its first two colons and finds the cpu hierarchy and cgroup2 paths', () => {
    const lines = parseCgroupLines(cgroup);
    expect(lines).toEqual([
      { id: 12, controllers: ['cpu', 'cpuacct'], path: '/user.slice/flakeguard-9-1/w-4' },
      { id: 11, controllers: ['memory'], path: '/user.slice' },
      { id: 0, controllers: [], path: '/user.slice/a:b' },
    ]);
    expect(cgroupPathOf(lines, 'v1')).toBe('/user.slice/flakeguard-9-1/w-4');
    expect(cgroupPathOf(lines, 'v2')).toBe('/user.slice/a:b');
    expect(cgroupPathOf(parseCgroupLines('11:memory:/x\n'), 'v1')).toBeNull();
  });

  it('reads an autogroup and the mounts', () => {
    expect(parseAutogroup('/autogroup-2180 nice -5\n')).toEqual({ name: '/autogroup-2180', nice: -5 });
    expect(parseAutogroup('')).toBeNull();
    expect(
      parseMounts(
        'cgroup /sys/fs/cgroup/cpu,cpuacct cgroup rw,nosuid,cpu,cpuacct 0 0\ncgroup2 /sys/fs/cgroup/unified cgroup2 rw 0 0\n',
      ),
    ).toEqual([
      { at: '/sys/fs/cgroup/cpu,cpuacct', type: 'cgroup', options: ['rw', 'nosuid', 'cpu', 'cpuacct'] },
      { at: '/sys/fs/cgroup/unified', type: 'cgroup2', options: ['rw'] },
    ]);
  });

  it('property: a cgroup path with any colons and slashes comes back whole', () => {
    fc.assert(
      fc.property(fc.string({ unit: fc.constantFrom('a', '/', ':', '-', '.'), maxLength: 30 }), (p) => {
        expect(parseCgroupLines(`4:cpu:/${p}\n`)).toEqual([{ id: 4, controllers: ['cpu'], path: `/${p}` }]);
      }),
    );
  });
});
