/**
 * The one way flakeguard starts a Vitest child of its own (the gate's tries, the list of test
 * files): a temporary folder, the job written there as job.json for the child to read, the built
 * child script started under the process guard (io/process/spawn-guarded.ts: it dies with
 * flakeguard and is killed on abort), and end() that stops it and removes the folder.
 */
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { FlakeguardError } from '../../core/errors.js';
import { type GuardedProcess, spawnGuarded } from '../process/spawn-guarded.js';

const HERE = path.dirname(fileURLToPath(import.meta.url));

/** The built file next to this module, or the one in dist/ when running from the sources. */
export function builtFile(relFromSrc: string): string {
  const next = path.resolve(HERE, '../..', relFromSrc);
  if (existsSync(next)) return next;
  const dist = path.resolve(HERE, '../../../dist', relFromSrc);
  if (existsSync(dist)) return dist;
  throw new FlakeguardError('VITEST', `flakeguard's ${relFromSrc} is missing; run npm run build`);
}

export interface ChildJob<J> {
  readonly job: J;
  readonly child: GuardedProcess;
  /** Stops the child (when still running) and removes the temporary folder. */
  end(): void;
}

export interface ChildJobOptions<J> {
  /** The child script under src/ (built), e.g. 'io/vitest/vitest-list-child.js'. */
  readonly script: string;
  /** Prefix of the temporary folder's name. */
  readonly prefix: string;
  readonly cwd: string;
  /** The child's environment beside the inherited one, given its job. */
  readonly env?: (job: J) => Readonly<Record<string, string>>;
  readonly signal?: AbortSignal;
}

/** Writes the job `makeJob` builds (given the temporary folder for the files it names) and starts the child on it. */
export function startChildJob<J>(options: ChildJobOptions<J>, makeJob: (tmp: string) => J): ChildJob<J> {
  const tmp = mkdtempSync(path.join(os.tmpdir(), options.prefix));
  let child: GuardedProcess | null = null;
  try {
    const job = makeJob(tmp);
    const jobFile = path.join(tmp, 'job.json');
    writeFileSync(jobFile, JSON.stringify(job));
    child = spawnGuarded(process.execPath, [builtFile(options.script), jobFile], {
      cwd: options.cwd,
      ...(options.env ? { env: options.env(job) } : {}),
      tempFolder: tmp,
      ...(options.signal ? { signal: options.signal } : {}),
    });
    const started = child;
    return {
      job,
      child: started,
      end: () => {
        started.stop();
        rmSync(tmp, { recursive: true, force: true });
      },
    };
  } catch (error) {
    child?.stop();
    rmSync(tmp, { recursive: true, force: true });
    throw error;
  }
}
