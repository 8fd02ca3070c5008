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
  const reader = new SalvageReader(text);
  const partial = reader.partial;
  try {
    const value = reader.readValue();
    reader.ws();
    const stoppedAt = reader.i;
    return { value, complete: stoppedAt >= text.length, stoppedAt, partial };
  } catch (error) {
    if (error instanceof PartialStop) {
      partial.add(error.container);
      return { value: error.container, complete: false, stoppedAt: error.at, partial };
    }
    if (error instanceof Stop) return { value: undefined, complete: false, stoppedAt: error.at, partial };
    return { value: undefined, complete: false, stoppedAt: reader.i, partial };
  }
}

/** The reader's state (position, nesting depth, cut containers) and one method per JSON production. */
class SalvageReader {
  readonly partial = new Set<object>();
  i = 0;
  private depth = 0;

  constructor(private readonly text: string) {}

  ws(): void {
    const text = this.text;
    while (
      this.i < text.length &&
      (text[this.i] === ' ' || text[this.i] === '\n' || text[this.i] === '\r' || text[this.i] === '\t')
    )
      this.i += 1;
  }

  readString(): string {
    const text = this.text;
    const start = this.i;
    this.i += 1;
    while (this.i < text.length) {
      const c = text[this.i];
      if (c === '\\') this.i += 2;
      else if (c === '"') {
        this.i += 1;
        try {
          return JSON.parse(text.slice(start, this.i)) as string;
        } catch {
          throw new Stop(start);
        }
      } else if (c !== undefined && c < ' ') throw new Stop(start);
      else this.i += 1;
    }
    throw new Stop(start);
  }

  readLiteral(): unknown {
    const text = this.text;
    const m = /^(?:-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?|true|false|null)/.exec(text.slice(this.i, this.i + 64));
    if (!m) throw new Stop(this.i);
    const end = this.i + m[0].length;
    // A number at the very end may itself be cut (`12` of `123`): it is only complete when followed.
    if (end >= text.length && this.depth > 0 && /\d$/.test(m[0])) throw new Stop(this.i);
    this.i = end;
    return JSON.parse(m[0]) as unknown;
  }

  readValue(): unknown {
    this.ws();
    const c = this.text[this.i];
    if (c === '{' || c === '[') {
      this.depth += 1;
      const container = c === '{' ? this.readObject() : this.readArray();
      this.depth -= 1;
      return container;
    }
    if (c === '"') return this.readString();
    return this.readLiteral();
  }

  // Containers: on a Stop inside a member, keep the members read so far and pass the Stop up with
  // the container attached, so every level on the cut's path returns what it had.
  readObject(): Record<string, unknown> {
    const obj: Record<string, unknown> = {};
    this.i += 1;
    this.ws();
    if (this.text[this.i] === '}') {
      this.i += 1;
      return obj;
    }
    for (;;) {
      this.ws();
      if (this.text[this.i] !== '"') throw new PartialStop(this.i, obj);
      const key = this.guard(obj, () => this.readString());
      this.ws();
      if (this.text[this.i] !== ':') throw new PartialStop(this.i, obj);
      this.i += 1;
      const value = this.guard(
        obj,
        () => this.readValue(),
        (v) => {
          obj[key] = v;
        },
      );
      obj[key] = value;
      if (this.closeMember('}', obj)) return obj;
    }
  }

  readArray(): unknown[] {
    const arr: unknown[] = [];
    this.i += 1;
    this.ws();
    if (this.text[this.i] === ']') {
      this.i += 1;
      return arr;
    }
    for (;;) {
      const value = this.guard(
        arr,
        () => this.readValue(),
        (v) => {
          arr.push(v);
        },
      );
      arr.push(value);
      if (this.closeMember(']', arr)) return arr;
    }
  }

  /** After a member: steps over `,` (false: more follow) or the closing bracket (true); anything else is a cut. */
  private closeMember(close: '}' | ']', owner: object): boolean {
    this.ws();
    if (this.text[this.i] === ',') {
      this.i += 1;
      return false;
    }
    if (this.text[this.i] === close) {
      this.i += 1;
      return true;
    }
    throw new PartialStop(this.i, owner);
  }

  /** Runs `read`; when a child container was cut, attaches its partial value and re-throws. */
  private guard<T>(owner: object, read: () => T, attach?: (partialChild: unknown) => void): T {
    try {
      return read();
    } catch (error) {
      if (error instanceof PartialStop) {
        this.partial.add(error.container);
        if (attach && error.container !== owner) attach(error.container);
        this.partial.add(owner);
        throw new PartialStop(error.at, owner);
      }
      if (error instanceof Stop) {
        this.partial.add(owner);
        throw new PartialStop(error.at, owner);
      }
      throw error;
    }
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
