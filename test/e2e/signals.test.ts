/**
 * flakeguard killed mid-run, by SIGINT, SIGTERM and SIGKILL, while `gate` runs (Vitest child, its
 * workers, load workers) and while `triage --rerun` re-runs a failure: every process of the run,
 * found by PID (the process tree under flakeguard just before the signal), is gone within 3 s; no
 * temp folder is left (flakeguard runs with a TMPDIR of its own); SIGINT and SIGTERM exit 130 with a
 * message. Needs `npm run build`. The tree is read with `ps` from PATH.
 */
import { mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLI_BUILT, createFixture, DIST_AS_MODULES, type Fixture } from '../helpers/fixture.js';
import { cliKind, countProcess } from '../helpers/process-budget.js';
import { sleep, survivors } from '../helpers/processes.js';
import { A_OLD, createGateFixture } from './gate-fixtures.js';

const SIGNALS = ['SIGINT', 'SIGTERM', 'SIGKILL'] as const;

/** Every process under `root` (children, grandchildren...), from one `ps` listing. */
async function descendants(root: number): Promise<number[]> {
  const { stdout } = await execa('ps', ['-A', '-o', 'pid=', '-o', 'ppid=']);
  const children = new Map<number, number[]>();
  for (const line of stdout.split('\n')) {
    const [pid, ppid] = line.trim().split(/\s+/).map(Number);
    if (pid === undefined || ppid === undefined || Number.isNaN(pid)) continue;
    children.set(ppid, [...(children.get(ppid) ?? []), pid]);
  }
  const out: number[] = [];
  const queue = [root];
  while (queue.length > 0) {
    const next = queue.shift() as number;
    for (const c of children.get(next) ?? []) {
      out.push(c);
      queue.push(c);
    }
  }
  return out;
}

interface Killed {
  readonly exitCode: number | undefined;
  readonly signal: string | undefined;
  readonly stderr: string;
  readonly tree: readonly number[];
  readonly survivors: readonly number[];
  readonly tempLeft: readonly string[];
}

/**
 * Starts `flakeguard ...args`, waits for `ready` in its stderr and for at least `minTree` processes
 * under it, sends `signal`, and reports what was left.
 */
async function killMidRun(
  fx: Fixture,
  args: readonly string[],
  ready: RegExp,
  minTree: number,
  signal: (typeof SIGNALS)[number],
): Promise<Killed> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), 'fg-signals-tmp-'));
  try {
    countProcess(cliKind(args));
    const child = execa(process.execPath, [CLI_BUILT, ...args], {
      cwd: fx.root,
      reject: false,
      stdin: 'ignore',
      env: { CI: 'true', NO_COLOR: '1', TMPDIR: tmp, TEMP: tmp, TMP: tmp, ...DIST_AS_MODULES },
    });
    let stderr = '';
    child.stderr?.on('data', (d: Buffer) => {
      stderr += String(d);
    });
    const pid = child.pid ?? -1;
    let tree: number[] = [];
    // Up to 100 s for Vitest to start on a loaded machine (the file runs beside another in project e2e;
    // under a load of 15 on 2 cores a gate took over 60 s to its first try); the loop ends as soon as
    // the run is under way.
    for (const end = Date.now() + 100_000; Date.now() < end; ) {
      if (ready.test(stderr)) {
        tree = await descendants(pid);
        if (tree.length >= minTree) break;
      }
      await sleep(50);
    }
    expect(stderr, 'the run got under way').toMatch(ready);
    expect(tree.length, `processes under flakeguard: ${tree.join(', ')}`).toBeGreaterThanOrEqual(minTree);
    process.kill(pid, signal);
    const result = await child;
    return {
      exitCode: result.exitCode,
      signal: result.signal,
      stderr: String(result.stderr),
      tree,
      survivors: await survivors(tree),
      tempLeft: readdirSync(tmp),
    };
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
}

function expectStopped(killed: Killed, signal: (typeof SIGNALS)[number]): void {
  expect(killed.survivors, `alive 3 s after ${signal}, of ${killed.tree.join(', ')}`).toEqual([]);
  expect(killed.tempLeft, `left in flakeguard's TMPDIR after ${signal}`).toEqual([]);
  if (signal === 'SIGKILL') {
    expect(killed.signal).toBe('SIGKILL');
  } else {
    expect(killed.exitCode, killed.stderr).toBe(130);
    expect(killed.stderr).toMatch(/^flakeguard: interrupted/m);
  }
}

describe('flakeguard gate killed mid-run', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await createGateFixture(
      {
        'test/slow.test.ts':
          "import { it } from 'vitest';\nit('waits', async () => { await new Promise((r) => setTimeout(r, 1500)); });\n",
      },
      { 'test/a.test.ts': A_OLD },
    );
  });
  afterAll(() => fx.remove());

  // Under flakeguard: the Vitest child's guard, Vitest, a test worker, and the load worker. One load
  // worker, not two: a second proves nothing the first does not (each is started and stopped alike)
  // and spins a core from the gate's start to the signal, taken from the file running beside this one.
  // The signal goes as soon as the tries are under way (the step that starts them, then a fourth
  // process: the first test worker), not after a first try ended: the same tree, a core-second or two
  // less of the load worker's spinning and of the first try's worker each time.
  it.each(SIGNALS)(
    '%s: no process of the run survives, no temp folder is left',
    async (signal) => {
      const killed = await killMidRun(fx, ['gate', '--base', 'main', '--load', '1'], /cold tries each/, 4, signal);
      expectStopped(killed, signal);
    },
    180_000,
  );
});

describe('flakeguard triage --rerun killed mid-run', () => {
  let fx: Fixture;
  beforeAll(async () => {
    fx = await createFixture({
      files: {
        'test/broken.test.ts':
          "import { expect, it } from 'vitest';\nit('breaks slowly', async () => { await new Promise((r) => setTimeout(r, 1500)); expect(1).toBe(2); });\n",
      },
    });
    await fx.vitest(['--reporter=json', '--outputFile=out/report.json']);
  });
  afterAll(() => fx.remove());

  // flakeguard, the re-run's guard, Vitest and a test worker.
  it.each(SIGNALS)(
    '%s: no process of the run survives, no temp folder is left',
    async (signal) => {
      const killed = await killMidRun(
        fx,
        ['triage', '--report', 'out/report.json', '--exit-code', '1', '--rerun', '5'],
        /re-running 1 failure/,
        3,
        signal,
      );
      expectStopped(killed, signal);
    },
    180_000,
  );
});
