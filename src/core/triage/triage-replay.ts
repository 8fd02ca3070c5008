/**
 * The replay of a flake or escape (issue 46 item 4, docs/triage.md "Output"): where a run record
 * kept the seed the test's failed attempt started with (`seed: true`, docs/replay.md "Replays
 * from CI"), `flakeguard replay <file> -t <name> --seed <S>` draws what that attempt drew; where
 * no record did, the finding says "no seed recorded (seed: true records them)" instead, and never
 * calls a plain rerun a replay. Findings of a file, a suite or an unhandled error get none (a replay
 * runs one test). Pure.
 */
import { plainConditions, replayCommand } from '../replay/replay-command.js';
import type { Finding, FindingReplay, ObservedTest } from './triage-types.js';

/** What a flake or escape prints where the replay would be when no record kept its seed. */
export const NO_SEED_RECORDED = 'no seed recorded (seed: true records them)';

const sameTest = (f: Finding, o: ObservedTest): boolean =>
  o.kind === 'test' &&
  o.file === f.file &&
  o.fullName === f.fullName &&
  (f.project === null || o.project === null || o.project === f.project);

/** The replay of one finding, or null when it is not a flake or escape of one test. */
function replayOf(f: Finding, tests: readonly ObservedTest[]): FindingReplay | null {
  if ((f.class !== 'flake' && f.class !== 'escape') || f.file === null || f.fullName === null || f.fullName === '')
    return null;
  const observed = tests.filter((o) => sameTest(f, o));
  if (observed.length === 0) return null;
  const seeded = observed.find((o) => o.failedSeed !== undefined);
  if (seeded?.failedSeed === undefined) return { command: null, seed: null, note: NO_SEED_RECORDED };
  const seed = seeded.failedSeed;
  const conditions = {
    ...plainConditions({ file: f.file, fullName: f.fullName, project: f.project }),
    seed,
    nodeCrypto: seeded.seedNodeCrypto === true,
  };
  return {
    command: replayCommand(conditions),
    seed,
    note: 'the seed its failed attempt started with in the run',
  };
}

/** Each flake and escape of a test with its replay (the last step of computeTriage). */
export function attachReplays(findings: readonly Finding[], tests: readonly ObservedTest[]): Finding[] {
  return findings.map((f) => {
    const replay = replayOf(f, tests);
    return replay === null ? f : { ...f, replay };
  });
}
