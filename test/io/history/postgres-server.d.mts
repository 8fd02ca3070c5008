/** Types of postgres-server.mjs. */
export interface PostgresServer {
  /** A URL for a superuser of the server's `postgres` database. */
  readonly url: string;
  readonly engine: 'postgresql' | 'pglite-socket';
  stop(): Promise<void>;
}

export function startPostgres(): Promise<PostgresServer>;
