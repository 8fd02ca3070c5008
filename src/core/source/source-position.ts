/** Offsets in a source text to the 1-based line and column Vitest reports, with a lazy line index. */
export interface SourcePosition {
  readonly line: number;
  readonly column: number;
}

export function createLineIndex(code: string): (offset: number) => SourcePosition {
  let lineStarts: number[] | null = null;
  return (offset) => {
    if (lineStarts === null) {
      lineStarts = [0];
      for (let i = 0; i < code.length; i++) if (code.charCodeAt(i) === 10) lineStarts.push(i + 1);
    }
    const starts = lineStarts;
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= offset) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: offset - (starts[lo] ?? 0) + 1 };
  };
}
