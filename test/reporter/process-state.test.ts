import path from 'node:path';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIST_AS_MODULES, type Fixture, REPORTER_BUILT } from '../helpers/fixture.js';
import { seedHistoryStore } from '../helpers/history-template.js';
import { countProcess } from '../helpers/process-budget.js';
import { records, reporterProject, testFile } from './reporter-fixture.js';

/**
 * Issue 37: the reporter runs in the user's Vitest process and leaves `process` as it found it.
 * state.mjs runs Vitest through its Node API in one process and prints, from before the run to
 * after Vitest closed: the V8 flags set (v8.setFlagsFromString wrapped, named export included), the
 * process listeners per event, the environment and process.exitCode, and the exit code at the entry
 * and exit of each of the reporter's hooks. Once with Vitest's default reporter alone (what Vitest itself changes) and
 * once with flakeguard's reporter beside it, history on: flakeguard's run may differ from the
 * other only in the exit code it must set (a budget failure, in onTestRunEnd).
 */
const STATE_SCRIPT = `import v8 from 'node:v8';
import { syncBuiltinESMExports } from 'node:module';

const flags = [];
const setFlags = v8.setFlagsFromString;
v8.setFlagsFromString = (text) => { flags.push(text); setFlags(text); };
syncBuiltinESMExports();
const snapshot = () => ({
  listeners: Object.fromEntries(process.eventNames().map((e) => [String(e), process.listenerCount(e)])),
  env: { ...process.env },
  exitCode: process.exitCode ?? null,
});
const before = snapshot();
const { createVitest } = await import('vitest/node');
// process.exitCode cannot be redefined on Node 20: it is read at the entry and the exit of every hook
// of flakeguard's reporter (the real one, subclassed only to read it), so a change is placed in a hook.
const hooks = [];
async function observedReporter() {
  const Flakeguard = (await import(process.env.FLAKEGUARD_REPORTER)).default;
  class Observed extends Flakeguard {}
  for (const name of Object.getOwnPropertyNames(Flakeguard.prototype).filter((n) => /^on[A-Z]/.test(n))) {
    Observed.prototype[name] = async function (...args) {
      const entry = process.exitCode ?? null;
      try {
        return await Flakeguard.prototype[name].apply(this, args);
      } finally {
        hooks.push({ hook: name, entry, exit: process.exitCode ?? null });
      }
    };
  }
  return new Observed();
}
const reporters = process.argv[2] === 'default' ? ['default'] : ['default', await observedReporter()];
const vitest = await createVitest('test', { watch: false, reporters });
await vitest.start();
await vitest.close();
const after = snapshot();
process.stdout.write('\\nSTATE ' + JSON.stringify({ before, after, flags, hooks }) + '\\n');
process.exit(0);
`;

interface Snapshot {
  readonly listeners: Record<string, number>;
  readonly env: Record<string, string>;
  readonly exitCode: number | null;
}
interface State {
  readonly before: Snapshot;
  readonly after: Snapshot;
  readonly flags: string[];
  readonly hooks: { hook: string; entry: number | null; exit: number | null }[];
}

/** What the run changed: listeners per event (after - before), environment variables added, changed or removed. */
function changes(state: State): { listeners: Record<string, number>; env: Record<string, string | null> } {
  const { before, after } = state;
  const listeners: Record<string, number> = {};
  for (const event of new Set([...Object.keys(before.listeners), ...Object.keys(after.listeners)])) {
    const delta = (after.listeners[event] ?? 0) - (before.listeners[event] ?? 0);
    if (delta !== 0) listeners[event] = delta;
  }
  const env: Record<string, string | null> = {};
  for (const key of new Set([...Object.keys(before.env), ...Object.keys(after.env)]))
    if (before.env[key] !== after.env[key]) env[key] = after.env[key] ?? null;
  return { listeners, env };
}

async function runState(fx: Fixture, reporters: 'default' | 'flakeguard'): Promise<{ state: State; stdout: string }> {
  countProcess('vitest');
  const result = await execa(process.execPath, [path.join(fx.root, 'state.mjs'), reporters], {
    cwd: fx.root,
    reject: false,
    stdin: 'ignore',
    env: {
      ...DIST_AS_MODULES,
      NO_COLOR: '1',
      CI: 'true',
      GITHUB_ACTIONS: '',
      VITEST: '',
      VITEST_WORKER_ID: '',
      VITEST_POOL_ID: '',
      NODE_OPTIONS: '',
      FLAKEGUARD_REPORTER: REPORTER_BUILT,
    },
    timeout: 120_000,
  });
  const stdout = String(result.stdout);
  const line = stdout.split('\n').find((l) => l.startsWith('STATE '));
  if (line === undefined)
    throw new Error(`state.mjs printed no state (exit ${result.exitCode}):\n${stdout}\n${result.stderr}`);
  return { state: JSON.parse(line.slice('STATE '.length)) as State, stdout };
}

describe('reporter: leaves the process as it found it', () => {
  let fx: Fixture;
  let alone: Awaited<ReturnType<typeof runState>>;
  let flakeguard: Awaited<ReturnType<typeof runState>>;
  beforeAll(async () => {
    fx = await reporterProject(
      {
        // 200 ms of sleep against a 50 ms budget: over budget at any speed, so flakeguard must set exit
        // code 1; the quick test stays under it on a busy machine (at 10 ms, `1 + 1` took 10.1 ms in a
        // clean clone's npm test in CI, and the run had 2 tests over budget).
        'slow.test.ts': testFile(`test('dawdles', async () => { await sleep(200); });`),
        'quick.test.ts': testFile(`test('adds', () => { expect(1 + 1).toBe(2); });`),
        'state.mjs': STATE_SCRIPT,
      },
      { yaml: 'budget:\n  test: 50ms\nhistory: true\n' },
    );
    seedHistoryStore(fx.root);
    alone = await runState(fx, 'default');
    flakeguard = await runState(fx, 'flakeguard');
  });
  afterAll(() => fx.remove());

  it('ran the reporter with history on in one run and not in the other', () => {
    expect(alone.stdout).not.toMatch(/^flakeguard:/m);
    expect(flakeguard.stdout).toMatch(/flakeguard: history .*: run stored/);
    expect(flakeguard.stdout).toContain('1 test over budget');
  });

  it('sets no V8 flag', () => {
    expect(alone.state.flags).toEqual([]);
    expect(flakeguard.state.flags).toEqual([]);
  });

  it('leaves the process listeners and the environment as Vitest alone leaves them', () => {
    expect(changes(flakeguard.state)).toEqual(changes(alone.state));
  });

  it('sets the exit code only for the budget failure, in onTestRunEnd', () => {
    expect(alone.state.before.exitCode).toBeNull();
    expect(alone.state.after.exitCode).toBeNull();
    expect(flakeguard.state.after.exitCode).toBe(1);
    const changed = flakeguard.state.hooks.filter((h) => h.entry !== h.exit);
    expect(changed).toEqual([{ hook: 'onTestRunEnd', entry: null, exit: 1 }]);
    expect(flakeguard.state.hooks.map((h) => h.hook)).toContain('onTestRunStart');
    const [record] = records(fx).filter((r) => r.exitCode !== null);
    expect(record?.verdict?.failedByFlakeguard).toBe(true);
    expect(record?.vitestExitCode).toBeNull();
  });
});
