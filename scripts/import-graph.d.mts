// Types of scripts/import-graph.mjs, for test/boundaries.test.ts.
export interface Import {
  readonly from: string;
  readonly to: string;
  readonly file: string;
  readonly spec: string;
}
export interface ImportGraph {
  readonly parts: readonly string[];
  readonly imports: readonly Import[];
}
export interface GraphFigures {
  readonly dir: string;
  readonly folders: number;
  readonly files: number;
  readonly imports: number;
  readonly pairs: number;
  readonly against: readonly Import[];
  readonly cycles: readonly { readonly parts: readonly string[]; readonly one: string }[];
}
export function importsOf(file: string): string[];
export function importGraph(dir: string): ImportGraph;
export function cyclesOf(graph: ImportGraph): string[][];
export function nameCycle(graph: ImportGraph, group: readonly string[]): string;
export function graphFigures(dir: string): GraphFigures;
