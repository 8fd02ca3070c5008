/**
 * The one redaction of connection strings for messages: a password never reaches a message, whatever
 * the scheme (`postgres://`, `mysql://`, `pg://`, `postgresql+x://`) and whatever a parser makes of
 * the string (an unescaped `@` or `:` in the password, `?password=` in the query, libpq's
 * `password=...` keyword form). Pure.
 *
 * `redactSecrets(text, known)` redacts `text` in two passes: by shape (`scheme://user:***@`, up to
 * the last `@` of the token, or of the quotes around it, spaces and all; `password=***` and other secret-named parameters), then by value: every
 * password found in `text` itself and in the `known` connection strings (as written, decoded and
 * encoded, and its pieces between `@`/`:`) is replaced wherever it appears, so a driver's error that
 * quotes part of a URL leaks nothing either.
 */
const REDACTED = '***';

/** Parameter names that hold a secret (`password`, `sslpassword`, `pwd`, `pass`, `token`, `secret`, `apikey`). */
const SECRET_KEY = '[A-Za-z_-]*(?:pass|pwd|secret|token|api[-_]?key)[A-Za-z_-]*';
const SECRET_PARAM = new RegExp(
  `(^|[?&;,\\s"'(])(${SECRET_KEY})(\\s*=\\s*)('(?:[^'\\\\]|\\\\.)*'|"(?:[^"\\\\]|\\\\.)*"|[^&;,\\s#"')]*?)(?=[&;,\\s#"')]|:(?:\\s|$)|$)`,
  'gi',
);
/** `scheme://user:password@`: the password runs to the last `@` before a space or a quote. */
const USERINFO = /([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^\s:/@"'`]*):([^\s"'`]*)@/g;
/** A quoted URL (`"postgres://ci:pass Wrd9Secret@h/x"`): inside the quotes its password may hold spaces. */
const QUOTED_USERINFO = /(["'`])([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^\s:/@"'`]*):([^"'`\n]*)@([^"'`\n@]*)\1/g;
/** The word our own hints use (`postgres://user:password@host`): shown as written. */
const PLACEHOLDER = 'password';
/** A value that starts as a URL: `scheme://`. */
const URL_START = /^[A-Za-z][A-Za-z0-9+.-]*:\/\//;
/** Pieces shorter than this are not searched for on their own (they would blank ordinary words). */
const MIN_PIECE = 4;

function decode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The passwords a connection string holds, in every reading a parser might make of it. */
export function secretsOf(connection: string): string[] {
  const found = new Set<string>();
  const add = (value: string): void => {
    const unquoted = /^(['"]).*\1$/s.test(value) ? value.slice(1, -1) : value;
    for (const v of [unquoted, decode(unquoted), encodeURIComponent(unquoted)]) {
      if (v !== '') found.add(v);
      for (const piece of v.split(/[@:]/)) if (piece.length >= MIN_PIECE) found.add(piece);
    }
  };
  const scheme = connection.indexOf('://');
  // A whole message is searched by its URL tokens (redactSecrets); a string with spaces is not one
  // URL, unless it starts as one: a value given as a URL whose password has a space is still a
  // URL-shaped value (`postgres://ci:pass Wrd9Secret@h/x`), and its password runs to an `@` as well.
  const trimmed = connection.trim();
  if (scheme >= 0 && (!/\s/.test(trimmed) || URL_START.test(trimmed))) {
    const rest = connection.slice(scheme + 3);
    const colon = rest.indexOf(':');
    for (const at of [rest.indexOf('@'), rest.lastIndexOf('@')]) {
      if (colon >= 0 && at > colon) add(rest.slice(colon + 1, at));
    }
  }
  for (const m of connection.matchAll(SECRET_PARAM)) add(m[4] ?? '');
  return [...found];
}

/** A connection string inside a message runs to the next space or quote. */
const URL_TOKEN = /[A-Za-z][A-Za-z0-9+.-]*:\/\/[^\s"'`]*/g;

/** `text` with every password replaced by `***`: by shape, then every value of `text` and `known`. */
export function redactSecrets(text: string, known: readonly string[] = []): string {
  const tokens = [...text.matchAll(URL_TOKEN)].map((m) => m[0]);
  const found = [text, ...tokens].flatMap(secretsOf).filter((s) => s !== PLACEHOLDER);
  const secrets = [...new Set([...found, ...known.flatMap(secretsOf)])]
    .filter((s) => s !== REDACTED)
    .sort((a, b) => b.length - a.length);
  // A password with a space first, whole: the shapes below stop at the space and would cut it.
  let out = secrets
    .filter((s) => /\s/.test(s) && s.trim().length >= MIN_PIECE)
    .reduce((t, secret) => t.split(secret).join(REDACTED), text)
    .replace(QUOTED_USERINFO, (whole, quote: string, scheme: string, user: string, password: string, rest: string) =>
      password === PLACEHOLDER ? whole : `${quote}${scheme}${user}:${REDACTED}@${rest}${quote}`,
    )
    .replace(USERINFO, (whole, scheme: string, user: string, password: string) =>
      password === PLACEHOLDER ? whole : `${scheme}${user}:${REDACTED}@`,
    )
    .replace(SECRET_PARAM, `$1$2$3${REDACTED}`);
  for (const secret of secrets) {
    // A short password is replaced only where it stands whole (`:pw@`, `=pw`): elsewhere it would blank ordinary words.
    if (secret.length < MIN_PIECE)
      out = out.split(`:${secret}@`).join(`:${REDACTED}@`).split(`=${secret}`).join(`=${REDACTED}`);
    else out = out.split(secret).join(REDACTED);
  }
  return out;
}
