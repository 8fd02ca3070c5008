/**
 * Text that leaves flakeguard: a value written into an allowance file (one line, read back exactly)
 * and a name shown on a terminal (control characters escaped, so a test name cannot move the cursor,
 * clear the screen or fake a line of output).
 */
import { parse, stringify } from 'yaml';

/**
 * Characters escaped both in YAML and on a terminal: C0 and C1 controls, DEL, line and paragraph
 * separators, bidirectional overrides, the byte order mark, non-characters and lone surrogates.
 */
const UNSAFE = /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;

function escapeUnit(ch: string): string {
  switch (ch) {
    case '\n':
      return '\\n';
    case '\r':
      return '\\r';
    case '\t':
      return '\\t';
    default:
      return `\\u${(ch.charCodeAt(0)).toString(16).padStart(4, '0')}`;
  }
}

/** A YAML double-quoted scalar: `"` and `\` escaped, every unsafe character as an escape. */
export function doubleQuoted(value: string): string {
  return `"${value.replace(/["\\]/g, (c) => `\\${c}`).replace(UNSAFE, escapeUnit)}"`;
}

/**
 * A scalar as YAML writes it on one line: plain or quoted as the yaml library chooses when that
 * reads back as the same string on one line, else double-quoted with escapes. Every string
 * round-trips, leading and trailing spaces, quotes, newlines and control characters included.
 */
export function yamlScalar(value: string): string {
  UNSAFE.lastIndex = 0;
  if (!UNSAFE.test(value)) {
    const natural = stringify(value, { lineWidth: 0, blockQuote: false }).trimEnd();
    if (!natural.includes('\n') && readsBack(natural, value)) return natural;
  }
  return doubleQuoted(value);
}

function readsBack(scalar: string, value: string): boolean {
  try {
    return parse(`k: ${scalar}\n`)?.k === value;
  } catch {
    return false;
  }
}

/** The text with every unsafe character escaped (`\n`, `\u001b`), for a terminal or a log. */
export function escapeForTerminal(text: string): string {
  UNSAFE.lastIndex = 0;
  return text.replace(UNSAFE, escapeUnit);
}

/** A name in double quotes for a message, with `"` and `\` and unsafe characters escaped. */
export function quoteName(text: string): string {
  return doubleQuoted(text);
}
