/**
 * The history page from the built CLI over a store with known runs, checked by its structure (one
 * card per listed test, one point per run, failed runs as crosses, runs over the limit drawn above
 * the limit line, nothing that could reach the network) and in a real headless Chromium (from npm,
 * test/helpers/browser.ts): no console message, page error or failed request, and the chart's
 * points and limit line laid out as drawn.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeRecord } from '../core/history/history-factories.js';
import { launchBrowser } from '../helpers/browser.js';
import { createFixture, type Fixture } from '../helpers/fixture.js';
import { seedHistoryStore } from '../helpers/history-template.js';
import { flakeguardInProcess } from '../helpers/in-process-cli.js';

const DAY = 86_400_000;
let fx: Fixture;
let html: string;

beforeAll(async () => {
  fx = await createFixture({ files: { 'flakeguard.yaml': 'history: true\n' } });
  seedHistoryStore(fx.root);
  const end = Date.now() - DAY;
  for (let i = 0; i < 12; i += 1) {
    const record = makeRecord({
      runId: `run-${String(i).padStart(2, '0')}`,
      startedAt: new Date(end - (11 - i) * DAY).toISOString(),
      commit: `c${i}`,
      tests: [
        // Creeping up 100 ms a day toward its 5 s limit; over it on the last two runs; failed on run 4.
        {
          file: 'test/tracker.test.ts',
          name: 'tracker > reloads <journal>',
          durationMs: 4050 + 100 * i,
          state: i === 4 ? 'failed' : 'passed',
        },
        { file: 'test/steady.test.ts', name: 'steady', durationMs: 20 },
      ],
    });
    fx.write(`artifacts/${record.runId}.json`, JSON.stringify(record));
  }
  const ingest = await flakeguardInProcess(fx, ['history', 'ingest', 'artifacts']);
  expect(ingest.exitCode, ingest.output).toBe(0);
  const page = await flakeguardInProcess(fx, ['history', '--test', 'tracker', '--html', 'history.html']);
  expect(page.exitCode, page.output).toBe(0);
  html = readFileSync(path.join(fx.root, 'history.html'), 'utf8');
});
afterAll(() => fx?.remove());

const attr = (tag: string, name: string): number => Number(new RegExp(`${name}="([\\d.]+)"`).exec(tag)?.[1]);

describe('the history page', () => {
  it('has one card for the matching test, its name escaped, and its figures', () => {
    const cards = html.match(/<article class="card [a-z]+ history-test" data-test="[^"]*"/g) ?? [];
    expect(cards).toEqual([
      expect.stringContaining('data-test="test/tracker.test.ts::tracker &gt; reloads &lt;journal&gt;"'),
    ]);
    expect(html).not.toContain('<journal>');
    expect(html).toMatch(/1 of 12 runs flaky|0 of 12 runs flaky/);
    expect(html).toContain('+100ms a day');
  });

  it('draws a point per run, the failed run as a cross, and the runs over the limit above its line', () => {
    const circles = html.match(/<circle class="run [a-z]+" data-state="passed"[^>]*>/g) ?? [];
    const crosses = html.match(/<path class="run failed" data-state="failed"/g) ?? [];
    expect(circles).toHaveLength(11);
    expect(crosses).toHaveLength(1);
    const limit = /<line class="limit" [^>]*y1="([\d.]+)"/.exec(html);
    const limitY = Number(limit?.[1]);
    const over = circles.filter((c) => c.includes('class="run over"'));
    expect(over).toHaveLength(2);
    for (const c of over) expect(attr(c, 'cy')).toBeLessThan(limitY);
    for (const c of circles.filter((x) => !x.includes('class="run over"')))
      expect(attr(c, 'cy')).toBeGreaterThan(limitY);
    const xs = circles.map((c) => attr(c, 'cx'));
    expect(xs).toEqual([...xs].sort((a, b) => a - b));
  });

  it('is self-contained: a policy that blocks the network, no external reference', () => {
    expect(html).toMatch(/<meta http-equiv="Content-Security-Policy" content="default-src &#39;none&#39;/);
    expect(html).not.toMatch(/(?:src|href)="https?:/);
    expect(html).not.toContain('<script');
  });

  it('loads in a real Chromium with no console message, page error or failed request, the chart laid out', async () => {
    const { browser } = await launchBrowser();
    try {
      const context = await browser.newContext({ viewport: { width: 1200, height: 1600 }, offline: true });
      const page = await context.newPage();
      const messages: string[] = [];
      page.on('console', (m) => messages.push(`console.${m.type()}: ${m.text()}`));
      page.on('pageerror', (e) => messages.push(`page error: ${e.message}`));
      page.on('requestfailed', (r) => messages.push(`request failed: ${r.url()}`));
      await page.goto(pathToFileURL(path.join(fx.root, 'history.html')).href, { waitUntil: 'load' });
      expect(messages).toEqual([]);
      expect(await page.locator('article.history-test').count()).toBe(1);
      expect(await page.locator('circle.run[data-state="passed"]').count()).toBe(11);
      expect(await page.locator('path.run.failed').count()).toBe(1);
      const limit = await page.locator('line.limit').first().boundingBox();
      const over = await page.locator('circle.run.over').first().boundingBox();
      expect(limit && over ? over.y < limit.y : false).toBe(true);
      await context.close();
    } finally {
      await browser.close();
    }
  });
});
