/**
 * Kept stores for bench/history-scale.mjs --keep: an embedded store of one shape (results, tests,
 * runs a day) built once into <folder>/embedded-<results>-<tests>t-<perDay>d, and reused for
 * MAX_AGE after its build: the queries' windows end now, and the runs end when it was built (a day
 * before), so by then --since 7d would start to leave runs of the 2 M store out. A marker file
 * written after the build says the store is whole: a folder without one (a build stopped half-way)
 * is built again.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { buildSynthetic, uptime } from './history-scale-lib.mjs';

const MAX_AGE_MS = 12 * 3_600_000;

/** The open kept store of this shape, built first when there is none (or it is stale or half-built). */
export async function keptStore(openHistoryStore, folder, shape, out) {
  const name = `embedded-${shape.results}-${shape.tests}t-${shape.perDay}d`;
  const dir = path.resolve(folder, name);
  const marker = `${dir}.json`;
  const target = { kind: 'embedded', folder: dir };
  if (existsSync(marker)) {
    const built = JSON.parse(readFileSync(marker, 'utf8'));
    const age = Date.now() - Date.parse(built.builtAt);
    if (age < MAX_AGE_MS) {
      const store = await openHistoryStore(target, { wait: 'history-command' });
      const tests = await store.query('SELECT project, file, name AS "fullName" FROM flakeguard_tests ORDER BY id');
      out(
        `kept store ${dir}: ${built.results} results in ${built.runs} runs, built ${built.builtAt} (${(age / 3_600_000).toFixed(1)} h ago); ${uptime()}`,
      );
      return { store, built: { ...built, tests } };
    }
    out(`kept store ${dir}: built ${built.builtAt}, over ${MAX_AGE_MS / 3_600_000} h ago; building it again`);
  }
  rmSync(marker, { force: true });
  rmSync(dir, { recursive: true, force: true });
  const store = await openHistoryStore(target, { wait: 'history-command' });
  const built = await buildSynthetic(store, shape, out);
  writeFileSync(
    marker,
    `${JSON.stringify({ results: built.results, runs: built.runs, builtAt: new Date().toISOString() }, null, 2)}\n`,
  );
  return { store, built };
}
