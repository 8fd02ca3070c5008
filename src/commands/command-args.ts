/**
 * Shared by every command's argument table. Node's parseArgs refuses `--runs -1` as "argument is
 * ambiguous" before the command can say what it accepts; a value that looks like a negative number or
 * duration is joined to the long option before it (`--runs=-1`), so the command's own check names the
 * value and the accepted form (a boolean option then says it takes no value). Any other argument that
 * starts with a dash stays an option.
 */
const NEGATIVE = /^-\.?\d/;

export function joinNegativeValues(args: readonly string[]): string[] {
  const out: string[] = [];
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i] ?? '';
    const next = args[i + 1];
    if (/^--[^=]+$/.test(arg) && next !== undefined && NEGATIVE.test(next)) {
      out.push(`${arg}=${next}`);
      i += 1;
    } else out.push(arg);
  }
  return out;
}
