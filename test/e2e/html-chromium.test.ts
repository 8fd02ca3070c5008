/**
 * The HTML reports in a real headless Chromium (from npm, see test/helpers/browser.ts): each page
 * loads with no console message, no page error and no failed request (the pages have no script, so
 * any message is an error: a blocked request, a parse problem), the DOM Chromium builds has the chart
 * with one series per test, and a screenshot shows it (decoded by Chromium itself on a canvas: many
 * colours, and the chart's own colours present).
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderGateHtml } from '../../src/core/html/html-gate.js';
import { TONE_COLOURS } from '../../src/core/html/html-style.js';
import { renderTriageHtml } from '../../src/core/html/html-triage.js';
import { writeHtmlReport } from '../../src/io/files/html-file.js';
import { makeGateReport, makeTriageReport, WARN_AT } from '../core/html/html-factories.js';
import { type Browser, launchBrowser } from '../helpers/browser.js';

const VIEWPORT = { width: 1200, height: 1600 };
let dir = '';
let browser: Browser | undefined;

interface Visit {
  readonly page: Page;
  /** Every console message, page error and failed request, in order. */
  readonly messages: string[];
}

async function visit(file: string): Promise<Visit> {
  if (!browser) throw new Error('the browser did not start (see beforeAll)');
  // Each page in a context of its own: nothing shared with the page before.
  const context = await browser.browser.newContext({ viewport: VIEWPORT, offline: true });
  const page = await context.newPage();
  const messages: string[] = [];
  page.on('console', (m) => messages.push(`console.${m.type()}: ${m.text()}`));
  page.on('pageerror', (e) => messages.push(`page error: ${e.message}`));
  page.on('requestfailed', (r) => messages.push(`request failed: ${r.url()} (${r.failure()?.errorText ?? '?'})`));
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' });
  return { page, messages };
}

interface Shot {
  readonly width: number;
  readonly height: number;
  /** Pixel count per colour (`#rrggbb`). */
  readonly counts: Map<string, number>;
}

/**
 * A screenshot of the page, decoded by Chromium itself (an image drawn on a canvas). The `load`
 * event says the document is parsed, not that Chromium has drawn it: on a busy machine the renderer
 * may not have handed its first frame to the compositor yet, and a capture then copies from a surface
 * that has nothing in it, which Chromium reports as "Page.captureScreenshot: Unable to capture
 * screenshot". Two animation frames after load, a frame of the loaded page has been produced.
 */
async function screenshot(page: Page, name: string): Promise<Shot> {
  await page.evaluate(
    'new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(() => resolve(true))))',
  );
  const png = await page.screenshot({ type: 'png' });
  const keep = process.env.FLAKEGUARD_KEEP_SCREENSHOTS;
  if (keep) {
    mkdirSync(keep, { recursive: true });
    writeFileSync(path.join(keep, `${name}.png`), png);
  }
  if (!browser) throw new Error('the browser did not start (see beforeAll)');
  const decoding = await browser.browser.newContext();
  const decoder = await decoding.newPage();
  try {
    const decoded = (await decoder.evaluate(`(async () => {
      const img = new Image();
      img.src = 'data:image/png;base64,${png.toString('base64')}';
      await img.decode();
      const canvas = document.createElement('canvas');
      canvas.width = img.naturalWidth;
      canvas.height = img.naturalHeight;
      const g = canvas.getContext('2d', { colorSpace: 'srgb' });
      g.drawImage(img, 0, 0);
      const data = g.getImageData(0, 0, canvas.width, canvas.height).data;
      const counts = {};
      for (let i = 0; i < data.length; i += 4) {
        const key = '#' + [data[i], data[i + 1], data[i + 2]].map((v) => v.toString(16).padStart(2, '0')).join('');
        counts[key] = (counts[key] || 0) + 1;
      }
      return { width: canvas.width, height: canvas.height, counts };
    })()`)) as { width: number; height: number; counts: Record<string, number> };
    return { width: decoded.width, height: decoded.height, counts: new Map(Object.entries(decoded.counts)) };
  } finally {
    await decoding.close();
  }
}

