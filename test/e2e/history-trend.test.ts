/**
 * Trends that claim only what their runs back, end to end on the built reporter and CLI: three real
 * Vitest runs of a fast test give a slope with no bound, no projection and no "near its limit";
 * twelve runs of a test 100 ms slower each time (records ingested, the path the reporter's own
 * records take) project a crossing with its range. Both pages are checked in a real headless
 * Chromium (test/helpers/browser.ts): the points sit above the zero line, the limit is drawn when in
 * range and marked above the chart when not.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRecord } from '../core/history/history-factories.js';
import { type Browser, launchBrowser } from '../helpers/browser.js';
import { createFixture, type Fixture, vitestConfigWithReporter } from '../helpers/fixture.js';

interface JsonTest {
  readonly name: string;
  readonly trendMsPerRun: number | null;
  readonly trendMsPerRunBounds: [number | null, number | null] | null;
  readonly runsToLimit: number | null;
  readonly runsToLimitRange: [number, number] | null;
  readonly daysToLimit: number | null;
  readonly nearLimit: string | null;
  readonly listedFor: string[];
}

let three: Fixture;
let twelve: Fixture;
let browser: Browser | undefined;
/** What the CLI printed, gathered once (each call opens the embedded store: seconds under load). */
const seen = { threeMatch: '', threeText: '', threeDefault: '', twelveMatch: '', twelveDefault: '' };

async function cli(fx: Fixture, args: readonly string[]): Promise<string> {
  const out = await fx.flakeguard(['history', ...args]);
  expect(out.exitCode, out.output).toBe(0);
  return out.stdout;
}

async function setUpThree(): Promise<void> {
  three = await createFixture({
    files: {
      'flakeguard.yaml': 'history: true\n',
      'vitest.config.ts': vitestConfigWithReporter(),
      // A fast test that takes a few milliseconds at least, so every run has a duration to draw.
      'test/fast.test.ts':
        "import { expect, test } from 'vitest';\ntest('adds', async () => {\n  await new Promise((r) => setTimeout(r, 20));\n  expect(1 + 1).toBe(2);\n});\n",
    },
  });
  for (let i = 0; i < 3; i += 1) {
    const run = await three.vitest([]);
    expect(run.exitCode, run.output).toBe(0);
    expect(run.output).toContain('run stored');
  }
  seen.threeMatch = await cli(three, ['--json', '--test', 'adds']);
  seen.threeText = await cli(three, ['--test', 'adds', '--html', 'adds.html']);
  seen.threeDefault = await cli(three, ['--json', '--html', 'history.html']);
}

async function setUpTwelve(): Promise<void> {
  twelve = await createFixture({ files: { 'flakeguard.yaml': 'history: true\n' } });
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
  await cli(twelve, ['ingest', 'artifacts']);
  seen.twelveMatch = await cli(twelve, ['--json', '--test', 'uploads']);
  seen.twelveDefault = await cli(twelve, ['--json', '--html', 'history.html']);
}

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.browser.close();
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

describe('trends from three real runs of a fast test', () => {
  // Three real Vitest runs and three CLI calls, each opening the embedded store: minutes under load.
  beforeAll(setUpThree, 300_000);

  it('give a slope with no bound, no projection, and no "near its limit"', () => {
    const [t, ...rest] = tests(seen.threeMatch);
    expect(rest).toEqual([]);
    expect(t!.trendMsPerRunBounds).toEqual([null, null]);
    expect({ runs: t!.runsToLimit, range: t!.runsToLimitRange, days: t!.daysToLimit, near: t!.nearLimit }).toEqual({
      runs: null,
      range: null,
      days: null,
      near: null,
    });
    expect(seen.threeText).toContain('(95% CI unbounded with 3 runs): not enough runs to project (3 of 10)');
    expect(seen.threeText).not.toContain('crosses');
    expect(tests(seen.threeDefault).filter((x) => x.listedFor.includes('near-limit'))).toEqual([]);
    const html = readFileSync(path.join(three.root, 'history.html'), 'utf8');
    expect(html).not.toMatch(/<span class="badge [a-z]+">(near its limit|at its limit|crosses in)/);
    expect(html).toContain('No test was flaky or near its limit in the window');
    expect(html).toMatch(/<span class="count">0<\/span><span class="label">near their limit/);
  });

  it('are drawn on an axis that fits them: points above the zero line, the 5 s limit marked above the chart', async () => {
    const page = await layout(path.join(three.root, 'adds.html'));
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

  it('project a crossing with its range, and the test is near its limit by that projection', () => {
    const t = tests(seen.twelveMatch)[0]!;
    expect(t.trendMsPerRun).toBe(100);
    expect(t.trendMsPerRunBounds).toEqual([100, 100]);
    // Level 2000 + 11 * 100 = 3100 ms: 1,900 ms below the 5 s limit at 100 ms a run.
    expect(t.runsToLimit).toBe(19);
    expect(t.runsToLimitRange).toEqual([19, 19]);
    expect(t.daysToLimit).toBeNull();
    expect(t.nearLimit).toBe('crossing');
    expect(tests(seen.twelveDefault).map((x) => [x.name, x.listedFor])).toEqual([['sync > uploads', ['near-limit']]]);
  });

  it('are drawn with the limit line in range, every point above the zero line and below the limit, the failed run a cross', async () => {
    const html = readFileSync(path.join(twelve.root, 'history.html'), 'utf8');
    expect(html).toContain('+100ms a run (95% CI +100ms to +100ms): crosses in about 19 runs');
    expect(html).toContain('crosses in ~19 runs');
    expect(html).toMatch(/<span class="count">1<\/span><span class="label">near their limit/);
    expect(html.match(/<path class="run failed" data-state="failed"/g)).toHaveLength(1);
    const page = await layout(path.join(twelve.root, 'history.html'));
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
