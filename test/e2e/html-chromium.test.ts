/**
 * The HTML reports in a real headless Chromium (Debian's `chromium` package): each page loads with
 * no console message at all (the pages have no script, so any message is an error: a blocked
 * request, a parse problem), the DOM Chromium builds has the chart with one series per test, and a
 * screenshot shows it (decoded here: size, many colours, and the chart's own colours present).
 */
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { inflateSync } from 'node:zlib';
import { execa } from 'execa';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { renderGateHtml } from '../../src/core/html/html-gate.js';
import { TONE_COLOURS } from '../../src/core/html/html-style.js';
import { renderTriageHtml } from '../../src/core/html/html-triage.js';
import { writeHtmlReport } from '../../src/io/files/html-file.js';
import { makeGateReport, makeTriageReport, WARN_AT } from '../core/html/html-factories.js';

const CHROMIUM = '/usr/bin/chromium';
const LAUNCH_TIMEOUT_MS = 60_000;
let dir = '';

function requireChromium(): void {
  if (!existsSync(CHROMIUM)) {
    throw new Error(`${CHROMIUM} not found: the HTML report tests need a real Chromium; install it with apt-get install chromium (Debian's chromium package)`);
  }
}

interface Launch {
  readonly stdout: string;
  readonly console: string[];
  readonly stderr: string;
}

/** One bounded Chromium run in its own process group, always killed (the whole group) afterwards. */
async function chromium(args: readonly string[], url: string): Promise<Launch> {
  requireChromium();
  const profile = mkdtempSync(path.join(dir, 'profile-'));
  const child = execa(
    CHROMIUM,
    [
      '--headless',
      '--no-sandbox',
      '--disable-gpu',
      '--disable-quic',
      '--no-first-run',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--disable-extensions',
      '--hide-scrollbars',
      `--user-data-dir=${profile}`,
      '--enable-logging=stderr',
      '--v=0',
      ...args,
      url,
    ],
    { detached: true, timeout: LAUNCH_TIMEOUT_MS, reject: false, stdin: 'ignore', maxBuffer: 64 * 1024 * 1024 },
  );
  try {
    const result = await child;
    if (result.timedOut) throw new Error(`chromium did not finish within ${LAUNCH_TIMEOUT_MS} ms: ${args.join(' ')}`);
    const stderr = String(result.stderr);
    const console = stderr.split('\n').filter((l) => /:CONSOLE[:(]\d+\)?\]/.test(l));
    return { stdout: String(result.stdout), console, stderr };
  } finally {
    if (child.pid !== undefined) {
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // the group is already gone
      }
    }
    // Killed processes leave /proc a moment later: wait up to 5 s, then none may be left.
    for (let i = 0; i < 50 && processesUsing(profile).length > 0; i += 1) await new Promise((r) => setTimeout(r, 100));
    expect(processesUsing(profile)).toEqual([]);
  }
}

/** Pids of processes whose command line names `needle` (our own Chromium's profile folder). */
function processesUsing(needle: string): number[] {
  const pids: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').includes(needle)) pids.push(Number(entry));
    } catch {
      // exited meanwhile
    }
  }
  return pids;
}

interface Png {
  readonly width: number;
  readonly height: number;
  readonly rgb: (x: number, y: number) => [number, number, number];
}

/** A minimal PNG decoder (8-bit RGB/RGBA, not interlaced: what Chromium writes). */
function decodePng(buf: Buffer): Png {
  expect(buf.subarray(0, 8).equals(Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]))).toBe(true);
  let offset = 8;
  let width = 0;
  let height = 0;
  let channels = 0;
  const idat: Buffer[] = [];
  while (offset < buf.length) {
    const length = buf.readUInt32BE(offset);
    const type = buf.toString('latin1', offset + 4, offset + 8);
    const data = buf.subarray(offset + 8, offset + 8 + length);
    if (type === 'IHDR') {
      width = data.readUInt32BE(0);
      height = data.readUInt32BE(4);
      expect({ depth: data[8], interlace: data[12] }).toEqual({ depth: 8, interlace: 0 });
      channels = data[9] === 6 ? 4 : data[9] === 2 ? 3 : 0;
      expect(channels).toBeGreaterThan(0);
    } else if (type === 'IDAT') idat.push(data);
    offset += 12 + length;
  }
  const raw = inflateSync(Buffer.concat(idat));
  const stride = width * channels;
  const out = Buffer.alloc(height * stride);
  for (let y = 0; y < height; y += 1) {
    const filter = raw[y * (stride + 1)];
    for (let i = 0; i < stride; i += 1) {
      const x = raw[y * (stride + 1) + 1 + i] ?? 0;
      const a = i >= channels ? (out[y * stride + i - channels] ?? 0) : 0;
      const b = y > 0 ? (out[(y - 1) * stride + i] ?? 0) : 0;
      const c = y > 0 && i >= channels ? (out[(y - 1) * stride + i - channels] ?? 0) : 0;
      const p = a + b - c;
      const pa = Math.abs(p - a);
      const pb = Math.abs(p - b);
      const pc = Math.abs(p - c);
      const paeth = pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
      const add = filter === 0 ? 0 : filter === 1 ? a : filter === 2 ? b : filter === 3 ? (a + b) >> 1 : paeth;
      out[y * stride + i] = (x + add) & 0xff;
    }
  }
  return { width, height, rgb: (x, y) => [out[y * stride + x * channels] ?? 0, out[y * stride + x * channels + 1] ?? 0, out[y * stride + x * channels + 2] ?? 0] };
}

