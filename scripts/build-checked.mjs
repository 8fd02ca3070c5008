// One TypeScript pass for `npm test`: type-checks everything tsconfig.json includes (src, test,
// bench, the Vitest configs) and emits src/ into dist/, laid out as `npm run build`
// (tsconfig.build.json) lays it out: dist/cli.js for src/cli.ts, so dist/ holds only the package
// (package.json "files") and test/helpers/dist-fresh.ts finds every src/**.ts built. It replaces
// `build` then `typecheck`, two programs that each checked all of src/.
// Usage: node scripts/build-checked.mjs   (exit 1 and the diagnostics when a file does not check)
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const SRC = path.join(ROOT, 'src');
const DIST = path.join(ROOT, 'dist');

const read = ts.readConfigFile(path.join(ROOT, 'tsconfig.json'), ts.sys.readFile);
const parsed = ts.parseJsonConfigFileContent(read.config, ts.sys, ROOT, { noEmit: false, outDir: DIST, rootDir: ROOT });
const program = ts.createProgram({ rootNames: parsed.fileNames, options: parsed.options });
const diagnostics = [...(read.error ? [read.error] : []), ...parsed.errors, ...ts.getPreEmitDiagnostics(program)];
const host = { getCanonicalFileName: (f) => f, getCurrentDirectory: () => ROOT, getNewLine: () => '\n' };
if (diagnostics.length > 0) {
  const format = process.stdout.isTTY ? ts.formatDiagnosticsWithColorAndContext : ts.formatDiagnostics;
  process.stderr.write(format(diagnostics, host));
  process.stderr.write(`\n${diagnostics.length} type error(s); nothing written to dist/\n`);
  process.exit(1);
}

/** dist/src/x.js (where the program's rootDir puts it) goes to dist/x.js; a map's sources follow it. */
function writeFile(file, text) {
  const target = path.join(DIST, path.relative(path.join(DIST, 'src'), file));
  let out = text;
  if (file.endsWith('.map')) {
    const map = JSON.parse(text);
    const toTarget = (s) => path.relative(path.dirname(target), path.resolve(path.dirname(file), s));
    map.sources = map.sources.map((s) => toTarget(s).split(path.sep).join('/'));
    out = JSON.stringify(map);
  }
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, out);
}

let emitted = 0;
for (const source of program.getSourceFiles()) {
  if (!source.fileName.startsWith(`${SRC}/`) || source.isDeclarationFile) continue;
  const result = program.emit(source, writeFile);
  if (result.emitSkipped) throw new Error(`TypeScript skipped emitting ${path.relative(ROOT, source.fileName)}`);
  emitted += 1;
}
console.log(`type-checked ${parsed.fileNames.length} files; built ${emitted} files of src/ into dist/`);
