/**
 * One resource per test run for the global setups of several projects (the e2e tier is two
 * projects: `e2e` and `e2e-timing`, vitest.config.ts). Vitest loads a global setup file once per
 * project, each in its own module instance, but all of them run in its main process before the
 * first file and tear down after the last: the resource is kept on globalThis under its name, made
 * by the first project's setup, and disposed of by the last project's teardown.
 */
type Shared = { value: Promise<unknown>; users: number; dispose: () => void | Promise<void> };

const REGISTRY = Symbol.for('flakeguard.test.per-run');
type Registry = Map<string, Shared>;

function registry(): Registry {
  const holder = globalThis as { [REGISTRY]?: Registry };
  holder[REGISTRY] ??= new Map();
  return holder[REGISTRY];
}

/**
 * The run's `name` resource, made by `make` on the first call; `release` (the caller's teardown)
 * disposes of it when every caller has released it.
 */
export async function sharePerRun<T>(
  name: string,
  make: () => Promise<{ value: T; dispose: () => void | Promise<void> }>,
): Promise<{ value: T; release: () => Promise<void> }> {
  const all = registry();
  let entry = all.get(name);
  if (!entry) {
    const made: Shared = { value: Promise.resolve(), users: 0, dispose: () => undefined };
    made.value = make().then((m) => {
      made.dispose = m.dispose;
      return m.value;
    });
    all.set(name, made);
    entry = made;
  }
  entry.users += 1;
  const shared = entry;
  const value = (await shared.value) as T;
  let released = false;
  return {
    value,
    release: async () => {
      if (released) return;
      released = true;
      shared.users -= 1;
      if (shared.users > 0) return;
      all.delete(name);
      await shared.dispose();
    },
  };
}
