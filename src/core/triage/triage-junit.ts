/**
 * JUnit XML (Vitest's `--reporter=junit`, and the common Jest/Surefire shape) as observations.
 * A small tolerant XML reader: tags, attributes in either quote, self-closing tags, comments,
 * CDATA, processing instructions and the five named entities plus numeric ones. It reads what it
 * can and stops at a cut-off; it never throws. Vitest writes a suite or hook failure as a
 * testcase named after the suite, and an import error as a testcase named after the file.
 * Vitest 5 also writes the run's unhandled errors, as testcases of a testsuite named
 * `vitest unhandled errors` (`classname="vitest unhandled errors" name="Unhandled Rejection: <message>"`,
 * the error's text naming the file it came from): those are unhandled errors, not tests.
 */
import { latestTest, originFile, parseWorkerExit } from './log-vitest.js';
import type { ObservedState, ObservedTest, ObservedUnhandled } from './triage-types.js';

/** Vitest 5's classname (and testsuite name) for the run's unhandled errors. */
const VITEST_UNHANDLED_CLASSNAME = 'vitest unhandled errors';

export interface JunitObservations {
  readonly tests: ObservedTest[];
  readonly unhandled: ObservedUnhandled[];
}

const TOKEN =
  /<!--[\s\S]*?-->|<!\[CDATA\[([\s\S]*?)\]\]>|<\?[\s\S]*?\?>|<!DOCTYPE[^>]*>|<(\/?)([A-Za-z_][\w:.-]*)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/g;