const hex = (colour: string): string => colour.toLowerCase();
const toHex = ([r, g, b]: [number, number, number]): string => `#${[r, g, b].map((v) => v.toString(16).padStart(2, '0')).join('')}`;

/** Counts of each colour over every pixel. */
function colourCounts(png: Png): Map<string, number> {
  const counts = new Map<string, number>();
  for (let y = 0; y < png.height; y += 1) {
    for (let x = 0; x < png.width; x += 1) {
      const key = toHex(png.rgb(x, y));
      counts.set(key, (counts.get(key) ?? 0) + 1);
    }
  }
  return counts;
}

async function screenshot(file: string, name: string): Promise<{ png: Png; counts: Map<string, number>; launch: Launch }> {
  const shot = path.join(dir, `${name}.png`);
  const launch = await chromium([`--screenshot=${shot}`, '--window-size=1200,1600'], pathToFileURL(file).href);
  expect(existsSync(shot), launch.stderr).toBe(true);
  const keep = process.env.FLAKEGUARD_KEEP_SCREENSHOTS;
  if (keep) {
    mkdirSync(keep, { recursive: true });
    copyFileSync(shot, path.join(keep, `${name}.png`));
  }
  expect(statSync(shot).size).toBeGreaterThan(40_000);
  const png = decodePng(readFileSync(shot));
  expect({ width: png.width, height: png.height }).toEqual({ width: 1200, height: 1600 });
  const counts = colourCounts(png);
  const top = Math.max(...counts.values());
  expect(top / (png.width * png.height)).toBeLessThan(0.9);
  expect(counts.size).toBeGreaterThan(100);
  return { png, counts, launch };
}

beforeAll(() => {
  dir = mkdtempSync(path.join(tmpdir(), 'fg-html-chromium-'));
});
afterAll(() => {
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe('HTML reports in headless Chromium', () => {
  it('the console check sees what it must: console.error, an uncaught error and a blocked request', async () => {
    const probe = path.join(dir, 'probe.html');
    writeFileSync(
      probe,
      `<!DOCTYPE html><meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'"><img src="https://example.invalid/x.png"><script>console.error('fg-probe-error'); missingFunction();</script>`,
    );
    const launch = await chromium(['--dump-dom'], pathToFileURL(probe).href);
    expect(launch.console.some((l) => l.includes('fg-probe-error'))).toBe(true);
    expect(launch.console.some((l) => l.includes('missingFunction is not defined'))).toBe(true);
    expect(launch.console.some((l) => l.includes('violates the following Content Security Policy'))).toBe(true);
  });

  it('the gate report: no console message, one chart series per test, the chart in the screenshot', async () => {
    const report = makeGateReport();
    const file = writeHtmlReport(path.join(dir, 'gate.html'), renderGateHtml(report, { warnAt: WARN_AT }));
    const dom = await chromium(['--dump-dom'], pathToFileURL(file).href);
    expect(dom.console).toEqual([]);
    expect([...dom.stdout.matchAll(/<svg class="try-chart"/g)]).toHaveLength(1);
    expect([...dom.stdout.matchAll(/<g class="series"/g)]).toHaveLength(report.tests.length);
    expect([...dom.stdout.matchAll(/<rect class="try /g)]).toHaveLength(report.tests.reduce((n, t) => n + t.durationsMs.length, 0));
    expect(dom.stdout).not.toMatch(/<script|<img/i);
    expect(dom.stdout).toContain('parser &gt; handles "&lt;script&gt;alert(1)&lt;/script&gt;" &amp;');

    const { counts, launch } = await screenshot(file, 'gate');
    expect(launch.console).toEqual([]);
    // The chart's bars: green passing tries, orange near-budget tries, red limit lines and over-budget tries.
    expect(counts.get(hex(TONE_COLOURS.good)) ?? 0).toBeGreaterThan(2000);
    expect(counts.get('#f08c00') ?? 0).toBeGreaterThan(2000);
    expect(counts.get(hex(TONE_COLOURS.bad)) ?? 0).toBeGreaterThan(2000);
  });

  it('the triage report: no console message, every finding, the class bar in the screenshot', async () => {
    const report = makeTriageReport();
    const file = writeHtmlReport(path.join(dir, 'triage.html'), renderTriageHtml(report));
    const dom = await chromium(['--dump-dom'], pathToFileURL(file).href);
    expect(dom.console).toEqual([]);
    expect([...dom.stdout.matchAll(/<article class="card /g)]).toHaveLength(report.findings.length);
    expect(dom.stdout).toContain('class="classbar"');
    expect(dom.stdout).not.toMatch(/<script|<img|<b>bold/i);

    const { counts, launch } = await screenshot(file, 'triage');
    expect(launch.console).toEqual([]);
    for (const c of [TONE_COLOURS.warn, TONE_COLOURS.bad, TONE_COLOURS.info, TONE_COLOURS.accent]) expect(counts.get(hex(c)) ?? 0).toBeGreaterThan(1000);
  });
});
