import { describe, expect, it } from 'vitest';
import { isFlakeguardError } from '../../../src/core/errors.js';
import { extractTests } from '../../../src/core/source/test-source.js';

// Positions below are what `vitest list --includeTaskLocation` (4.1.12) printed for this file.
const FORMS = `import { describe, it, test, expect } from 'vitest';
const myTest = test.extend({ n: async ({}, use) => { await use(1); } });
describe('outer', () => {
  it('plain', () => {});
  it.skip('skipped', () => {});
  it.concurrent('conc', async () => {});
  it.each([1, 2])('each %s', (n) => { expect(n).toBeTruthy(); });
  test.for([[1, 2]])('for %s', ([a]) => { expect(a).toBe(1); });
  it.skipIf(false)('skipif', () => {});
  it.concurrent.skip('conc skip', () => {});
  describe.each(['a'])('inner %s', (x) => {
    it(\`tmpl \${'q'}\`, () => {});
  });
  myTest('extended', ({ n }) => { expect(n).toBe(1); });
  it.todo('todo');
  test(
    'multiline',
    () => {},
  );
      it   ('spaced', () => {});
});
`;

describe('extractTests', () => {
  it('finds every test form at the location Vitest reports', () => {
    const tests = extractTests(FORMS, 'test/loc.test.ts');
    expect(tests.map((t) => [t.fullName, `${t.line}:${t.column}`, t.mode])).toEqual([
      ['outer > plain', '4:3', 'run'],
      ['outer > skipped', '5:6', 'skip'],
      ['outer > conc', '6:6', 'run'],
      ['outer > each %s', '7:18', 'run'],
      ['outer > for %s', '8:21', 'run'],
      ['outer > skipif', '9:19', 'run'],
      ['outer > conc skip', '10:17', 'skip'],
      ["outer > inner %s > tmpl ${'q'}", '12:5', 'run'],
      ['outer > extended', '14:3', 'run'],
      ['outer > todo', '15:6', 'todo'],
      ['outer > multiline', '16:3', 'run'],
      ['outer > spaced', '20:7', 'run'],
    ]);
    const byName = new Map(tests.map((t) => [t.fullName, t]));
    expect(byName.get('outer > each %s')?.each).toBe(true);
    expect(byName.get("outer > inner %s > tmpl ${'q'}")).toMatchObject({ each: true, dynamicTitle: true });
    expect(byName.get('outer > plain')).toMatchObject({
      each: false,
      dynamicTitle: false,
      file: 'test/loc.test.ts',
      titles: ['outer', 'plain'],
    });
  });

  it('gives the body offsets of the callback', () => {
    const code = `it('a', async () => { await x(); });`;
    const [t] = extractTests(code, 'a.test.ts');
    expect(code.slice(t?.bodyStart, t?.bodyEnd)).toBe('async () => { await x(); }');
  });

  it('reads TypeScript syntax, renamed imports and test(name, options, fn)', () => {
    const code = `import { test as check, describe as group } from 'vitest';
interface Row { id: number }
group('rows', () => {
  check('typed', { timeout: 50 }, async () => {
    const rows: Row[] = [{ id: 1 } as Row];
    expect(rows satisfies Row[]).toHaveLength(1);
  });
});`;
    expect(extractTests(code, 'rows.test.ts').map((t) => [t.fullName, t.line, t.column])).toEqual([
      ['rows > typed', 4, 3],
    ]);
  });

  it('reads JSX in .tsx files', () => {
    const code = `it('renders', () => { render(<App title="x" />); });`;
    expect(extractTests(code, 'app.test.tsx')).toHaveLength(1);
  });

  it('ignores calls that are not tests and tests nested in a test body', () => {
    const code = `foo('not a test', () => {});\nit.extend({});\nit('outer', () => { it('inner', () => {}); });`;
    expect(extractTests(code, 'x.test.ts').map((t) => t.fullName)).toEqual(['outer']);
  });

  it('names the file, line and column of a syntax error', () => {
    try {
      extractTests(`it('x', () => {\n  const = 1;\n});`, 'test/bad.test.ts');
      expect.unreachable();
    } catch (error) {
      expect(isFlakeguardError(error)).toBe(true);
      expect((error as Error).message).toMatch(
        /^test\/bad\.test\.ts:2:9: cannot read the tests in this file: .*; fix the syntax error$/,
      );
    }
  });

  it('keeps the fingerprint when the title, describe or indentation change', () => {
    const a = extractTests(`describe('d', () => { it('t', () => { expect(add(1, 2)).toBe(3); }); });`, 'a.test.ts')[0];
    const b = extractTests(
      `describe('e', () => {\n  it("renamed",\n    () => {\n      // why\n      expect(add(1, 2,)).toBe((3));\n    });\n});`,
      'b.test.ts',
    )[0];
    expect(a?.fingerprint).toMatch(/^[0-9a-f]{16}$/);
    expect(b?.fingerprint).toBe(a?.fingerprint);
  });
});
