/**
 * The errors the gate's Vitest child keeps of its runs (vitest-gate-child.ts): a file's or suite's
 * (by file and project) and the unhandled ones, each on one line.
 */
import type { Reporter, TestModule } from 'vitest/node';
import { firstLine } from './vitest-load.js';

function moduleErrorsOf(modules: readonly TestModule[]): { file: string; project: string; message: string }[] {
  const out: { file: string; project: string; message: string }[] = [];
  for (const module of modules) {
    const project = module.project.name;
    for (const error of module.errors()) out.push({ file: module.moduleId, project, message: firstLine(error) });
    for (const suite of module.children.allSuites()) {
      for (const error of suite.errors())
        out.push({ file: module.moduleId, project, message: `${suite.fullName}: ${firstLine(error)}` });
    }
  }
  return out;
}

type ErrorLike = { message?: string; cause?: { message?: string } };

/** An unhandled error's first line, and its cause's ("Worker forks emitted error: Worker exited unexpectedly"). */
function withCause(error: ErrorLike): string {
  const cause = error?.cause?.message === undefined ? '' : firstLine(error.cause);
  return cause === '' ? firstLine(error) : `${firstLine(error).replace(/\.$/, '')}: ${cause}`;
}

/** A reporter that keeps the errors of every run: a file's or suite's (by file and project) and the unhandled ones. */
export function collectErrors(): {
  reporter: Reporter;
  moduleErrors: Map<string, { file: string; project: string; message: string }>;
  unhandled: string[];
} {
  const moduleErrors = new Map<string, { file: string; project: string; message: string }>();
  const unhandled: string[] = [];
  const reporter: Reporter = {
    onTestRunEnd(modules, unhandledErrors) {
      for (const e of moduleErrorsOf(modules)) moduleErrors.set(JSON.stringify(e), e);
      unhandled.push(...unhandledErrors.map((e) => withCause(e as ErrorLike)));
    },
  };
  return { reporter, moduleErrors, unhandled };
}
