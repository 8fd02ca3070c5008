/**
 * A real PostgreSQL engine for the tests, started by the tests themselves: the server binaries of
 * the machine's PostgreSQL (found with `pg_config --bindir`; .ci/run installs Debian's package) in a
 * temp folder on a free port, as the `postgres` user when running as root (initdb refuses root).
 * On a machine without them (only Node and npm), the same tests run against PGlite's PostgreSQL
 * wire-protocol server from npm (@electric-sql/pglite-socket), reached through the same client.
 * FLAKEGUARD_TEST_PG=pglite picks the npm engine even where a server exists.
 * Plain JavaScript (types in postgres-server.d.mts) so bench/history.mjs starts the same engine.
 */
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, realpathSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** @returns {Promise<number>} */
async function freePort() {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = /** @type {net.AddressInfo} */ (server.address());
      server.close(() => resolve(port));
    });
  });
}

/** @param {string} dir */
const hasServer = (dir) => existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'pg_ctl'));

/**
 * The folder of initdb and pg_ctl: `pg_config --bindir`, else the folder of an `initdb` on PATH,
 * else Debian's layout (/usr/lib/postgresql/<version>/bin, the newest version).
 * @returns {Promise<string | null>}
 */
async function findBindir() {
  const candidates = [];
  try {
    candidates.push((await run('pg_config', ['--bindir'])).stdout.trim());
  } catch {
    // no pg_config on PATH
  }
  for (const dir of (process.env['PATH'] ?? '').split(path.delimiter)) {
    if (dir && existsSync(path.join(dir, 'initdb')))
      candidates.push(path.dirname(realpathSync(path.join(dir, 'initdb'))));
  }
  const debian = '/usr/lib/postgresql';
  if (existsSync(debian)) {
    const versions = readdirSync(debian)
      .filter((v) => /^\d+$/.test(v))
      .sort((a, b) => Number(b) - Number(a));
    candidates.push(...versions.map((v) => path.join(debian, v, 'bin')));
  }
  return candidates.find(hasServer) ?? null;
}

/** As root: a command line run as the `postgres` user (runuser), and that user's ids. */
async function asServerUser() {
  if (process.getuid?.() !== 0) return { wrap: (/** @type {string[]} */ cmd) => cmd, uid: -1, gid: -1 };
  try {
    const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
    const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
    await run('runuser', ['-u', 'postgres', '--', 'true']);
    return { wrap: (/** @type {string[]} */ cmd) => ['runuser', '-u', 'postgres', '--', ...cmd], uid, gid };
  } catch {
    return null;
  }
}

/** @param {string} bindir */
async function startRealServer(bindir) {
  const user = await asServerUser();
  if (!user) return null;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-pg-'));
  if (user.uid >= 0) chownSync(dir, user.uid, user.gid);
  const data = path.join(dir, 'data');
  const exec = async (/** @type {string[]} */ cmd) => {
    const [file, ...args] = user.wrap(cmd);
    await run(/** @type {string} */ (file), args, { cwd: dir, timeout: 120_000 });
  };
  const port = await freePort();
  await exec([path.join(bindir, 'initdb'), '-D', data, '-U', 'flakeguard', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=60`;
  await exec([
    path.join(bindir, 'pg_ctl'),
    '-D',
    data,
    '-l',
    path.join(dir, 'server.log'),
    '-w',
    '-t',
    '120',
    '-o',
    options,
    'start',
  ]);
  return {
    url: `postgres://flakeguard@127.0.0.1:${port}/postgres`,
    engine: /** @type {const} */ ('postgresql'),
    stop: async () => {
      await exec([path.join(bindir, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function startPgliteServer() {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const db = await PGlite.create();
  const port = await freePort();
  const server = new PGLiteSocketServer({ db, port, host: '127.0.0.1', maxConnections: 64 });
  await server.start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    engine: /** @type {const} */ ('pglite-socket'),
    stop: async () => {
      await server.stop();
      await db.close();
    },
  };
}

/** @returns {Promise<import('./postgres-server.d.mts').PostgresServer>} */
export async function startPostgres() {
  if (process.env['FLAKEGUARD_TEST_PG'] !== 'pglite') {
    const bindir = await findBindir();
    const real = bindir ? await startRealServer(bindir) : null;
    if (real) return real;
  }
  return startPgliteServer();
}
