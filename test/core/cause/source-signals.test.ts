import { describe, expect, it } from 'vitest';
import { lines, signalsOf } from './source-signal-helpers.js';

const head = "import { describe, expect, it, vi } from 'vitest';";

describe('findSourceSignals', () => {
  it('a real setTimeout wait before an assertion, on its line', () => {
    const code = lines(
      head,
      "it('it works', async () => {",
      '  start();',
      '  await new Promise((r) => setTimeout(r, 10));',
      '  expect(done).toBe(true);',
      '});',
    );
    expect(signalsOf(code)).toEqual([
      {
        line: 4,
        text: 'a real `setTimeout(10)` wait before an assertion: it waits a fixed time, not for the event',
        classes: ['timing'],
        fix: 'await the event instead of `setTimeout(10)`',
      },
    ]);
  });

  it('no sleep signal after the last assertion, with fake timers, or without a literal delay', () => {
    const after = lines(
      head,
      "it('it works', async () => {",
      '  expect(1).toBe(1);',
      '  setTimeout(cleanup, 10);',
      '});',
    );
    const fake = lines(
      head,
      'vi.useFakeTimers();',
      "it('it works', async () => {",
      '  setTimeout(f, 10);',
      '  expect(1).toBe(1);',
      '});',
    );
    const computed = lines(
      head,
      "it('it works', async () => {",
      '  setTimeout(f, delay);',
      '  expect(1).toBe(1);',
      '});',
    );
    for (const code of [after, fake, computed]) expect(signalsOf(code)).toEqual([]);
  });

  it('elapsed real time compared with a literal, directly or through expect', () => {
    const code = lines(
      head,
      "it('it works', () => {",
      '  const start = performance.now();',
      '  work();',
      '  const took = performance.now() - start;',
      '  expect(took).toBeLessThan(50);',
      '  expect(Date.now() - start < 100).toBe(true);',
      '});',
    );
    const found = signalsOf(code);
    expect(found.map((s) => [s.line, s.classes])).toEqual([
      [6, ['timing']],
      [7, ['timing']],
    ]);
    expect(found[0]?.text).toBe(
      "`expect(took).toBeLessThan(50)` compares elapsed real time with 50 ms: it passes or fails with the machine's speed",
    );
  });

  it('no elapsed signal for a count compared with a literal, or under fake timers', () => {
    const count = lines(
      head,
      "it('it works', () => {",
      '  const n = items.length - 1;',
      '  expect(n).toBeLessThan(5);',
      '});',
    );
    const fake = lines(
      head,
      'beforeEach(() => vi.useFakeTimers());',
      "it('it works', () => {",
      '  const start = Date.now();',
      '  expect(Date.now() - start).toBeLessThan(5);',
      '});',
    );
    expect(signalsOf(count)).toEqual([]);
    expect(signalsOf(fake)).toEqual([]);
  });

  it('new Date() and Date.now() read the real clock without fake timers', () => {
    const code = lines(
      head,
      "it('it works', () => {",
      '  expect(format(new Date())).toBe("x");',
      '  log(Date.now());',
      '});',
    );
    expect(signalsOf(code).map((s) => [s.line, s.text])).toEqual([
      [3, '`new Date()` reads the real clock (no vi.useFakeTimers() in the file)'],
      [4, '`Date.now()` reads the real clock (no vi.useFakeTimers() in the file)'],
    ]);
    const fixed = lines(head, "it('it works', () => {", '  expect(format(new Date(2020, 1, 1))).toBe("x");', '});');
    const faked = lines(
      head,
      'vi.setSystemTime(0);',
      "it('it works', () => {",
      '  expect(format(new Date())).toBe("x");',
      '});',
    );
    expect(signalsOf(fixed)).toEqual([]);
    expect(signalsOf(faked)).toEqual([]);
  });

  it('Math.random without a seed; none when the file mocks it', () => {
    const code = lines(
      head,
      "it('it works', () => {",
      '  const pick = Math.random() > 0.5;',
      '  expect(pick).toBe(true);',
      '});',
    );
    expect(signalsOf(code)).toEqual([
      {
        line: 3,
        text: '`Math.random()` without a seed: every run draws other values',
        classes: ['random-or-concurrency'],
        fix: 'seed the generator (or inject the random source) instead of `Math.random()`',
      },
    ]);
    const mocked = lines(head, "vi.spyOn(Math, 'random').mockReturnValue(0.1);", code.split('\n').slice(1).join('\n'));
    expect(signalsOf(mocked)).toEqual([]);
  });

  it('module-level state written by a test, with the declaration line', () => {
    const code = lines(
      head,
      'let count = 0;',
      'const seen = [];',
      "it('it works', () => {",
      '  count++;',
      '  seen.push(1);',
      '  expect(count).toBe(1);',
      '});',
    );
    expect(signalsOf(code).map((s) => [s.line, s.classes, s.fix])).toEqual([
      [5, ['order'], 'reset `count` in beforeEach (or declare it inside the test)'],
      [6, ['order'], 'reset `seen` in beforeEach (or declare it inside the test)'],
    ]);
    expect(signalsOf(code)[0]?.text).toContain('declared at line 2');
  });

  it('no module-state signal when beforeEach resets it, when shadowed, for a read, a plain replacement, or a cleanup registry', () => {
    const reset = lines(
      head,
      'let count = 0;',
      'beforeEach(() => { count = 0; });',
      "it('it works', () => {",
      '  count++;',
      '});',
    );
    const shadow = lines(head, 'let count = 0;', "it('it works', () => {", '  let count = 1;', '  count++;', '});');
    const read = lines(
      head,
      'let count = 0;',
      'const limits = [1];',
      "it('it works', () => {",
      '  expect(count + limits[0]).toBe(1);',
      '});',
    );
    const replaced = lines(head, 'let server;', "it('it works', () => {", '  server = start();', '});');
    const registry = lines(
      head,
      'const open = [];',
      'afterAll(() => open.forEach(close));',
      "it('it works', () => {",
      '  open.push(start());',
      '});',
    );
    for (const code of [reset, shadow, read, replaced, registry]) expect(signalsOf(code)).toEqual([]);
  });

  it('fetch and http/net use; not a local function of another name', () => {
    const code = lines(
      "import http from 'node:http';",
      "import { connect } from 'net';",
      head,
      "it('it works', async () => {",
      '  const server = http.createServer();',
      '  connect(80);',
      '  const res = await fetch("http://localhost");',
      '  expect(res.ok).toBe(true);',
      '});',
    );
    expect(signalsOf(code).map((s) => [s.line, s.classes, s.fix])).toEqual([
      [
        5,
        ['network'],
        'listen on port 0 and read the port back, or mock the network, instead of `http.createServer()`',
      ],
      [6, ['network'], 'listen on port 0 and read the port back, or mock the network, instead of `connect()`'],
      [7, ['network'], 'listen on port 0 and read the port back, or mock the network, instead of `fetch()`'],
    ]);
    const local = lines(
      head,
      "it('it works', async () => {",
      '  const res = await load("x");',
      '  expect(res).toBe(1);',
      '});',
    );
    expect(signalsOf(local)).toEqual([]);
  });

  it('a promise nothing awaits: fetch or an async function of the file, as a statement', () => {
    const code = lines(
      head,
      'async function save() {}',
      "it('it works', async () => {",
      '  save();',
      '  expect(stored()).toBe(1);',
      '});',
    );
    expect(signalsOf(code)).toEqual([
      {
        line: 4,
        text: '`save()` returns a promise that nothing awaits: the test can assert or end before it settles',
        classes: ['random-or-concurrency'],
        fix: 'await `save()` (or return it)',
      },
    ]);
  });

  it('no unawaited signal when awaited, returned, voided, or called in a nested callback', () => {
    const fns = 'const save = async () => {};';
    const bodies = [
      '  await save();',
      '  return save();',
      '  void save();',
      '  items.forEach(() => { save(); });',
      '  sync();',
    ];
    for (const b of bodies) expect(signalsOf(lines(head, fns, "it('it works', async () => {", b, '});'))).toEqual([]);
  });

  it('reads only the named test body, strongest kind first', () => {
    const code = lines(
      head,
      "it('other', () => { Math.random(); });",
      "it('it works', async () => {",
      '  Math.random();',
      '  await new Promise((r) => setTimeout(r, 5));',
      '  expect(1).toBe(1);',
      '});',
    );
    expect(signalsOf(code).map((s) => s.line)).toEqual([5, 4]);
  });
});
