/** Gathering inputs from what a real run left: a run record cut in half, paths from a CI runner. */
import { readFileSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mergeSignatures } from '../../../src/core/triage/triage-signatures.js';
import { listRunRecords } from '../../../src/io/record/run-record-file.js';
import { gatherTriageInputs, makePathMapper, type TriageSources } from '../../../src/io/triage/triage-inputs.js';
import { createFixture, type Fixture, vitestConfigWithReporter } from '../../helpers/fixture.js';
import { makeTriageSources } from './triage-sources.js';

let fx: Fixture;
let record: string;

beforeAll(async () => {
  const tests = Array.from(
    { length: 30 },
    (_, i) => `it('case ${i}', () => { expect(${i}).toBe(${i === 2 ? -1 : i}); });`,
  ).join('\n');
  fx = await createFixture({
    files: {
      'vitest.config.ts': vitestConfigWithReporter(),
      'test/many.test.ts': `import { it, expect } from 'vitest';\n${tests}\n`,
    },
  });
  await fx.vitest();
  const found = listRunRecords(fx.root, '.flakeguard/runs')[0];
  if (!found) throw new Error('the reporter wrote no run record');
  record = found;
}, 60_000);

afterAll(() => fx.remove());

const sources = (over: Partial<TriageSources>): TriageSources => makeTriageSources(fx.root, over);

describe('gatherTriageInputs', () => {
  it('reads a whole run record: tests, exit code', async () => {
    const inputs = await gatherTriageInputs(sources({ records: [record] }), mergeSignatures([]));
    expect(inputs.problems).toEqual([]);
    expect(inputs.exitCode).toBe(1);
    expect(inputs.tests.filter((t) => t.state === 'failed').map((t) => [t.file, t.fullName])).toEqual([
      ['test/many.test.ts', 'case 2'],
    ]);
  });

  it('salvages a run record cut in half and reports the cut', async () => {
    const text = readFileSync(record, 'utf8');
    const cut = path.join(fx.root, 'cut-record.json');
    writeFileSync(cut, text.slice(0, text.indexOf('"case 20"')));
    const inputs = await gatherTriageInputs(sources({ records: [cut] }), mergeSignatures([]));
    expect(inputs.problems).toMatchObject([{ kind: 'truncated', cutAtByte: statSync(cut).size }]);
    const salvaged = inputs.tests.map((t) => t.fullName);
    expect(salvaged).toContain('case 2');
    expect(salvaged).not.toContain('case 20');
    expect(inputs.tests.find((t) => t.fullName === 'case 2')?.state).toBe('failed');
  });

  it('maps paths from a CI runner onto the root', () => {
    const map = makePathMapper(fx.root);
    expect(map('/home/runner/work/app/app/test/many.test.ts')).toBe('test/many.test.ts');
    expect(map(path.join(fx.root, 'test/many.test.ts'))).toBe('test/many.test.ts');
  });
});
