/**
 * Text that leaves flakeguard: a value written into an allowance file (one line, read back exactly)
 * and a name shown on a terminal (control characters escaped, so a test name cannot move the cursor,
 * clear the screen or fake a line of output).
 */
import { parse, stringify } from 'yaml';
import { escapeUnsafe, hasUnsafeCharacter } from '../untrusted-text.js';

/** A YAML double-quoted scalar: `"` and `\` escaped, every unsafe character as an escape. */
function doubleQuoted(value: string): string {
  return `"${escapeUnsafe(value.replace(/["\\]/g, (c) => `\\${c}`))}"`;
}

/**
 * A scalar as YAML writes it on one line: plain or quoted as the yaml library chooses when that
 * reads back as the same string on one line, else double-quoted with escapes. Every string
 * round-trips, leading and trailing spaces, quotes, newlines and control characters included.
 */
export function yamlScalar(value: string): string {
  if (!hasUnsafeCharacter(value)) {
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

/** A name in double quotes for a message, with `"` and `\` and unsafe characters escaped. */
export function quoteName(text: string): string {
  return doubleQuoted(text);
}
