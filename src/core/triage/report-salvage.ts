/**
 * Salvages a JSON document that was cut off or corrupted (a Vitest JSON report cut at 160 KiB):
 * a tolerant recursive-descent reader that keeps every value it read completely and marks the
 * containers it could not finish. It never throws. Only complete values are ever returned as
 * complete; the caller decides what to do with the partial containers on the cut's path.
 */

export interface SalvageResult {
  /** The top-level value as far as it could be read (undefined when nothing could). */
  readonly value: unknown;
  /** True when the whole text was one valid JSON value. */
  readonly complete: boolean;
  /** Character index where reading stopped (the cut or the first invalid character). */
  readonly stoppedAt: number;
  /** Objects and arrays that were cut off (they hold only their complete members). */
  readonly partial: ReadonlySet<object>;
}

class Stop {
  constructor(readonly at: number) {}
}

export function salvageJson(text: string): SalvageResult {
  const partial = new Set<object>();
  let i = 0;
  let depth = 0;
  const ws = (): void => {
    while (i < text.length && (text[i] === ' ' || text[i] === '\n' || text[i] === '\r' || text[i] === '\t')) i += 1;
  };
  const readString = (): string => {
    const start = i;
    i += 1;
    while (i < text.length) {
      const c = text[i];
      if (c === '\\') i += 2;
      else if (c === '"') {
        i += 1;
        try {
          return JSON.parse(text.slice(start, i)) as string;
        } catch {
          throw new Stop(start);
        }
      } else if (c !== undefined && c < ' ') throw new Stop(start);
      else i += 1;
    }
    throw new Stop(start);
  };
  const readLiteral = (): unknown => {
    const m = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(i, i + 64));
    if (!m) throw new Stop(i);
    const end = i + m[0].length;
    // A number at the very end may itself be cut (`12` of `123`): it is only complete when followed.
    if (end >= text.length && depth > 0 && /\d$/.test(m[0])) throw new Stop(i);
    i = end;
    return JSON.parse(m[0]) as unknown;
  };
  const readValue = (): unknown => {
    ws();
    const c = text[i];
    if (c === '{' || c === '[') {
      depth += 1;
      const container = c === '{' ? readObject() : readArray();
      depth -= 1;
      return container;
    }
    if (c === '"') return readString();
    return readLiteral();
  };
  // Containers: on a Stop inside a member, keep the members read so far and pass the Stop up with
  // the container attached, so every level on the cut's path returns what it had.
  const readObject = (): Record<string, unknown> => {
    const obj: Record<string, unknown> = {};
    i += 1;
    ws();
    if (text[i] === '}') {
      i += 1;
      return obj;
    }
    for (;;) {
      ws();
      if (text[i] !== '"') throw new PartialStop(i, obj);
      const key = guard(obj, readString);
      ws();
      if (text[i] !== ':') throw new PartialStop(i, obj);
      i += 1;
      const value = guard(obj, readValue, (v) => {
        obj[key] = v;
      });
      obj[key] = value;
      ws();
      if (text[i] === ',') i += 1;
      else if (text[i] === '}') {
        i += 1;
        return obj;
      } else throw new PartialStop(i, obj);
    }
  };
  const readArray = (): unknown[] => {
    const arr: unknown[] = [];
    i += 1;
    ws();
    if (text[i] === ']') {
      i += 1;
      return arr;
    }
    for (;;) {
      const value = guard(arr, readValue, (v) => {
        arr.push(v);
      });
      arr.push(value);
      ws();
      if (text[i] === ',') i += 1;
      else if (text[i] === ']') {
        i += 1;
        return arr;
      } else throw new PartialStop(i, arr);
    }
  };
  /** Runs `read`; when a child container was cut, attaches its partial value and re-throws. */
  function guard<T>(owner: object, read: () => T, attach?: (partialChild: unknown) => void): T {
    try {
      return read();
    } catch (error) {
      if (error instanceof PartialStop) {
        partial.add(error.container);
        if (attach && error.container !== owner) attach(error.container);
        partial.add(owner);
        throw new PartialStop(error.at, owner);
      }
      if (error instanceof Stop) {
        partial.add(owner);
        throw new PartialStop(error.at, owner);
      }
      throw error;
    }
  }
  try {
    const value = readValue();
    ws();
    if (i < text.length) return { value, complete: false, stoppedAt: i, partial };
    return { value, complete: true, stoppedAt: i, partial };
  } catch (error) {
    if (error instanceof PartialStop) {
      partial.add(error.container);
      return { value: error.container, complete: false, stoppedAt: error.at, partial };
    }
    if (error instanceof Stop) return { value: undefined, complete: false, stoppedAt: error.at, partial };
    return { value: undefined, complete: false, stoppedAt: i, partial };
  }
}

class PartialStop extends Stop {
  constructor(
    at: number,
    readonly container: object,
  ) {
    super(at);
  }
}
