/**
 * Bad input catalogue, part 2: flakeguard.yaml and allowance files (malformed, unknown keys, an alias
 * bomb, binary garbage, a 4 KB value, files over the 1 MiB limit, folders that are files). Needs
 * `npm run build`. Each case: exit 2, one line naming the value and the fix, no user file changed.
 */
import { randomBytes } from 'node:crypto';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createFixture, type Fixture } from '../../helpers/fixture.js';
import { runCliInProcess } from '../../helpers/in-process-cli.js';
import { expectBadInputInProcess as expectBadInput } from './catalogue.js';

let fx: Fixture;
beforeAll(async () => {
  fx = await createFixture({
    git: true,
    files: {
      'test/a.test.ts': "import { it } from 'vitest';\nit('adds', () => {});\n",
      'notes.txt': 'a regular file\n',
    },
  });
});
afterAll(() => fx.remove());
afterEach(() => fx.write('flakeguard.yaml', ''));

const config = (text: string | Buffer): void => fx.write('flakeguard.yaml', text as string);
const COMMANDS = [
  ['allowances', 'list'],
  ['allowances', 'check'],
  ['triage', '--junit', 'notes.txt'],
  ['gate', '--base', 'HEAD'],
];

describe('flakeguard.yaml', () => {
  it.each(COMMANDS)('a YAML syntax error stops %s %s with file:line:column', async (...args) => {
    config('budget:\n  test: [5s\n');
    await expectBadInput(fx, args, { exit: 2, names: ['flakeguard.yaml:', 'YAML syntax error', 'fix the YAML'] });
  });

  it('an unknown key: named, with the keys that exist', async () => {
    config('budgit:\n  test: 5s\n');
    await expectBadInput(fx, ['allowances', 'list'], {
      exit: 2,
      names: ['flakeguard.yaml:1:1', 'unknown key "budgit"', 'use budget, allowances, records, triage'],
    });
  });

  it('an alias bomb (each alias expanding ten more) is refused quickly, with the place', async () => {
    const level = (name: string, of: string) =>
      `    - { match: x, class: flake, cause: c, id: ${name}, action: &${name} [${Array(10).fill(`*${of}`).join(', ')}] }`;
    config(
      [
        'triage:',
        '  patterns:',
        '    - { match: x, class: flake, cause: &a c, id: a0 }',
        level('b', 'a'),
        level('c', 'b'),
        level('d', 'c'),
        level('e', 'd'),
        level('f', 'e'),
        level('g', 'f'),
        '',
      ].join('\n'),
    );
    const started = performance.now();
    await expectBadInput(fx, ['allowances', 'list'], {
      exit: 2,
      names: ['flakeguard.yaml:4:7', 'triage.patterns[1].action must be text, not a list of 10 items'],
    });
    expect(performance.now() - started).toBeLessThan(30_000);
  });

  it('binary garbage: a short, escaped excerpt at most, never the 4 KB line', async () => {
    config(
      Buffer.concat([Buffer.from('budget:\n  test: '), randomBytes(4096).map((b) => (b === 10 || b === 13 ? 32 : b))]),
    );
    const run = await expectBadInput(fx, ['allowances', 'list'], { exit: 2, names: ['flakeguard.yaml:2:'] });
    expect(run.stderr.length).toBeLessThan(400);
  });

  it('4,000 control characters: their escapes cut at 60 characters, not 60 characters escaped', async () => {
    config(`budget:\n  test: ${'\u0004'.repeat(4000)}\n`);
    await expectBadInput(fx, ['allowances', 'list'], {
      exit: 2,
      names: [`budget.test "${'\\u0004'.repeat(10)}…" (4000 characters) is not a duration`],
    });
  });

  it('a 4,000-character value: quoted up to 60 characters, with its length', async () => {
    config(`budget:\n  test: ${'x'.repeat(4000)}\n`);
    await expectBadInput(fx, ['allowances', 'list'], {
      exit: 2,
      names: [`budget.test "${'x'.repeat(60)}…" (4000 characters) is not a duration`, 'write 250ms, 5s, 1.5s or 2m'],
    });
  });

  it('a config above 1 MiB is refused unread, with its size and the limit', async () => {
    config(
      `triage:\n  patterns:\n${'    - { match: "database is starting up", class: infrastructure, cause: db }\n'.repeat(16_000)}`,
    );
    await expectBadInput(fx, ['allowances', 'list'], {
      exit: 2,
      names: [
        'flakeguard.yaml is 1.',
        'MiB',
        'above the 1.0 MiB (1048576 bytes) limit for a flakeguard.yaml',
        'Keep it under the limit',
      ],
    });
  });

  it.each([
    ['allowances', ['allowances', 'list'], 'allowance files'],
    ['records', ['triage'], 'run records'],
  ])('%s: naming a file, not a folder', async (key, args, what) => {
    config(`${key}: notes.txt\n`);
    await expectBadInput(fx, args, {
      exit: 2,
      names: [`${key} "notes.txt" is a file, not a folder`, `name the folder of ${what}`],
    });
  });
});

describe('allowance files', () => {
  it('an allowance file above 1 MiB is refused unread, with its size', async () => {
    const entry = (i: number) =>
      `- id: a${String(i).padStart(7, '0')}\n  test: adds\n  file: test/a.test.ts\n  budget: 1s\n  reason: measured 0.8s on the CI runner\n  added: 2026-11-30\n`;
    fx.write('allowances/test/a.test.ts.yaml', Array.from({ length: 9000 }, (_, i) => entry(i)).join(''));
    try {
      await expectBadInput(fx, ['allowances', 'check'], {
        exit: 2,
        names: [
          'allowances/test/a.test.ts.yaml is 1.',
          'above the 1.0 MiB (1048576 bytes) limit for an allowance file',
        ],
      });
    } finally {
      fx.write('allowances/test/a.test.ts.yaml', '');
    }
  });

  it('malformed YAML in an allowance file: check reports it with the place (exit 1), nothing rewritten', async () => {
    fx.write('allowances/test/a.test.ts.yaml', '- id: [unclosed\n');
    try {
      const run = await runCliInProcess(fx.root, ['allowances', 'check']);
      expect(run.exitCode, run.output).toBe(1);
      expect(run.output).toContain('allowances/test/a.test.ts.yaml:');
    } finally {
      fx.write('allowances/test/a.test.ts.yaml', '');
    }
  });
});
