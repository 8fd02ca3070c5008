/**
 * Text flakeguard did not write (test names, error messages, quarantine reasons, log lines, file
 * names) on its way to a terminal or to the CI runner. Pure.
 *
 * - `escapeTerminal`: one line, every unsafe character made visible (`\n`, `\u001b`): no ESC, no
 *   raw control or binary, no line break; and text that would start a line with `::` (a GitHub
 *   workflow command, even after spaces) has its first `:` escaped, so it can never become one.
 * - `escapeWorkflowData` / `escapeWorkflowProperty`: the escapes GitHub documents for workflow
 *   commands (`%`, CR, LF in data; also `:` and `,` in properties), after the other unsafe
 *   characters are made visible.
 */

/**
 * C0 and C1 controls, DEL, line and paragraph separators, bidirectional overrides, the byte order
 * mark, the replacement character (what invalid UTF-8 decodes to), non-characters and lone surrogates.
 */
const UNSAFE =
  /[\u0000-\u001f\u007f-\u009f\u2028\u2029\u202a-\u202e\u2066-\u2069\ufeff\ufffd\ufffe\uffff]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g;
const UNSAFE_BUT_LINE_BREAKS = new RegExp(
  UNSAFE.source.replace('\\u0000-\\u001f', '\\u0000-\\u0009\\u000b\\u000c\\u000e-\\u001f'),
  'g',
);
const SHORT: Readonly<Record<string, string>> = { '\n': '\\n', '\r': '\\r', '\t': '\\t' };

/** `\n`, `\r`, `\t`, else `\u00XX`. */
function escapeUnit(ch: string): string {
  return SHORT[ch] ?? `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** True when a line holding `text` first would be read as a workflow command by GitHub's runner. */
const COMMAND_START = /^(\s*):/;
const looksLikeCommand = (text: string): boolean => /^\s*::/.test(text);

export function escapeTerminal(text: string): string {
  const visible = text.replace(UNSAFE, escapeUnit);
  return looksLikeCommand(visible) ? visible.replace(COMMAND_START, '$1\\u003a') : visible;
}

export function escapeWorkflowData(text: string): string {
  return text
    .replace(UNSAFE_BUT_LINE_BREAKS, escapeUnit)
    .replace(/%/g, '%25')
    .replace(/\r/g, '%0D')
    .replace(/\n/g, '%0A');
}

export function escapeWorkflowProperty(text: string): string {
  return escapeWorkflowData(text).replace(/:/g, '%3A').replace(/,/g, '%2C');
}

/** True for a character `escapeTerminal` escapes (for writers that keep the rest, as YAML does). */
export function hasUnsafeCharacter(text: string): boolean {
  UNSAFE.lastIndex = 0;
  const found = UNSAFE.test(text);
  UNSAFE.lastIndex = 0;
  return found;
}

/** Every unsafe character of `text` as an escape, line breaks included; no `::` rule (for YAML scalars). */
export function escapeUnsafe(text: string): string {
  return text.replace(UNSAFE, escapeUnit);
}
