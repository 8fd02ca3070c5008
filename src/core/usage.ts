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
  }
  return out;
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
  const labels = Object.entries(usage.options).map(([name, spec]) => [optionLabel(name, spec), spec.help] as const);
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