const ATTR = /([^\s=/>]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const MESSAGE_LIMIT = 2000;

export function decodeXmlEntities(text: string): string {
  return text.replace(/&(lt|gt|amp|quot|apos|#\d+|#x[0-9a-fA-F]+);/g, (whole, name: string) => {
    switch (name) {
      case 'lt':
        return '<';
      case 'gt':
        return '>';
      case 'amp':
        return '&';
      case 'quot':
        return '"';
      case 'apos':
        return "'";
      default: {
        const code = name.startsWith('#x') ? Number.parseInt(name.slice(2), 16) : Number.parseInt(name.slice(1), 10);
        return Number.isInteger(code) && code >= 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
    }
  });
}

function attributes(source: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const m of source.matchAll(ATTR)) out[m[1] ?? ''] = decodeXmlEntities(m[2] ?? m[3] ?? '');
  return out;
}

interface OpenCase {
  readonly attrs: Record<string, string>;
  state: ObservedState;
  errors: string[];
  /** Full texts of the failure/error elements (the messages above are the `message` attributes first). */
  bodies: string[];
  text: string;
  inProblem: boolean;
}

/** `Unhandled Rejection: job rejected` with `<error message="job rejected">` and a body naming the file. */
function unhandledOf(c: OpenCase, input: string, mapFile: (path: string) => string): ObservedUnhandled {
  const name = c.attrs['name'] ?? '';
  const body = c.bodies.join('\n');
  const message = c.errors[0] ?? name;
  const type =
    message !== '' && name.endsWith(`: ${message}`)
      ? name.slice(0, -(message.length + 2))
      : (/^([^:]+): /.exec(name)?.[1] ?? 'Unhandled Error');
  const lines = body.split('\n');
  const fromOrigin = lines.map(originFile).find((f) => f !== null) ?? null;
  const exitLine = lines.find((l) => parseWorkerExit(l) !== null);
  const exit = exitLine === undefined ? null : parseWorkerExit(exitLine);
  const fromExit = exit?.files.length === 1 ? (exit.files[0] ?? null) : null;
  const raw = c.attrs['file'] ?? fromOrigin ?? fromExit;
  const test = lines.map(latestTest).find((t) => t !== null) ?? null;
  const cause = exitLine?.trim().replace(/^(?:Caused by: )+/, '');
  return {
    type,
    message,
    file: raw === null || raw === undefined ? null : mapFile(raw),
    fullName: test,
    origin: `${input}: testcase classname="${c.attrs['classname'] ?? ''}" name="${name}" <error>`,
    ...(cause === undefined ? {} : { cause }),
  };
}

/**
 * Vitest names its <testsuites> "vitest tests"; another name (jest-junit's "jest tests") is another
 * tool's file: its tests carry the tool's name (no Vitest re-run command for them).
 */
function markForeign(tests: ObservedTest[], xml: string): ObservedTest[] {
  const open = /<testsuites\b[^>]*>/.exec(xml)?.[0];
  const producer = open === undefined ? undefined : attributes(open.slice('<testsuites'.length, -1))['name']?.trim();
  return producer === undefined || producer === '' || /vitest/i.test(producer)
    ? tests
    : tests.map((t) => ({ ...t, foreign: producer }));
}

export function readJunitReport(xml: string, input: string, mapFile: (path: string) => string): JunitObservations {
  const out: ObservedTest[] = [];
  const unhandled: ObservedUnhandled[] = [];
  let current: OpenCase | null = null;
  let lastIndex = 0;
  const close = (c: OpenCase): void => {
    if (c.attrs['classname'] === VITEST_UNHANDLED_CLASSNAME) unhandled.push(unhandledOf(c, input, mapFile));
    else out.push(testOfCase(c, input, mapFile));
  };
  TOKEN.lastIndex = 0;
  for (let m = TOKEN.exec(xml); m !== null; m = TOKEN.exec(xml)) {
    const between = xml.slice(lastIndex, m.index);
    lastIndex = TOKEN.lastIndex;
    if (current?.inProblem) current.text += decodeXmlEntities(between);
    if (m[1] !== undefined) {
      if (current?.inProblem) current.text += m[1];
      continue;
    }
    const tag = m[3];
    if (tag === undefined) continue;
    const closing = m[2] === '/';
    const selfClosing = m[5] === '/';
    if (tag === 'testcase') {
      if (current) close(current);
      current = closing ? null : openCase(m[4] ?? '');
      if (current && selfClosing) {
        close(current);
        current = null;
      }
    } else if (current && (tag === 'failure' || tag === 'error')) {
      if (closing) closeProblem(current);
      else openProblem(current, tag, attributes(m[4] ?? ''), selfClosing);
    } else if (current && tag === 'skipped' && !closing) {
      current.state = 'skipped';
    }
  }
  // A testcase open at a cut-off is not complete: it is left out.
  return { tests: markForeign(out, xml), unhandled };
}

function openCase(attrSource: string): OpenCase {
  return { attrs: attributes(attrSource), state: 'passed', errors: [], bodies: [], text: '', inProblem: false };
}

/** A `<failure>` or `<error>` opens: the case failed; its message attribute first, then (unless self-closing) its text. */
function openProblem(c: OpenCase, tag: string, attrs: Record<string, string>, selfClosing: boolean): void {
  c.state = 'failed';
  if (selfClosing) c.errors.push(attrs['message'] ?? `${tag}`);
  else {
    c.inProblem = true;
    c.text = '';
    if (attrs['message'] !== undefined && attrs['message'] !== '') c.errors.push(attrs['message']);
  }
}

function closeProblem(c: OpenCase): void {
  if (c.text.trim() !== '') {
    c.errors.push(c.text.trim());
    c.bodies.push(c.text.trim());
  }
  c.inProblem = false;
  c.text = '';
}

/** A closed testcase as a test, or as its file when Vitest named the case after the file (an import error). */
function testOfCase(c: OpenCase, input: string, mapFile: (path: string) => string): ObservedTest {
  const classname = c.attrs['classname'] ?? c.attrs['file'] ?? '';
  const rawName = c.attrs['name'] ?? '';
  const wholeFile = rawName === classname && classname !== '';
  const time = Number(c.attrs['time']);
  const file = classname === '' ? null : mapFile(classname);
  return {
    kind: wholeFile ? 'file' : 'test',
    // JUnit names no Vitest project: unknown, merged into the one project that has the test.
    project: null,
    file,
    fullName: wholeFile ? '' : rawName,
    line: null,
    state: c.state,
    durationMs: Number.isFinite(time) ? Math.round(time * 1e6) / 1e3 : null,
    errors: c.errors.map((e) => e.slice(0, MESSAGE_LIMIT)),
    limitMs: null,
    source: 'junit',
    origin: `${input}: testcase classname="${classname}" name="${rawName}"${c.state === 'failed' ? ' <failure>' : ''}`,
  };
}
