/**
 * Trends that claim only what their runs back, end to end on the built reporter and CLI: three real
 * Vitest runs of a fast test (their records ingested: the reporter storing its runs is
 * test/e2e/history.test.ts's subject) give a slope with no bound, no projection and no "near its limit";
 * twelve runs of a test 100 ms slower each time (records ingested, the path the reporter's own
 * records take) project a crossing with its range. Both pages are checked in a real headless
 * Chromium (test/helpers/browser.ts): the points sit above the zero line, the limit is drawn when in
 * range and marked above the chart when not (embedded store). The JSON, text and page claims hold on
 * both stores: the same records go into a team's PostgreSQL (a real server the file starts once,
 * test/io/history/postgres-server.mjs, its sessions in a time zone far from UTC), whose answers
 * must be the embedded store's, field for field.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRecord } from '../core/history/history-factories.js';
import { type Browser, launchBrowser } from '../helpers/browser.js';
import { createFixture, type Fixture, vitestConfigWithReporter } from '../helpers/fixture.js';
import { seedHistoryStore } from '../helpers/history-template.js';
import { flakeguardInProcess } from '../helpers/in-process-cli.js';
import { type PostgresServer, startPostgres } from '../io/history/postgres-server.mjs';

interface JsonTest {
  readonly fullName: string;
  readonly trendMsPerRun: number | null;
  readonly trendMsPerRunBounds: [number | null, number | null] | null;
  readonly runsToLimit: number | null;
  readonly runsToLimitRange: [number, number] | null;
  readonly daysToLimit: number | null;
  readonly nearLimit: string | null;
  readonly listedFor: string[];
}

/** The two stores: the fixture's embedded store, and a team's PostgreSQL server the file starts once. */
const KINDS = ['embedded', 'postgres'] as const;
type StoreKind = (typeof KINDS)[number];

let three: Fixture;
let twelve: Fixture;
let browser: Browser | undefined;
let server: PostgresServer | undefined;
/** What the CLI printed, gathered once per store (each call opens the store: seconds under load). */
interface Seen {
  match: string;
  text: string;
  all: string;
}
const blank = (): Seen => ({ match: '', text: '', all: '' });
const seen: Record<'three' | 'twelve', Record<StoreKind, Seen>> = {
  three: { embedded: blank(), postgres: blank() },
  twelve: { embedded: blank(), postgres: blank() },
};

/** The environment that points the CLI at a store: none for the embedded one. */
function storeEnv(kind: StoreKind): Record<string, string> {
  if (kind === 'embedded') return {};
  if (!server) throw new Error('the PostgreSQL server did not start (see beforeAll)');
  return { FLAKEGUARD_HISTORY_URL: server.url };
}

/**
 * Empties the PostgreSQL store, so each fixture's records are read back alone, as from a new store.
 * The server's sessions get a time zone far from UTC (+13:45), as a team's server may have: the
 * answers must not depend on it.
 */
async function emptyPostgres(): Promise<void> {
  const client = new pg.Client({ connectionString: storeEnv('postgres')['FLAKEGUARD_HISTORY_URL'] });
  await client.connect();
  try {
    await client.query(
      'DROP TABLE IF EXISTS flakeguard_results, flakeguard_run_durations, flakeguard_runs, flakeguard_tests, flakeguard_meta, flakeguard_test_keys, flakeguard_test_days, flakeguard_open_failures',
    );
    await client.query("ALTER DATABASE postgres SET timezone = 'Pacific/Chatham'");
  } finally {
    await client.end();
  }
}

async function cli(fx: Fixture, kind: StoreKind, args: readonly string[]): Promise<string> {
  const out = await flakeguardInProcess(fx, ['history', ...args], storeEnv(kind));
  expect(out.exitCode, out.output).toBe(0);
  return out.stdout;
}

/** A page the questions to a store wrote: `history.html` for the embedded store, `postgres-history.html`... */
const pageName = (kind: StoreKind, name: string): string => (kind === 'embedded' ? name : `${kind}-${name}`);
const pageOf = (fx: Fixture, kind: StoreKind, name: string): string => path.join(fx.root, pageName(kind, name));

/** The same three questions to one store, each store writing its own pages. */
async function ask(fx: Fixture, kind: StoreKind, test: string): Promise<Seen> {
  return {
    match: await cli(fx, kind, ['--json', '--test', test]),
    text: await cli(fx, kind, ['--test', test, '--html', pageName(kind, 'match.html')]),
    all: await cli(fx, kind, ['--json', '--html', pageName(kind, 'history.html')]),
  };
}

