/**
 * Bad input catalogue, class 3: secrets. A history URL with a password, in every form a user gets
 * wrong (a wrong scheme, `?password=`, an unescaped `@`), from every place it is read (`--url`,
 * FLAKEGUARD_HISTORY_URL, `history.url` in flakeguard.yaml), through every command that reads it
 * (history query, ingest, prune, triage, the gate, the reporter): the password is never printed.
 * The rule: core/secrets.ts `redactSecrets`, used by every message that may hold the URL.
 * Needs `npm run build`. The commands other than the whole gate run in this process (what they
 * print is the subject); the reporter and the gate that runs its tries run as the user runs them,
 * in Vitest and as a spawned CLI; test/e2e/cli-smoke.test.ts spawns each command once.
 */
import { rmSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRecord } from '../../core/history/history-factories.js';
import { createFixture, type Fixture, vitestConfigWithReporter } from '../../helpers/fixture.js';
import { runCliInProcess } from '../../helpers/in-process-cli.js';
import { gateAtNoSlowdown } from '../gate-fixtures.js';

const PASSWORD = 'Zq7Secret9pw';
// 127.0.0.1:1 refuses at once: a URL the client accepts fails fast, as a store that is down does.
const URLS = [
  `mysql://ci:${PASSWORD}@127.0.0.1:1/flakes`,
  `pg://ci:${PASSWORD}@127.0.0.1:1/flakes`,
  `postgresql+x://ci:${PASSWORD}@127.0.0.1:1/flakes`,
  `postgres://ci@127.0.0.1:1/flakes?sslmode=disable&password=${PASSWORD}`,
  `postgres://ci:Zq7@${PASSWORD}@127.0.0.1:1/flakes`,
  // Not a valid URL (a space in the password): still URL-shaped, still masked (issue 48).
  `postgres://ci:pass ${PASSWORD}@127.0.0.1:1/flakes`,
];
/** The password and the pieces an unescaped `@` or a space splits it into. */
const HIDDEN = [PASSWORD, `Zq7@${PASSWORD}`, 'Secret9pw', `pass ${PASSWORD}`];

let fx: Fixture;
let record: string;
beforeAll(async () => {
  fx = await createFixture({
    git: true,
    files: {
      'vitest.config.ts': vitestConfigWithReporter(),
      'test/a.test.ts': "import { it } from 'vitest';\nit('old', () => {});\n",
      'ci/log.txt': 'FAIL test/a.test.ts > old\nAssertionError: boom\n Test Files  1 failed (1)\n',
    },
  });
  await fx.git(['checkout', '-q', '-b', 'feature']);
  fx.write('test/a.test.ts', "import { it } from 'vitest';\nit('old', () => {});\nit('adds', () => {});\n");
  await fx.git(['commit', '-qam', 'a new test']);
  // A run record for history ingest to load (the URL is the subject, not where the record came from).
  record = '.flakeguard/runs/secrets-run.json';
  fx.write(
    record,
    JSON.stringify(makeRecord({ runId: 'secrets-run', startedAt: new Date().toISOString(), tests: [{ name: 'old' }] })),
  );
}, 60_000);
afterAll(() => fx.remove());

type Source = 'flag' | 'env' | 'config';
interface Place {
  readonly source: Source;
  readonly what: string;
  /** Which of URLS to try (all when absent): a gate or reporter run costs a whole Vitest run. */
  readonly only?: readonly number[];
  run(url: string): Promise<{ readonly output: string }>;
}

const env = (url: string) => ({ FLAKEGUARD_HISTORY_URL: url });
/** A command run in this process (test/helpers/in-process-cli.ts): its subject is what it prints. */
const cli = (args: readonly string[], vars?: Record<string, string>) => runCliInProcess(fx.root, args, vars);
const PLACES: readonly Place[] = [
  { source: 'flag', what: 'history --url', run: (url) => cli(['history', '--url', url]) },
  {
    source: 'flag',
    what: 'history ingest --url',
    run: (url) => cli(['history', 'ingest', record, '--url', url]),
  },
  {
    source: 'flag',
    what: 'history prune --url',
    run: (url) => cli(['history', 'prune', '--keep', '30d', '--url', url]),
  },
  { source: 'env', what: 'history', run: (url) => cli(['history'], env(url)) },
  {
    source: 'env',
    what: 'triage --history',
    run: (url) => cli(['triage', '--log', 'ci/log.txt', '--exit-code', '1', '--history', '--branch', 'main'], env(url)),
  },
  // A wrong scheme stops the gate before it starts anything: in this process, as the commands above.
  { source: 'env', what: 'gate', only: [0, 5], run: (url) => cli(gateAtNoSlowdown(1, 0, '--base', 'main'), env(url)) },
  {
    source: 'env',
    what: 'gate',
    only: [4],
    // A URL the gate gets as far as connecting with, after its tries: a whole gate, spawned as the
    // user runs it. At no slowdown, one try: the subject is the URL kept out of what the gate prints.
    run: (url) => fx.flakeguard(gateAtNoSlowdown(1, 0, '--base', 'main'), env(url)),
  },
  { source: 'config', what: 'history', run: (url) => withConfig(url, () => cli(['history'])) },
  {
    source: 'config',
    what: 'triage',
    run: (url) => withConfig(url, () => cli(['triage', '--log', 'ci/log.txt', '--exit-code', '1', '--branch', 'main'])),
  },
  // The reporter (a whole Vitest run each) reads the URL from flakeguard.yaml here, with a wrong
  // scheme (the config error it starts with) and a URL it gets as far as connecting with (the warning
  // that the run was not stored); from FLAKEGUARD_HISTORY_URL in test/e2e/history.test.ts ("a
  // PostgreSQL store that is down": the same warning, its password shown as ***). The messages are
  // the commands' (the same loadConfig and resolveHistoryTarget), shown above for every URL form and
  // place; the other wrong schemes fail on the same check.
  { source: 'config', what: 'the reporter', only: [0, 3], run: (url) => withConfig(url, () => fx.vitest()) },
];

async function withConfig<T>(url: string, run: () => Promise<T>): Promise<T> {
  fx.write('flakeguard.yaml', `history:\n  url: ${JSON.stringify(url)}\n`);
  try {
    return await run();
  } finally {
    rmSync(path.join(fx.root, 'flakeguard.yaml'));
  }
}

const CASES = PLACES.flatMap((place) =>
  URLS.filter((_u, i) => place.only?.includes(i) ?? true).map((url) => ({
    name: `${place.source}: ${place.what} <${url.replace(PASSWORD, 'PASSWORD')}>`,
    place,
    url,
  })),
);

describe('a history URL with a password is never printed with it', () => {
  it.each(CASES.map((c) => [c.name, c] as const))('%s', async (_name, { place, url }) => {
    const run = await place.run(url);
    for (const secret of HIDDEN) expect(run.output).not.toContain(secret);
    // Where the URL is named, its password shows as ***, so the user still sees which setting is wrong.
    for (const line of run.output.split('\n').filter((l) => l.includes('127.0.0.1:1/flakes')))
      expect(line).toContain('***');
  });
});
