/** `flakeguard history [--test] [--file] [--branch] [--since] [--json | --markdown <file>] [--html <file>]`. */
import path from 'node:path';
import { parseArgs } from 'node:util';
import { parseAge } from '../../core/history/history-age.js';
import { formatHistoryMarkdown, formatHistoryReport } from '../../core/history/history-format.js';
import { renderHistoryHtml } from '../../core/history/history-html.js';
import { computeHistoryReport, toHistoryJson } from '../../core/history/history-report.js';
import { systemClock } from '../../io/clock.js';
import { writeFileAtomic } from '../../io/files/atomic-write.js';
import { writeHtmlReport } from '../../io/files/html-file.js';
import { readHistoryInput } from '../../io/history/history-query.js';
import { openHistoryStore } from '../../io/history/history-store.js';
import { HISTORY_HELP, historyUsage, resolveHistoryPlace } from './history-place.js';

function parse(args: string[]) {
  try {
    return parseArgs({
      args,
      allowPositionals: false,
      options: {
        test: { type: 'string' },
        file: { type: 'string' },
        branch: { type: 'string' },
        since: { type: 'string', default: '30d' },
        top: { type: 'string', default: '10' },
        json: { type: 'boolean' },
        markdown: { type: 'string' },
        html: { type: 'string' },
        root: { type: 'string' },
        url: { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
    }).values;
  } catch (error) {
    throw historyUsage((error as Error).message);
  }
}

export async function runHistoryQuery(args: string[]): Promise<number> {
  const flags = parse(args);
  if (flags.help) {
    process.stdout.write(`${HISTORY_HELP}\n`);
    return 0;
  }
  if (flags.json && flags.markdown !== undefined) throw historyUsage('--json and --markdown are exclusive');
  const age = parseAge(flags.since, systemClock.now());
  if (!age.ok) throw historyUsage(`--since ${age.message}`);
  if (!/^\d+$/.test(flags.top) || Number(flags.top) < 1) throw historyUsage(`--top "${flags.top}" must be a whole number of at least 1`);
  const place = resolveHistoryPlace(flags);
  const query = { since: age.since, branch: flags.branch ?? null, test: flags.test ?? null, file: flags.file ?? null, top: Number(flags.top) };
  const filter = { cutoffMs: age.cutoffMs, branch: query.branch, test: query.test, file: query.file };
  const store = await openHistoryStore(place.target, { mustExist: true }).catch((error: unknown) => {
    throw historyUsage(`cannot open the history store: ${(error as Error).message}`);
  });
  let input;
  try {
    input = await readHistoryInput(store, filter, query);
  } finally {
    await store.close();
  }
  const report = computeHistoryReport(input);
  if (flags.html !== undefined) {
    const written = writeHtmlReport(flags.html, renderHistoryHtml(report));
    process.stderr.write(`flakeguard: history page ${path.relative(process.cwd(), written) || written}\n`);
  }
  if (flags.markdown !== undefined) writeFileAtomic(path.resolve(flags.markdown), formatHistoryMarkdown(report));
  process.stdout.write(flags.json ? `${JSON.stringify(toHistoryJson(report), null, 2)}\n` : formatHistoryReport(report));
  return 0;
}
