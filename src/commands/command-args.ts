/**
 * Every command's arguments go through here: node:util parseArgs with the options of the command's
 * table (core/usage.ts), `--help` printed from the same table, and a usage error that names the bad
 * argument and points at --help (exit 2).
 */
import { parseArgs } from 'node:util';
import { FlakeguardError } from '../core/errors.js';
import {
  foldRenamedOptions,
  formatUsage,
  type OptionTable,
  toParseArgsOptions,
  type UsageText,
} from '../core/usage.js';

export type ParsedValues<T extends OptionTable> = {
  [K in keyof T]?: T[K]['type'] extends 'boolean' ? boolean : T[K]['multiple'] extends true ? string[] : string;
};

export interface ParsedCommand<T extends OptionTable> {
  readonly values: ParsedValues<T>;
  readonly positionals: string[];
}

export function commandUsageError(command: string, message: string): FlakeguardError {
  return new FlakeguardError('USAGE', `${message}; see ${command} --help`);
}

/**
 * `--tries -1` as `--tries=-1`: parseArgs calls a value that starts with `-` ambiguous; joined, the
 * command's own check names the value and the accepted form.
 */
function joinNegativeValues(args: readonly string[], table: OptionTable): string[] {
  const options = toParseArgsOptions(table);
  const out: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] as string;
    const next = args[i + 1];
    const name = /^--([\w-]+)$/.exec(arg)?.[1];
    if (name !== undefined && options[name]?.type === 'string' && next !== undefined && /^-\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i += 1;
    } else out.push(arg);
  }
  return out;
}

/**
 * Parses `args`; prints the help and returns 'help' for --help/-h. An option's old name is read as
 * its new one, with one line on stderr saying what to write; both together are a usage error.
 */
export function parseCommandArgs<T extends OptionTable>(
  command: string,
  usage: UsageText & { readonly options: T },
  args: readonly string[],
  allowPositionals = false,
): ParsedCommand<T> | 'help' {
  let parsed: ReturnType<typeof parseArgs>;
  try {
    parsed = parseArgs({
      args: joinNegativeValues(args, usage.options),
      options: toParseArgsOptions(usage.options),
      strict: true,
      allowPositionals,
    });
  } catch (error) {
    throw commandUsageError(command, (error as Error).message.split('\n')[0] ?? String(error));
  }
  if (parsed.values['help'] === true) {
    process.stdout.write(`${formatUsage(usage)}\n`);
    return 'help';
  }
  const folded = foldRenamedOptions(usage.options, parsed.values);
  if (folded.clash !== null) throw commandUsageError(command, folded.clash);
  for (const notice of folded.notices) process.stderr.write(`${command}: ${notice}\n`);
  return { values: folded.values as ParsedValues<T>, positionals: parsed.positionals };
}

/**
 * `flakeguard <command> <subcommand> [options]`: the subcommand must be one of `subcommands`, and
 * each option given must be one that subcommand takes.
 */
export function parseSubcommand<T extends OptionTable>(
  command: string,
  usage: UsageText & { readonly options: T },
  subcommands: Readonly<Record<string, readonly (keyof T)[]>>,
  args: readonly string[],
): { sub: string; values: ParsedValues<T> } | 'help' {
  const parsed = parseCommandArgs(command, usage, args, true);
  if (parsed === 'help') return 'help';
  const names = Object.keys(subcommands);
  const list = `${names.slice(0, -1).join(', ')} or ${names.at(-1) ?? ''}`;
  const [sub, ...extra] = parsed.positionals;
  if (sub === undefined || !Object.hasOwn(subcommands, sub)) {
    throw commandUsageError(
      command,
      sub === undefined ? `name a subcommand: ${list}` : `unknown subcommand "${sub}"; use ${list}`,
    );
  }
  if (extra.length > 0)
    throw commandUsageError(command, `unexpected argument "${extra[0]}"; quote a test name that has spaces`);
  const allowed = (subcommands[sub] ?? []) as readonly string[];
  for (const key of Object.keys(parsed.values)) {
    if (!allowed.includes(key))
      throw commandUsageError(command, `--${key} does not apply to "${command.replace(/^flakeguard /, '')} ${sub}"`);
  }
  return { sub, values: parsed.values };
}
