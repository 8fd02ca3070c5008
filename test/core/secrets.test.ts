import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseConfig } from '../../src/core/config.js';
import { redactSecrets, secretsOf } from '../../src/core/secrets.js';

const configMessage = (url: string): string => {
  try {
    parseConfig(`history:\n  url: ${JSON.stringify(url)}\n`, 'flakeguard.yaml');
  } catch (error) {
    return (error as Error).message;
  }
  return 'accepted';
};

describe('redactSecrets: the password is gone, the rest of the URL stays', () => {
  it.each([
    ['mysql://ci:hunter22@db/flakes', 'mysql://ci:***@db/flakes'],
    ['pg://ci:hunter22@db/flakes', 'pg://ci:***@db/flakes'],
    ['postgresql+x://ci:hunter22@db:5432/flakes', 'postgresql+x://ci:***@db:5432/flakes'],
    ['postgres://ci:p@ss@word@db/flakes', 'postgres://ci:***@db/flakes'],
    [
      'postgres://ci@db/flakes?sslmode=require&password=hunter22',
      'postgres://ci@db/flakes?sslmode=require&password=***',
    ],
    ['postgres://ci:ab@db/flakes', 'postgres://ci:***@db/flakes'],
    ["host=db user=ci password='hunter 22'", 'host=db user=ci password=***'],
    ['postgres://ci@db:5432/flakes', 'postgres://ci@db:5432/flakes'],
    // A URL-shaped value that is no valid URL (a space in the password) is still masked (issue 48).
    ['postgres://ci:pass Wrd9Secret@h/x', 'postgres://ci:***@h/x'],
    [
      '--url "postgres://ci:pass Wrd9Secret@h/x" is not a PostgreSQL URL',
      '--url "postgres://ci:***@h/x" is not a PostgreSQL URL',
    ],
  ])('%s', (url, shown) => {
    expect(redactSecrets(url)).toBe(shown);
  });

  it('a driver message quoting part of a known URL loses the part too', () => {
    expect(redactSecrets('getaddrinfo ENOTFOUND word@db near "p@ss@word"', ['postgres://ci:p@ss@word@db/x'])).toBe(
      'getaddrinfo ENOTFOUND ***@db near "***"',
    );
  });

  it('history.url in flakeguard.yaml with a wrong scheme is quoted without its password', () => {
    expect(configMessage('mysql://ci:hunter22@db/flakes')).toContain(
      'history.url "mysql://ci:***@db/flakes" is not a PostgreSQL URL',
    );
  });
});

// Passwords long enough to be told apart from the rest of a message, with the characters that break parsers.
const RAW = fc.stringMatching(/^[A-Za-z0-9@:/?#%=!$._~+-]{8,24}$/);
const PLAIN = fc.stringMatching(/^[A-Za-z0-9@:/%!$._~+-]{8,24}$/);
const SCHEME = fc.constantFrom('postgres', 'postgresql', 'mysql', 'pg', 'postgresql+x', 'redis', 'http');
const USER = fc.stringMatching(/^[a-z]{0,8}$/);
type Place = (scheme: string, user: string, password: string) => string;
const PLACES: readonly Place[] = [
  (s, u, p) => `${s}://${u}:${p}@db.example:5432/flakes`,
  (s, u, p) => `${s}://${u}:${encodeURIComponent(p)}@db.example/flakes?sslmode=require`,
  (s, u, p) => `${s}://${u}@db.example/flakes?password=${encodeURIComponent(p)}`,
  (s, u, p) => `${s}://${u}@db.example/flakes?application_name=x&sslpassword=${p.replace(/[?#&]/g, '')}&x=1`,
  (s, u, p) => `${s}://${u}:${p}@db.example/flakes?password=${encodeURIComponent(p)}`,
  (_s, u, p) => `host=db.example user=${u} password='${p}'`,
  // Not a valid URL: a space in the password, as a user may paste it (issue 48).
  (s, u, p) => `${s}://${u}:${p.slice(0, 4)} ${p.slice(4)}@db.example/flakes`,
];

describe('property: no message built with redactSecrets holds the password', () => {
  it('for a URL with the password in every place, every scheme, alone or inside a driver message', () => {
    fc.assert(
      fc.property(SCHEME, USER, RAW, PLAIN, fc.nat(PLACES.length - 1), (scheme, user, raw, plain, which) => {
        const place = PLACES[which] as Place;
        const password = which === 3 ? plain.replace(/[?#&]/g, '') : raw;
        if (password.length < 8) return;
        const spaced = which === PLACES.length - 1;
        const url = place(scheme, user, password);
        // As the URL holds it: with its space when spaced (and the text after the space, on its own).
        const secret = spaced ? `${password.slice(0, 4)} ${password.slice(4)}` : password;
        const hidden = spaced ? [secret, password.slice(4)] : [password, encodeURIComponent(password)];
        const messages = [
          redactSecrets(url),
          redactSecrets(`--url "${url}" is not a PostgreSQL URL`),
          redactSecrets(`cannot connect to ${url}: connect ECONNREFUSED 127.0.0.1:5432`, [url]),
          redactSecrets(`password authentication failed near "${secret}" (${encodeURIComponent(secret)})`, [url]),
          configMessage(url),
        ];
        for (const message of messages) for (const h of hidden) expect(message).not.toContain(h);
      }),
      { numRuns: 500 },
    );
  });

  it('secretsOf finds the password of the userinfo in every reading', () => {
    fc.assert(
      fc.property(SCHEME, USER, RAW, (scheme, user, password) => {
        expect(secretsOf(`${scheme}://${user}:${password}@db/x`)).toContain(password);
      }),
    );
  });
});
