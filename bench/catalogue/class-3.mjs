// Class 3: secrets. A history URL with a password in each wrong form, from each place it is read;
// the rule: the password never reaches a message (core/secrets.ts redactSecrets).
import { write } from './run-case.mjs';

const PASSWORD = 'Zq7Secret9pw';
const URLS = [
  `mysql://ci:${PASSWORD}@127.0.0.1:1/flakes`,
  `pg://ci:${PASSWORD}@127.0.0.1:1/flakes`,
  `postgresql+x://ci:${PASSWORD}@127.0.0.1:1/flakes`,
  `postgres://ci@127.0.0.1:1/flakes?password=${PASSWORD}`,
  `postgres://ci:Zq7@${PASSWORD}@127.0.0.1:1/flakes`,
];
const LOG = 'FAIL test/a.test.ts > plain\nAssertionError: boom\n';
const PLACES = [
  { where: '--url', what: 'history', command: (url) => ['history', '--url', url] },
  { where: '--url', what: 'history prune', command: (url) => ['history', 'prune', '--keep', '30d', '--url', url] },
  { where: 'FLAKEGUARD_HISTORY_URL', what: 'history', command: () => ['history'], env: true },
  {
    where: 'FLAKEGUARD_HISTORY_URL',
    what: 'triage --history',
    command: () => ['triage', '--log', 'ci/log.txt', '--exit-code', '1', '--history', '--branch', 'main'],
    env: true,
  },
  { where: 'FLAKEGUARD_HISTORY_URL', what: 'the reporter', command: () => ['vitest'], env: true },
  { where: 'history.url', what: 'history', command: () => ['history'], config: true },
  { where: 'history.url', what: 'the reporter', command: () => ['vitest'], config: true },
];
const leaked = (run) =>
  [PASSWORD, 'Secret9pw'].some((s) => `${run.stdout}${run.stderr}`.includes(s)) ? 'the password is printed' : '';

export const CASES = PLACES.flatMap((p) =>
  URLS.map((url) => ({
    class: 3,
    case: `${p.where}: ${p.what} <${url.replace(PASSWORD, 'PASSWORD')}>`,
    command: p.command(url),
    env: p.env ? { FLAKEGUARD_HISTORY_URL: url } : {},
    setup: (dir) => {
      write(dir, 'ci/log.txt', LOG);
      if (p.config) write(dir, 'flakeguard.yaml', `history:\n  url: ${JSON.stringify(url)}\n`);
    },
    check: leaked,
  })),
);
