import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { decodeXmlEntities, readJunitReport } from '../../../src/core/triage/triage-junit.js';
import { readJunitFile } from '../../../src/io/triage/junit-read.js';

const XML = `<?xml version="1.0" encoding="UTF-8" ?>
<!-- written by vitest -->
<testsuites name="vitest tests" tests="4" failures="2">
  <testsuite name="a.test.ts" tests="4">
    <testcase classname="test/a.test.ts" name="grp &gt; fails &amp; &#x41;" time="0.0041">
      <failure message="expected 1 to be 2" type="AssertionError"><![CDATA[AssertionError: <raw> text]]></failure>
    </testcase>
    <testcase classname='test/a.test.ts' name='skipped one' time='0'><skipped/></testcase>
    <testcase classname="test/a.test.ts" name="passes" time="0.5"/>
    <testcase classname="test/b.test.ts" name="test/b.test.ts" time="0"><error message="Cannot find module &apos;./x&apos;"/></testcase>
  </testsuite>
</testsuites>
`;

const dir = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-junit-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('JUnit reader', () => {
  it('reads testcases, entities, CDATA, single quotes, self-closing tags and file-level failures', () => {
    const { tests } = readJunitReport(XML, 'j.xml', (p) => p);
    expect(tests.map((t) => [t.kind, t.file, t.fullName, t.state, t.durationMs])).toEqual([
      ['test', 'test/a.test.ts', 'grp > fails & A', 'failed', 4.1],
      ['test', 'test/a.test.ts', 'skipped one', 'skipped', 0],
      ['test', 'test/a.test.ts', 'passes', 'passed', 500],
      ['file', 'test/b.test.ts', '', 'failed', 0],
    ]);
    expect(tests[0]?.errors).toEqual(['expected 1 to be 2', 'AssertionError: <raw> text']);
    expect(tests[3]?.errors).toEqual(["Cannot find module './x'"]);
  });

  it('decodes numeric entities and leaves unknown ones', () => {
    expect(decodeXmlEntities('&#65;&#x1F600;&nbsp;&lt;')).toBe('A😀&nbsp;<');
  });

  it('a cut-off file keeps its complete testcases and is reported as truncated', () => {
    const file = path.join(dir, 'cut.xml');
    writeFileSync(file, XML.slice(0, XML.indexOf('name="passes"')));
    const read = readJunitFile(file, 'cut.xml', (p) => p);
    expect(read.tests.map((t) => t.fullName)).toEqual(['grp > fails & A', 'skipped one']);
    expect(read.problem).toMatchObject({ kind: 'truncated', salvaged: 2 });
    expect(readJunitFile(path.join(dir, 'none.xml'), 'none.xml', (p) => p).problem?.kind).toBe('missing-report');
  });
});
