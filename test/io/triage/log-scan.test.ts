import { closeSync, mkdtempSync, openSync, rmSync, writeFileSync, writeSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compileLogMatcher } from '../../../src/core/triage/log-matcher.js';
import { mergeSignatures } from '../../../src/core/triage/triage-signatures.js';
import { scanLog } from '../../../src/io/triage/log-scan.js';

let dir: string;
beforeAll(() => {
  dir = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-logscan-'));
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const FILLER = ' \u001b[32m✓\u001b[39m test/unit/some-module.test.ts > renders the widget with props 12ms\n';

describe('scanLog', () => {
  it('finds a signature at the end of a 100 MB log with its line number, streaming', async () => {
    const file = path.join(dir, 'big.log');
    const fd = openSync(file, 'w');
    const block = FILLER.repeat(10_000);
    const linesPerBlock = 10_000;
    let lines = 0;
    let bytes = 0;
    writeSync(fd, 'npm error code ERESOLVE\n');
    lines += 1;
    while (bytes < 100 * 1024 * 1024) {
      writeSync(fd, block);
      bytes += Buffer.byteLength(block);
      lines += linesPerBlock;
    }
    writeSync(fd, 'Error: ENOSPC: no space left on device, write\n');
    lines += 1;
    writeSync(fd, 'the end');
    lines += 1;
    closeSync(fd);
    const matcher = compileLogMatcher(mergeSignatures([]));
    const before = process.memoryUsage().rss;
    const scan = await scanLog(file, matcher, 'big.log');
    const grown = (process.memoryUsage().rss - before) / 1024 / 1024;
    expect(scan.lines).toBe(lines);
    expect(scan.events.map((e) => [e.id, e.line])).toEqual([
      ['npm-install', 1],
      ['enospc', lines - 1],
    ]);
    expect(scan.tail.at(-1)).toEqual({ line: lines, text: 'the end' });
    expect(grown).toBeLessThan(200);
  });

  it('keeps hits and their context across chunk boundaries, and counts hits beyond the kept ones', async () => {
    const file = path.join(dir, 'boundary.log');
    const pad = 'x'.repeat((1 << 20) - 30);
    const hitLines = Array.from({ length: 60 }, (_, i) => `ECONNREFUSED 127.0.0.1:${5000 + i}`).join('\n');
    writeFileSync(
      file,
      `${pad}\n FAIL  t.test.ts > grp > adds [1+1] (edge)\n\nAssertionError: expected 2 to be 3\nmore\n${hitLines}\n`,
    );
    const scan = await scanLog(
      file,
      compileLogMatcher(
        mergeSignatures([
          { id: 'name', match: 'adds [1+1] (edge)', regex: false, class: 'escape', cause: 'c', action: 'a' },
        ]),
      ),
    );
    const fail = scan.events.find((e) => e.id === 'vitest:fail');
    expect(fail).toMatchObject({
      line: 2,
      after: ['AssertionError: expected 2 to be 3', 'more', 'ECONNREFUSED 127.0.0.1:5000'],
    });
    expect(scan.events.find((e) => e.id === 'name')?.line).toBe(2);
    expect(scan.counts['econnrefused']).toBe(60);
    expect(scan.events.filter((e) => e.id === 'econnrefused')).toHaveLength(50);
  });

  it('reads a log without a final newline and an empty log', async () => {
    const a = path.join(dir, 'a.log');
    writeFileSync(a, 'one\nsh: 1: tsc: not found');
    const scan = await scanLog(a, compileLogMatcher(mergeSignatures([])));
    expect(scan.events).toMatchObject([{ id: 'tsc-missing', line: 2, text: 'sh: 1: tsc: not found' }]);
    expect(scan.lines).toBe(2);
    const e = path.join(dir, 'e.log');
    writeFileSync(e, '');
    expect((await scanLog(e, compileLogMatcher([]))).lines).toBe(0);
  });
});
