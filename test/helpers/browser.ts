/**
 * A headless Chromium for the HTML report tests that every machine with Node and the npm registry
 * has: the one shipped inside the `@sparticuz/chromium` package (a Linux x64 headless shell, its
 * NSS libraries and fonts, Brotli-packed), unpacked once into node_modules/.cache, driven by
 * `playwright-core` (1.57, the release built against Chromium 143, the packaged one). Where that
 * binary cannot run (another OS or CPU), a Chromium found on PATH is used; `FLAKEGUARD_CHROMIUM`
 * names one explicitly. Nothing is downloaded: `npm ci` brings all of it.
 */
import {
  createReadStream,
  createWriteStream,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import { createBrotliDecompress } from 'node:zlib';
import { chromium, type Browser as PlaywrightBrowser } from 'playwright-core';
import { extract } from 'tar-fs';
import { REPO_ROOT } from './fixture.js';

/** The flags this machine's Chromium needs: root user, no GPU, no network, no first-run UI. */
const FLAGS = [
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--no-first-run',
  '--disable-sync',
  '--disable-extensions',
  '--hide-scrollbars',
];
const LAUNCH_TIMEOUT_MS = 60_000;

interface Candidate {
  readonly source: string;
  readonly executable: () => Promise<{ path: string; env: Record<string, string> }>;
}

/** The folder and version of an installed package, found as Node resolves it (its `exports` hide package.json). */
function packageRoot(name: string): { root: string; version: string } {
  let dir = path.dirname(createRequire(import.meta.url).resolve(name, { paths: [REPO_ROOT] }));
  for (;;) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) {
      const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version: string };
      if (pkg.name === name) return { root: dir, version: pkg.version };
    }
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error(`${name} is installed without its package.json`);
    dir = parent;
  }
}

/** Unpacks the packaged Chromium once per version; concurrent callers race on a rename, not on files. */
async function unpackPackaged(): Promise<{ path: string; env: Record<string, string> }> {
  const { root, version } = packageRoot('@sparticuz/chromium');
  const bin = path.join(root, 'bin');
  const cache = path.join(REPO_ROOT, 'node_modules/.cache/flakeguard-chromium');
  const target = path.join(cache, version);
  if (!existsSync(path.join(target, 'ready'))) {
    mkdirSync(cache, { recursive: true });
    const staging = mkdtempSync(path.join(cache, `.staging-${version}-`));
    try {
      await pipeline(
        createReadStream(path.join(bin, 'chromium.br')),
        createBrotliDecompress(),
        createWriteStream(path.join(staging, 'chromium'), { mode: 0o755 }),
      );
      for (const pack of ['al2023', 'fonts', 'swiftshader']) {
        await pipeline(
          createReadStream(path.join(bin, `${pack}.tar.br`)),
          createBrotliDecompress(),
          extract(path.join(staging, pack)),
        );
      }
      writeFileSync(path.join(staging, 'ready'), version);
      // Never delete a finished copy: another test file may be starting Chromium from it.
      try {
        renameSync(staging, target);
      } catch (error) {
        if (!existsSync(path.join(target, 'ready'))) {
          // A half-made folder left by an interrupted unpack: move it aside, then put ours in place.
          const aside = `${target}.interrupted-${process.pid}`;
          renameSync(target, aside);
          rmSync(aside, { recursive: true, force: true });
          try {
            renameSync(staging, target);
          } catch {
            if (!existsSync(path.join(target, 'ready'))) throw error;
          }
        }
      }
    } finally {
      rmSync(staging, { recursive: true, force: true });
    }
  }
  const fontsConf = path.join(target, 'fonts.conf');
  if (!existsSync(fontsConf)) {
    writeFileSync(
      fontsConf,
      `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig><dir>${path.join(target, 'fonts')}</dir><cachedir>${path.join(target, 'fonts-cache')}</cachedir></fontconfig>\n`,
    );
  }
  const libs = [path.join(target, 'al2023/lib'), path.join(target, 'swiftshader'), process.env.LD_LIBRARY_PATH]
    .filter(Boolean)
    .join(path.delimiter);
  return { path: path.join(target, 'chromium'), env: { LD_LIBRARY_PATH: libs, FONTCONFIG_FILE: fontsConf } };
}

/** Chromium-family programs on PATH, in the order they are tried. */
function onPath(): string[] {
  const names = ['chromium', 'chromium-browser', 'google-chrome-stable', 'google-chrome', 'chrome'];
  const found: string[] = [];
  for (const dir of (process.env.PATH ?? '').split(path.delimiter).filter(Boolean)) {
    for (const name of names) {
      for (const file of [path.join(dir, name), path.join(dir, `${name}.exe`)]) {
        try {
          if (statSync(file).isFile()) found.push(file);
        } catch {
          // not here
        }
      }
    }
  }
  return found;
}

function candidates(): Candidate[] {
  const explicit = process.env.FLAKEGUARD_CHROMIUM;
  if (explicit)
    return [{ source: `FLAKEGUARD_CHROMIUM=${explicit}`, executable: async () => ({ path: explicit, env: {} }) }];
  return [
    { source: '@sparticuz/chromium (npm)', executable: unpackPackaged },
    ...onPath().map((file) => ({ source: `${file} (PATH)`, executable: async () => ({ path: file, env: {} }) })),
  ];
}

export interface Browser {
  /** Which Chromium runs ("@sparticuz/chromium (npm)", or a path). */
  readonly source: string;
  readonly browser: PlaywrightBrowser;
}

/**
 * Launches the first Chromium that starts (Playwright gives it a fresh profile folder, removed on
 * close). Throws, naming every candidate tried and why it failed, when none does.
 */
export async function launchBrowser(): Promise<Browser> {
  const failures: string[] = [];
  for (const candidate of candidates()) {
    try {
      const { path: executablePath, env } = await candidate.executable();
      const browser = await chromium.launch({
        executablePath,
        headless: true,
        args: FLAGS,
        env: { ...(process.env as Record<string, string>), ...env },
        timeout: LAUNCH_TIMEOUT_MS,
      });
      return { source: candidate.source, browser };
    } catch (error) {
      failures.push(`${candidate.source}: ${String(error instanceof Error ? error.message : error).split('\n')[0]}`);
    }
  }
  throw new Error(
    `no Chromium could start for the HTML report tests. Tried:\n  ${failures.join('\n  ') || '(none found)'}\n` +
      'Run `npm ci` (it installs @sparticuz/chromium), or set FLAKEGUARD_CHROMIUM to a Chromium executable.',
  );
}