/**
 * The run records in `records` (`count` of them) ingested into the empty PostgreSQL store and the
 * embedded store, and the same questions asked of both.
 */
async function askBoth(
  fx: Fixture,
  test: string,
  records: { readonly folder: string; readonly count: number },
): Promise<Record<StoreKind, Seen>> {
  const embedded = async () => {
    await cli(fx, 'embedded', ['ingest', records.folder]);
    return ask(fx, 'embedded', test);
  };
  const postgres = async () => {
    await emptyPostgres();
    expect(await cli(fx, 'postgres', ['ingest', records.folder])).toContain(`${records.count} stored`);
    return ask(fx, 'postgres', test);
  };
  const [e, p] = await Promise.all([embedded(), postgres()]);
  return { embedded: e, postgres: p };
}

async function setUpThree(): Promise<void> {
  three = await createFixture({
    files: {
      'vitest.config.ts': vitestConfigWithReporter(),
      // A fast test that takes a few milliseconds at least, so every run has a duration to draw.
      'test/fast.test.ts':
        "import { expect, test } from 'vitest';\ntest('adds', async () => {\n  await new Promise((r) => setTimeout(r, 20));\n  expect(1 + 1).toBe(2);\n});\n",
    },
  });
  seedHistoryStore(three.root);
  for (let i = 0; i < 3; i += 1) {
    const run = await three.vitest([]);
    expect(run.exitCode, run.output).toBe(0);
  }
  // The reporter's records of its runs go into both stores.
  three.write('flakeguard.yaml', 'history: true\n');
  seen.three = await askBoth(three, 'adds', { folder: '.flakeguard/runs', count: 3 });
}

async function setUpTwelve(): Promise<void> {
  twelve = await createFixture({ files: { 'flakeguard.yaml': 'history: true\n' } });
  seedHistoryStore(twelve.root);
  const start = Date.now() - 86_400_000;
  for (let i = 0; i < 12; i += 1) {
    const record = makeRecord({
      runId: `slower-${String(i).padStart(2, '0')}`,
      startedAt: new Date(start + i * 3_600_000).toISOString(),
      commit: `c${i}`,
      tests: [
        {
          file: 'test/sync.test.ts',
          name: 'sync > uploads',
          durationMs: 2000 + 100 * i,
          state: i === 6 ? 'failed' : 'passed',
        },
      ],
    });
    twelve.write(`artifacts/${record.runId}.json`, JSON.stringify(record));
  }
  seen.twelve = await askBoth(twelve, 'uploads', { folder: 'artifacts', count: 12 });
}

beforeAll(async () => {
  [browser, server] = await Promise.all([launchBrowser(), startPostgres()]);
}, 120_000);
afterAll(async () => {
  await browser?.browser.close();
  await server?.stop();
  three?.remove();
  twelve?.remove();
});

const tests = (stdout: string): JsonTest[] => (JSON.parse(stdout) as { tests: JsonTest[] }).tests;

/** The page in Chromium: each point's centre against the zero line, and where the limit is. */
async function layout(file: string) {
  if (!browser) throw new Error('the browser did not start (see beforeAll)');
  const context = await browser.browser.newContext({ viewport: { width: 1200, height: 1400 }, offline: true });
  try {
    const page = await context.newPage();
    const messages: string[] = [];
    page.on('console', (m) => messages.push(`console.${m.type()}: ${m.text()}`));
    page.on('pageerror', (e) => messages.push(`page error: ${e.message}`));
    await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
    const zero = await page.locator('svg.history-chart line.zero').first().boundingBox();
    const points = await Promise.all(
      (await page.locator('svg.history-chart circle.run').all()).map((c) => c.boundingBox()),
    );
    const limit = await page
      .locator('svg.history-chart line.limit')
      .first()
      .boundingBox({ timeout: 1000 })
      .catch(() => null);
    const marker = await page
      .locator('svg.history-chart g.limit-off')
      .first()
      .boundingBox({ timeout: 1000 })
      .catch(() => null);
    const markerText = marker ? await page.locator('svg.history-chart g.limit-off').first().textContent() : null;
    return { messages, zero, points, limit, marker, markerText };
  } finally {
    await context.close();
  }
}

/** The PostgreSQL store's answers are the embedded store's: the JSON, and the text. */
function expectSameAnswers(asked: Record<StoreKind, Seen>): void {
  const json = (stdout: string): unknown => JSON.parse(stdout);
  expect(json(asked.postgres.match)).toEqual(json(asked.embedded.match));
  expect(json(asked.postgres.all)).toEqual(json(asked.embedded.all));
  expect(asked.postgres.text).toEqual(asked.embedded.text);
}

