import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { listTestFilePaths, listTestFiles } from '../../../src/io/vitest/list-test-files.js';
import { createFixture, type Fixture } from '../../helpers/fixture.js';

// Needs `npm run build` (the listing child runs from dist/). The real Vitest reads the config.
const CONFIG = `import { defineConfig } from 'vitest/config';
export default defineConfig({ test: { projects: [
  { test: { name: 'checks', include: ['checks/**/*.check.ts'] } },
  { test: { name: 'all', include: ['checks/**/*.check.ts', 'test/**/*.test.ts'], exclude: ['test/skip/**'] } },
] } });
`;

describe("listTestFiles: the test files as the project's Vitest sees them", () => {
  let fixture: Fixture;
  beforeAll(async () => {
    fixture = await createFixture({
      files: {
        'vitest.config.ts': CONFIG,
        'src/tax.ts': 'export const tax = (n: number): number => n / 5;\n',
        'src/price.ts': "import { tax } from './tax';\nexport const price = (n: number): number => n + tax(n);\n",
        'checks/price.check.ts':
          "import { expect, it } from 'vitest';\nimport { price } from '../src/price';\nit('prices', () => expect(price(5)).toBe(6));\n",
        'test/plain.test.ts': "import { it } from 'vitest';\nit('plain', () => {});\n",
        'test/skip/skipped.test.ts': "import { it } from 'vitest';\nit('skipped', () => {});\n",
      },
    });
  });
  afterAll(() => fixture.remove());

  it('include, exclude and projects: a file in two projects is listed in each', async () => {
    const listed = await listTestFiles({ root: fixture.root });
    expect(listed.projects).toEqual(['checks', 'all']);
    expect(listed.files).toEqual([
      { file: 'checks/price.check.ts', project: 'all' },
      { file: 'checks/price.check.ts', project: 'checks' },
      { file: 'test/plain.test.ts', project: 'all' },
    ]);
    expect(await listTestFilePaths(fixture.root)).toEqual(['checks/price.check.ts', 'test/plain.test.ts']);
  });

  it('--project keeps one project; affectedBy finds importers through other modules', async () => {
    const listed = await listTestFiles({
      root: fixture.root,
      setup: { config: null, projects: ['checks'] },
      affectedBy: ['src/tax.ts'],
    });
    expect(listed.files).toEqual([{ file: 'checks/price.check.ts', project: 'checks' }]);
    expect(listed.affected).toEqual([{ file: 'checks/price.check.ts', project: 'checks', via: ['src/tax.ts'] }]);
  });

  it('a bad --project is one line naming it', async () => {
    await expect(listTestFiles({ root: fixture.root, setup: { config: null, projects: ['nope'] } })).rejects.toThrow(
      /(No projects matched the filter "nope"|The filter matched no projects: nope).*; check the Vitest config and the --project names/,
    );
  });

  it('a folder without Vitest installed: the default include', async () => {
    const bare = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-novitest-'));
    try {
      writeFileSync(path.join(bare, 'a.spec.js'), '');
      writeFileSync(path.join(bare, 'a.check.ts'), '');
      expect(await listTestFilePaths(bare)).toEqual(['a.spec.js']);
    } finally {
      rmSync(bare, { recursive: true, force: true });
    }
  });
});
