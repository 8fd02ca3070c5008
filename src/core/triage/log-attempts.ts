/**
 * Vitest 5's FAIL lines name the attempts that failed with that error, after the test's name:
 * ` FAIL  a.test.ts > grp > name (initial run, 1st retry)`, `(1st repeat)`, `(2nd retry of 1st
 * repeat)`, `(2 times in initial run)`, `(2 times)` (vitest 5.1.2 `formatErrorAttempts`: labels joined
 * with ", "; shown only when the test ran more than once). Vitest 4 prints one FAIL block per failed
 * attempt with no label. This reads the label off the name, and judges what the failed attempts
 * prove: when an attempt that ran is not among the failed ones, the test passed it, so the run
 * itself measured a flake.
 */

/** One attempt: the repeat it belongs to (0 = the initial run) and the retry within it (0 = first try). */
export interface AttemptRef {
  readonly repeat: number;
  readonly retry: number;
}

const ORDINAL = String.raw`(\d+)(?:st|nd|rd|th)`;
const ONE = new RegExp(
  String.raw`^(?:(\d+) times(?: in )?)?(?:initial run|${ORDINAL} retry of ${ORDINAL} repeat|${ORDINAL} (retry|repeat))?$`,
);
const SUFFIX = /\s\(((?:\d+ times|initial run|\d+(?:st|nd|rd|th) (?:retry|repeat))[^()]*)\)$/;

function parseOne(item: string): AttemptRef | 'unlabelled' | null {
  const m = ONE.exec(item);
  if (!m || item === '') return null;
  if (item.startsWith('initial run') || / in initial run$/.test(item)) return { repeat: 0, retry: 0 };
  if (m[2] !== undefined && m[3] !== undefined) return { repeat: Number(m[3]), retry: Number(m[2]) };
  if (m[4] !== undefined && m[5] !== undefined)
    return m[5] === 'retry' ? { repeat: 0, retry: Number(m[4]) } : { repeat: Number(m[4]), retry: 0 };
  return m[1] !== undefined ? 'unlabelled' : null;
}

/**
 * Splits `name (initial run, 1st retry)` into the name and the failed attempts. Null when the name
 * has no attempt label (Vitest 4, or a test that ran once); a name that merely ends in parentheses
 * (`adds [1+1] (edge)`) is left whole.
 */
export function splitAttemptSuffix(
  fullName: string,
): { readonly fullName: string; readonly label: string; readonly attempts: readonly AttemptRef[] } | null {
  const m = SUFFIX.exec(fullName);
  if (!m?.[1]) return null;
  const attempts: AttemptRef[] = [];
  for (const item of m[1].split(', ')) {
    const one = parseOne(item);
    if (one === null) return null;
    if (one !== 'unlabelled') attempts.push(one);
  }
  return { fullName: fullName.slice(0, m.index), label: m[1], attempts };
}

export function formatAttempt(a: AttemptRef): string {
  const ord = (n: number): string =>
    `${n}${n % 10 === 1 && n % 100 !== 11 ? 'st' : n % 10 === 2 && n % 100 !== 12 ? 'nd' : n % 10 === 3 && n % 100 !== 13 ? 'rd' : 'th'}`;
  if (a.repeat > 0 && a.retry > 0) return `${ord(a.retry)} retry of ${ord(a.repeat)} repeat`;
  if (a.repeat > 0) return `${ord(a.repeat)} repeat`;
  if (a.retry > 0) return `${ord(a.retry)} retry`;
  return 'initial run';
}

export interface AttemptVerdict {
  /** Attempts that must have run and are not among the failed ones: the test passed them. */
  readonly passed: readonly AttemptRef[];
  readonly failed: readonly AttemptRef[];
}

/**
 * What the failed attempts of a test that ended failed prove. Repeats all run, so a repeat below
 * the highest failed one with no failure passed; retries run until a pass, so a repeat whose
 * retries stop below the highest retry seen in another repeat passed on its next retry. The
 * initial run passed when only later repeats failed.
 */
export function judgeAttempts(failed: readonly AttemptRef[]): AttemptVerdict {
  const unique = [...new Map(failed.map((a) => [`${a.repeat}:${a.retry}`, a])).values()].sort(
    (a, b) => a.repeat - b.repeat || a.retry - b.retry,
  );
  if (unique.length === 0) return { passed: [], failed: [] };
  const maxRepeat = Math.max(...unique.map((a) => a.repeat));
  const maxRetry = Math.max(...unique.map((a) => a.retry));
  const passed: AttemptRef[] = [];
  for (let repeat = 0; repeat <= maxRepeat; repeat += 1) {
    const retries = unique.filter((a) => a.repeat === repeat).map((a) => a.retry);
    if (retries.length === 0) {
      passed.push({ repeat, retry: 0 });
      continue;
    }
    const top = Math.max(...retries);
    // Retries run in order until one passes: a repeat that stopped below another repeat's retries passed.
    if (top < maxRetry) passed.push({ repeat, retry: top + 1 });
  }
  return { passed, failed: unique };
}
