/**
 * A command's options, written once: the table gives node:util parseArgs its options
 * (toParseArgsOptions) and gives --help its text (formatUsage), and a test checks that README.md and
 * the command's docs page name every option, so the three cannot drift.
 */
interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  readonly multiple?: boolean;
  /** The value's placeholder in the help text (`<ref>`, `<duration>`); strings only. */
  readonly value?: string;
  readonly help: string;
  /** The option's old name: still read, with a notice naming the new one (foldRenamedOptions). */
  readonly formerly?: string;
}

export type OptionTable = Readonly<Record<string, OptionSpec>>;

export interface ParseArgsOption {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  readonly multiple?: boolean;
}

export function toParseArgsOptions(table: OptionTable): Record<string, ParseArgsOption> {
  const out: Record<string, ParseArgsOption> = {};
  for (const [name, spec] of Object.entries(table)) {
    out[name] = {
      type: spec.type,
      ...(spec.short === undefined ? {} : { short: spec.short }),
      ...(spec.multiple === undefined ? {} : { multiple: spec.multiple }),
    };
    if (spec.formerly !== undefined)
      out[spec.formerly] = { type: spec.type, ...(spec.multiple === undefined ? {} : { multiple: spec.multiple }) };
  }
  return out;
}

interface FoldedOptions {
  /** The parsed values with each old name's value under its new name. */
  readonly values: Readonly<Record<string, unknown>>;
  /** One line per old name given: what it is now, and what to write. */
  readonly notices: readonly string[];
  /** An old name given together with its new one (a usage error), or null. */
  readonly clash: string | null;
}

/** Old option names (`formerly`) folded into their new ones. Pure: the table and the parsed values in. */
export function foldRenamedOptions(table: OptionTable, values: Readonly<Record<string, unknown>>): FoldedOptions {
  const out: Record<string, unknown> = { ...values };
  const notices: string[] = [];
  for (const [name, spec] of Object.entries(table)) {
    const old = spec.formerly;
    if (old === undefined || out[old] === undefined) continue;
    if (out[name] !== undefined)
      return { values, notices, clash: `--${old} is the old name of --${name}; give only --${name}` };
    const value = out[old];
    const written = spec.type === 'boolean' ? '' : ` ${String(Array.isArray(value) ? value[0] : value)}`;
    notices.push(`--${old} is renamed --${name}; write --${name}${written}`);
    out[name] = value;
    delete out[old];
  }
  return { values: out, notices, clash: null };
}

export interface UsageText {
  /** Lines such as `flakeguard gate [options]`. */
  readonly synopsis: readonly string[];
  readonly summary: string;
  readonly options: OptionTable;
  readonly exit: string;
  readonly docs: string;
}

function optionLabel(name: string, spec: OptionSpec): string {
  const short = spec.short === undefined ? '' : `-${spec.short}, `;
  const value = spec.type === 'string' ? ` ${spec.value ?? '<value>'}` : '';
  const repeat = spec.multiple ? '...' : '';
  return `${short}--${name}${value}${repeat}`;
}

/** The --help text: synopsis, summary, one aligned line per option (wrapped help), exit codes, docs. */
export function formatUsage(usage: UsageText, width = 100): string {
  const labels = Object.entries(usage.options).map(
    ([name, spec]) =>
      [optionLabel(name, spec), spec.formerly ? `${spec.help} (formerly --${spec.formerly})` : spec.help] as const,
  );
  const column = Math.min(28, Math.max(0, ...labels.map(([label]) => label.length)) + 2);
  const lines: string[] = [...usage.synopsis, '', ...wrap(usage.summary, width), '', 'Options:'];
  for (const [label, help] of labels) {
    const pad = label.length + 2 > column ? `\n${' '.repeat(column + 2)}` : ' '.repeat(column - label.length);
    lines.push(`  ${label}${pad}${wrap(help, width - column - 2).join(`\n${' '.repeat(column + 2)}`)}`);
  }
  lines.push('', `Exit: ${usage.exit}`, `Docs: ${usage.docs}`);
  return lines.join('\n');
}

function wrap(text: string, width: number): string[] {
  const out: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter((w) => w !== '')) {
    if (line !== '' && line.length + 1 + word.length > width) {
      out.push(line);
      line = word;
    } else line = line === '' ? word : `${line} ${word}`;
  }
  if (line !== '') out.push(line);
  return out.length === 0 ? [''] : out;
}
