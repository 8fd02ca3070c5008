import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { lines, signalsOf } from './source-signal-helpers.js';

const head = "import { expect, it, vi } from 'vitest';";

describe('source signals through helpers the test file defines', () => {
  it('a sleep helper: the call with a literal delay is the wait, on the call line, naming the helper', () => {
    const code = lines(
      head,
      'const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));',
      "it('it works', async () => {",
      '  start();',
      '  await sleep(50);',
      '  expect(done()).toBe(true);',
      '});',
    );
    expect(signalsOf(code)).toEqual([
      {
        line: 5,
        text: 'a real `sleep(50)` wait (`sleep` at line 2 waits with setTimeout) before an assertion: it waits a fixed time, not for the event',
        classes: ['timing'],
        fix: 'await the event instead of `sleep(50)`',
      },
    ]);
  });

  it('function declarations, async bodies, default delays, fixed delays and a helper built on a helper', () => {
    const code = lines(
      head,
      'function wait(ms = 20) {',
      '  return new Promise<void>((resolve) => { setTimeout(() => resolve(), ms); });',
      '}',
      'async function settle() { await new Promise((r) => setTimeout(r, 15)); }',
      'const tick = () => wait(5);',
      "it('it works', async () => {",
      '  await wait();',
      '  await settle();',
      '  await tick();',
      '  expect(1).toBe(1);',
      '});',
    );
    expect(signalsOf(code).map((s) => [s.line, s.fix])).toEqual([
      [8, 'await the event instead of `wait(20)`'],
      [9, 'await the event instead of `settle(15)`'],
      [10, 'await the event instead of `tick(5)`'],
    ]);
  });

  it('no sleep signal for a helper that only contains a setTimeout, a computed delay, fake timers, or after the last assertion', () => {
    const retry = lines(
      head,
      'function startServer() { const s = listen(); setTimeout(() => s.retry(), 100); return s; }',
      "it('it works', async () => {",
      '  startServer();',
      '  expect(1).toBe(1);',
      '});',
    );
    const sleep = 'const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));';
    const computed = lines(
      head,
      sleep,
      "it('it works', async () => {",
      '  await sleep(delay);',
      '  expect(1).toBe(1);',
      '});',
    );
    const fake = lines(
      head,
      sleep,
      'vi.useFakeTimers();',
      "it('it works', async () => {",
      '  await sleep(10);',
      '  expect(1).toBe(1);',
      '});',
    );
    const after = lines(
      head,
      sleep,
      "it('it works', async () => {",
      '  expect(1).toBe(1);',
      '  await sleep(10);',
      '});',
    );
    for (const code of [retry, computed, fake, after]) expect(signalsOf(code)).toEqual([]);
  });

  it('clock and elapsed helpers: elapsed time from them compared with a literal', () => {
    const code = lines(
      head,
      'const now = () => performance.now();',
      'function since(t: number) { return Date.now() - t; }',
      "it('it works', () => {",
      '  const t0 = now();',
      '  work();',
      '  expect(now() - t0).toBeLessThan(100);',
      '  expect(since(t0)).toBeLessThan(200);',
      '  const took = since(t0);',
      '  expect(took < 300).toBe(true);',
      '});',
    );
    expect(signalsOf(code).map((s) => [s.line, s.classes])).toEqual([
      [7, ['timing']],
      [8, ['timing']],
      [10, ['timing']],
    ]);
  });
});

// Every word a name cannot be in a module (keywords, strict-mode reserved words, literals) and the
// names the generated file uses itself: a generated name among them makes a file that does not parse.
const RESERVED = new Set(
  (
    'break case catch class const continue debugger default delete do else enum export extends false ' +
    'finally for function if import in instanceof new null return super switch this throw true try typeof ' +
    'var void while with yield let static implements interface package private protected public await ' +
    'arguments eval undefined expect it vi describe test setTimeout r'
  ).split(' '),
);
const nameArb = fc.stringMatching(/^[a-z][a-zA-Z]{0,8}$/).filter((n) => !RESERVED.has(n));

describe('property: a sleep helper is followed to its call (parsed, never executed)', () => {
  it('the sleep signal is on the call line and names the call, however the file is laid out', () => {
    fc.assert(
      fc.property(
        nameArb,
        fc.integer({ min: 0, max: 60_000 }),
        fc.nat({ max: 5 }),
        fc.nat({ max: 5 }),
        fc.boolean(),
        (name, ms, gapBefore, gapInside, declaration) => {
          const helper = declaration
            ? `function ${name}(d: number) { return new Promise((r) => setTimeout(r, d)); }`
            : `const ${name} = (d: number) => new Promise((r) => setTimeout(r, d));`;
          const code = lines(
            head,
            helper,
            ...Array(gapBefore).fill('// padding'),
            "it('it works', async () => {",
            ...Array(gapInside).fill('  work();'),
            `  await ${name}(${ms});`,
            '  expect(1).toBe(1);',
            '});',
          );
          const callLine = 2 + gapBefore + 1 + gapInside + 1;
          const sleeps = signalsOf(code).filter((s) => s.text.startsWith('a real'));
          expect(sleeps.map((s) => [s.line, s.fix])).toEqual([
            [callLine, `await the event instead of \`${name}(${ms})\``],
          ]);
        },
      ),
    );
  });

  it('a helper gives the same kind of signal as the setTimeout written inline, and none once the file fakes timers', () => {
    fc.assert(
      fc.property(nameArb, fc.integer({ min: 0, max: 5000 }), fc.boolean(), (name, ms, fake) => {
        const body = (wait: string): string =>
          lines(
            head,
            `const ${name} = (d: number) => new Promise((r) => setTimeout(r, d));`,
            fake ? 'vi.useFakeTimers();' : '// real timers',
            "it('it works', async () => {",
            `  ${wait};`,
            '  expect(1).toBe(1);',
            '});',
          );
        const viaHelper = signalsOf(body(`await ${name}(${ms})`));
        const inline = signalsOf(body(`await new Promise((r) => setTimeout(r, ${ms}))`));
        expect(viaHelper.map((s) => [s.line, s.classes])).toEqual(inline.map((s) => [s.line, s.classes]));
        expect(viaHelper.length).toBe(fake ? 0 : 1);
      }),
    );
  });
});
