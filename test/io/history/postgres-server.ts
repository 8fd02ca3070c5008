/**
 * A real PostgreSQL engine for the tests, started by the tests themselves: the server binaries of
 * the machine's PostgreSQL (found with `pg_config --bindir`; .ci/run installs Debian's package) in a
 * temp folder on a free port, as the `postgres` user when running as root (initdb refuses root).
 * On a machine without them (only Node and npm), the same tests run against PGlite's PostgreSQL
 * wire-protocol server from npm (@electric-sql/pglite-socket), reached through the same client.
 * FLAKEGUARD_TEST_PG=pglite picks the npm engine even where a server exists.
 */
import { execFile } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);

export interface PostgresServer {
  /** A URL for a superuser of the server's `postgres` database. */
  readonly url: string;
  readonly engine: 'postgresql' | 'pglite-socket';
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

async function findBindir(): Promise<string | null> {
  try {
    const { stdout } = await run('pg_config', ['--bindir']);
    const dir = stdout.trim();
    return existsSync(path.join(dir, 'initdb')) && existsSync(path.join(dir, 'pg_ctl')) ? dir : null;
  } catch {
    return null;
  }
}

/** As root: a command line run as the `postgres` user (runuser), and that user's ids. */
async function asServerUser(): Promise<{ wrap: (cmd: string[]) => string[]; uid: number; gid: number } | null> {
  if (process.getuid?.() !== 0) return { wrap: (cmd) => cmd, uid: -1, gid: -1 };
  try {
    const uid = Number((await run('id', ['-u', 'postgres'])).stdout.trim());
    const gid = Number((await run('id', ['-g', 'postgres'])).stdout.trim());
    await run('runuser', ['-u', 'postgres', '--', 'true']);
    return { wrap: (cmd) => ['runuser', '-u', 'postgres', '--', ...cmd], uid, gid };
  } catch {
    return null;
  }
}

async function startRealServer(bindir: string): Promise<PostgresServer | null> {
  const user = await asServerUser();
  if (!user) return null;
  const dir = mkdtempSync(path.join(os.tmpdir(), 'flakeguard-pg-'));
  if (user.uid >= 0) chownSync(dir, user.uid, user.gid);
  const data = path.join(dir, 'data');
  const exec = async (cmd: string[]): Promise<void> => {
    const [file, ...args] = user.wrap(cmd);
    await run(file!, args, { cwd: dir, timeout: 120_000 });
  };
  const port = await freePort();
  await exec([path.join(bindir, 'initdb'), '-D', data, '-U', 'flakeguard', '--auth=trust', '-E', 'UTF8', '--no-sync']);
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c synchronous_commit=off -c full_page_writes=off -c max_connections=60`;
  await exec([path.join(bindir, 'pg_ctl'), '-D', data, '-l', path.join(dir, 'server.log'), '-w', '-t', '120', '-o', options, 'start']);
  return {
    url: `postgres://flakeguard@127.0.0.1:${port}/postgres`,
    engine: 'postgresql',
    stop: async () => {
      await exec([path.join(bindir, 'pg_ctl'), '-D', data, '-m', 'immediate', '-w', 'stop']).catch(() => undefined);
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

async function startPgliteServer(): Promise<PostgresServer> {
  const { PGlite } = await import('@electric-sql/pglite');
  const { PGLiteSocketServer } = await import('@electric-sql/pglite-socket');
  const db = await PGlite.create();
  const port = await freePort();
  const server = new PGLiteSocketServer({ db, port, host: '127.0.0.1', maxConnections: 64 });
  await server.start();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/postgres`,
    engine: 'pglite-socket',
    stop: async () => {
      await server.stop();
      await db.close();
    },
  };
}

export async function startPostgres(): Promise<PostgresServer> {
  if (process.env['FLAKEGUARD_TEST_PG'] !== 'pglite') {
    const bindir = await findBindir();
    const real = bindir ? await startRealServer(bindir) : null;
    if (real) return real;
  }
  return startPgliteServer();
}
