/**
 * The triage report as one self-contained HTML page: the run's verdict, the count per class with a
 * proportional bar, and every finding with its cause, evidence (folded when long), whether it was
 * measured or inferred, and what to do. Pure: takes exactly what `flakeguard triage --json` prints.
 */

import { describeCause } from '../cause/cause.js';
import { formatOwners } from '../owners/codeowners.js';
import { projectTag } from '../test-id.js';
import { checkLines } from '../triage/triage-caught-by.js';
import type { FindingClass } from '../triage/triage-config.js';
import type { TriageJson } from '../triage/triage-format.js';
import { badge, countTile, foldedPre, h, plural, renderPage, type Tone } from './html-page.js';

const CLASS_ORDER: readonly FindingClass[] = ['infrastructure', 'escape', 'flake', 'budget'];

const CLASS_TONE: Readonly<Record<FindingClass, Tone>> = {
  infrastructure: 'warn',
  escape: 'bad',
  flake: 'info',
  budget: 'accent',
};

const CLASS_MEANS: Readonly<Record<FindingClass, string>> = {
  infrastructure: 'the environment or tooling failed, not the code under test',
  escape: 'fails and reproduces: a defect that got past earlier checks',
  flake: 'did not reproduce on re-run, or passed on a retry',
  budget: 'assertions passed, but a test or file took longer than its limit',
};

type TriageFinding = TriageJson['findings'][number];

function subject(f: TriageFinding): string {
  if (f.fullName !== null) return `${f.fullName}${projectTag(f.project)}`;
  if (f.file !== null) return `${f.file}${projectTag(f.project)}`;
  return 'the run';
}

function classBar(report: TriageJson): string {
  const total = report.findings.length;
  if (total === 0) return '';
  const parts = CLASS_ORDER.filter((c) => report.counts[c] > 0).map((c) => {
    const share = Math.round((report.counts[c] / total) * 1000) / 10;
    return `<span class="seg ${CLASS_TONE[c]}" style="width:${share}%" title="${h(`${c}: ${report.counts[c]}`)}">${share >= 9 ? h(c) : ''}</span>`;
  });
  return `<div class="classbar" role="img" aria-label="${h(CLASS_ORDER.map((c) => `${c} ${report.counts[c]}`).join(', '))}">${parts.join('')}</div>`;
}

function findingCard(f: TriageFinding, index: number): string {
  const tone = CLASS_TONE[f.class];
  const owners = formatOwners(f.owners);
  const place = [f.fullName !== null && f.file !== null ? f.file : '', owners].filter((x) => x !== '').join(' \u00b7 ');
  const where = place === '' ? '' : `<div class="where">${h(place)}</div>`;
  return [
    `<article class="card ${tone}" id="finding-${index + 1}">`,
    '<div class="head">',
    `<span class="dim">${index + 1}.</span>`,
    badge(tone, f.class),
    f.measured
      ? badge('good', 'measured', 'a re-run or a measurement confirmed it')
      : badge('muted', 'inferred', 'inferred from patterns only, not confirmed by a re-run'),
    `<h3>${h(subject(f))}</h3>`,
    '</div>',
    where,
    ...checkLines(f).map((line) => `<p class="dim">${h(line)}</p>`),
    `<p><span class="label-row">cause</span>${h(f.cause)}</p>`,
    f.evidence.length > 0 ? foldedPre('Evidence', f.evidence) : '<p class="dim">No evidence lines.</p>',
    `<p><span class="label-row">action</span><b>${h(f.action)}</b></p>`,
    f.flakeCause
      ? `<p>${h(describeCause(f.flakeCause, 'why'))}</p><p><span class="label-row">fix</span>${h(f.flakeCause.fix)}</p>`
      : '',
    replayLine(f),
    `<p class="dim">rule: <code>${h(f.rule)}</code></p>`,
    '</article>',
  ].join('');
}

/** The replay of the seed that failed in CI (as the text and Markdown print it), or why there is none. */
function replayLine(f: TriageFinding): string {
  const r = f.replay;
  if (!r) return '';
  if (r.command === null) return `<p class="replay"><span class="label-row">replay</span>${h(r.note)}</p>`;
  return `<p class="replay"><span class="label-row">replay</span><code>${h(r.command)}</code> <span class="dim">${h(r.note)}</span></p>`;
}

const TRIAGE_CSS =
  '.classbar{display:flex;height:26px;border-radius:6px;overflow:hidden;margin:14px 0 0;border:1px solid var(--line)}' +
  '.classbar .seg{display:flex;align-items:center;justify-content:center;color:#fff;font-size:12px;font-weight:650;white-space:nowrap;overflow:hidden}' +
  '.seg.warn{background:var(--warn)}.seg.bad{background:var(--bad)}.seg.info{background:var(--info)}.seg.accent{background:var(--accent)}' +
  '.means{color:var(--dim);margin:-4px 0 10px;font-size:14px}';

export function renderTriageHtml(report: TriageJson): string {
  const red = report.verdict === 'red';
  const n = report.findings.length;
  const measured = report.findings.filter((f) => f.measured).length;
  const exit = report.exitCode === null ? 'exit code unknown' : `exit code ${report.exitCode}`;
  const counts = CLASS_ORDER.map((c) => `${c} ${report.counts[c]}`).join(', ');
  const sections: string[] = [];
  let index = 0;
  for (const c of CLASS_ORDER) {
    const group = report.findings.filter((f) => f.class === c);
    if (group.length === 0) continue;
    const cards = group.map((f) => findingCard(f, index++));
    sections.push(
      `<h2>${h(`${c} (${group.length})`)}</h2><p class="means">${h(CLASS_MEANS[c])}</p><div class="cards">${cards.join('')}</div>`,
    );
  }
  const body = [
    `<header class="top"><h1>flakeguard triage</h1><span class="verdict ${red ? 'bad' : 'good'}">run ${red ? 'red' : 'green'}</span></header>`,
    `<p class="sub">${h(`${exit} \u00b7 ${plural(n, 'finding')}: ${counts}`)}</p>`,
    n > 0
      ? `<p class="sub">${h(`${measured} measured (confirmed by a re-run or a measurement), ${n - measured} inferred from patterns only.`)}</p>`
      : '',
    `<div class="tiles">${CLASS_ORDER.map((c) => countTile(CLASS_TONE[c], report.counts[c], c)).join('')}</div>`,
    classBar(report),
    ...sections,
    n === 0 ? `<p>${red ? 'No findings.' : 'The run was green: nothing to act on.'}</p>` : '',
  ].join('\n');
  return renderPage({
    title: `flakeguard triage: run ${report.verdict}, ${plural(n, 'finding')}`,
    tone: red ? 'bad' : 'good',
    body,
    css: TRIAGE_CSS,
    footer: `flakeguard triage report \u00b7 JSON schema version ${report.version}`,
  });
}