describe('trends from three real runs of a fast test', () => {
  // Three real Vitest runs and the CLI calls on both stores, each opening its store: minutes under load.
  beforeAll(setUpThree, 300_000);

  it.each(KINDS)('give a slope with no bound, no projection, and no "near its limit" (%s store)', (kind) => {
    const asked = seen.three[kind];
    const [t, ...rest] = tests(asked.match);
    expect(rest).toEqual([]);
    expect(t!.trendMsPerRunBounds).toEqual([null, null]);
    expect({ runs: t!.runsToLimit, range: t!.runsToLimitRange, days: t!.daysToLimit, near: t!.nearLimit }).toEqual({
      runs: null,
      range: null,
      days: null,
      near: null,
    });
    expect(asked.text).toContain('(95% CI unbounded with 3 runs): not enough runs to project (3 of 10)');
    expect(asked.text).not.toContain('crosses');
    expect(tests(asked.all).filter((x) => x.listedFor.includes('near-limit'))).toEqual([]);
    const html = readFileSync(pageOf(three, kind, 'history.html'), 'utf8');
    expect(html).not.toMatch(/<span class="badge [a-z]+">(near its limit|at its limit|crosses in)/);
    expect(html).toContain('No test was flaky or near its limit in the window');
    expect(html).toMatch(/<span class="count">0<\/span><span class="label">near their limit/);
  });

  it('the PostgreSQL store gives the same answers as the embedded store', () => {
    expectSameAnswers(seen.three);
  });

  it('are drawn on an axis that fits them: points above the zero line, the 5 s limit marked above the chart', async () => {
    const page = await layout(pageOf(three, 'embedded', 'match.html'));
    expect(page.messages).toEqual([]);
    expect(page.points).toHaveLength(3);
    for (const p of page.points) expect(p!.y + p!.height / 2).toBeLessThan(page.zero!.y - 10);
    // The axis fits the slowest run (at most about twice it): that point sits in the upper part of the chart.
    const highest = Math.min(...page.points.map((p) => p!.y + p!.height / 2));
    expect(page.zero!.y - highest).toBeGreaterThan(60);
    expect(page.limit).toBeNull();
    expect(page.marker).not.toBeNull();
    expect(page.markerText).toContain('limit 5.00 s (above the chart)');
  });
});

describe('twelve runs of a test 100 ms slower each time', () => {
  beforeAll(setUpTwelve, 300_000);

  it.each(KINDS)(
    'project a crossing with its range, and the test is near its limit by that projection (%s store)',
    (kind) => {
      const asked = seen.twelve[kind];
      const t = tests(asked.match)[0]!;
      expect(t.trendMsPerRun).toBe(100);
      expect(t.trendMsPerRunBounds).toEqual([100, 100]);
      // Level 2000 + 11 * 100 = 3100 ms: 1,900 ms below the 5 s limit at 100 ms a run.
      expect(t.runsToLimit).toBe(19);
      expect(t.runsToLimitRange).toEqual([19, 19]);
      expect(t.daysToLimit).toBeNull();
      expect(t.nearLimit).toBe('crossing');
      expect(tests(asked.all).map((x) => [x.fullName, x.listedFor])).toEqual([['sync > uploads', ['near-limit']]]);
      const html = readFileSync(pageOf(twelve, kind, 'history.html'), 'utf8');
      expect(html).toContain('+100ms a run (95% CI +100ms to +100ms): crosses in about 19 runs');
      expect(html).toContain('crosses in ~19 runs');
      expect(html).toMatch(/<span class="count">1<\/span><span class="label">near their limit/);
      expect(html.match(/<path class="run failed" data-state="failed"/g)).toHaveLength(1);
    },
  );

  it('the PostgreSQL store gives the same answers as the embedded store', () => {
    expectSameAnswers(seen.twelve);
  });

  it('are drawn with the limit line in range, every point above the zero line and below the limit, the failed run a cross', async () => {
    const page = await layout(pageOf(twelve, 'embedded', 'history.html'));
    expect(page.messages).toEqual([]);
    expect(page.points).toHaveLength(11);
    expect(page.limit).not.toBeNull();
    expect(page.marker).toBeNull();
    for (const p of page.points) {
      const cy = p!.y + p!.height / 2;
      expect(cy).toBeLessThan(page.zero!.y - 10);
      expect(cy).toBeGreaterThan(page.limit!.y);
    }
  });
});
