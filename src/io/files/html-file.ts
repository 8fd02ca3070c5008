/** Writes an HTML report (`--html <file>`) atomically: a reader sees the old page or the new one, never half. */
import path from 'node:path';
import { FlakeguardError } from '../../core/errors.js';
import { writeFileAtomic } from './atomic-write.js';

/** Writes `html` to `file` (resolved against `cwd`); returns the absolute path written. */
export function writeHtmlReport(file: string, html: string, cwd: string = process.cwd()): string {
  const target = path.resolve(cwd, file);
  try {
    writeFileAtomic(target, html);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new FlakeguardError(
      'USAGE',
      `--html ${file}: cannot write the report (${reason}); pass a file in a writable folder`,
      { cause: error },
    );
  }
  return target;
}