function expectAPicture(shot: Shot): void {
  expect({ width: shot.width, height: shot.height }).toEqual(VIEWPORT);
  const top = Math.max(...shot.counts.values());
  expect(top / (shot.width * shot.height)).toBeLessThan(0.9);
  expect(shot.counts.size).toBeGreaterThan(100);
}

const hex = (colour: string): string => colour.toLowerCase();

beforeAll(async () => {
  dir = mkdtempSync(path.join(tmpdir(), 'fg-html-chromium-'));
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.browser.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('HTML reports in headless Chromium', () => {
  it('the message check sees what it must: console.error, an uncaught error and a blocked request', async () => {
    const probe = path.join(dir, 'probe.html');
    writeFileSync(
      probe,
      `<!DOCTYPE html><meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'"><img src="https://example.invalid/x.png"><script>console.error('fg-probe-error'); missingFunction();</script>`,
    );
    const { page, messages } = await visit(probe);
    await page.context().close();
    expect(messages.some((l) => l.includes('console.error: fg-probe-error'))).toBe(true);
    expect(messages.some((l) => l.startsWith('page error:') && l.includes('missingFunction is not defined'))).toBe(
      true,
    );
    expect(messages.some((l) => l.includes('violates the following Content Security Policy'))).toBe(true);
    expect(messages.some((l) => l.startsWith('request failed: https://example.invalid/x.png'))).toBe(true);
  });

  it('the gate report: no message, one chart series per test, the chart in the screenshot', async () => {
    const report = makeGateReport();
    const file = writeHtmlReport(path.join(dir, 'gate.html'), renderGateHtml(report, { warnAt: WARN_AT }));
    const { page, messages } = await visit(file);
    expect(await page.locator('svg.try-chart').count()).toBe(1);
    expect(await page.locator('svg.try-chart g.series').count()).toBe(report.tests.length);
    expect(await page.locator('svg.try-chart rect.try').count()).toBe(
      report.tests.reduce((n, t) => n + t.tries.length, 0),
    );
    expect(await page.locator('script, img').count()).toBe(0);
    expect(await page.locator('body').textContent()).toContain('parser > handles "<script>alert(1)</script>" &');
    expect(await page.content()).toContain('parser &gt; handles "&lt;script&gt;alert(1)&lt;/script&gt;" &amp;');

    const shot = await screenshot(page, 'gate');
    await page.context().close();
    expect(messages).toEqual([]);
    expectAPicture(shot);
    // The chart's bars: green passing tries, orange near-budget tries, red limit lines and over-budget tries.
    expect(shot.counts.get(hex(TONE_COLOURS.good)) ?? 0).toBeGreaterThan(2000);
    expect(shot.counts.get('#f08c00') ?? 0).toBeGreaterThan(2000);
    expect(shot.counts.get(hex(TONE_COLOURS.bad)) ?? 0).toBeGreaterThan(2000);
  });

  it('the triage report: no message, every finding, the class bar in the screenshot', async () => {
    const report = makeTriageReport();
    const file = writeHtmlReport(path.join(dir, 'triage.html'), renderTriageHtml(report));
    const { page, messages } = await visit(file);
    expect(await page.locator('article.card').count()).toBe(report.findings.length);
    expect(await page.locator('.classbar').count()).toBeGreaterThan(0);
    expect(await page.locator('script, img').count()).toBe(0);
    expect(await page.content()).not.toMatch(/<b>bold/i);

    const shot = await screenshot(page, 'triage');
    await page.context().close();
    expect(messages).toEqual([]);
    expectAPicture(shot);
    for (const c of [TONE_COLOURS.warn, TONE_COLOURS.bad, TONE_COLOURS.info, TONE_COLOURS.accent])
      expect(shot.counts.get(hex(c)) ?? 0).toBeGreaterThan(1000);
  });
});
