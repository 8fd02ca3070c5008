/**
 * The reports' inline stylesheet: system fonts only (no font files), one colour per tone, print
 * friendly. Kept free of data: nothing here is ever built from a report.
 */

/** Tone colours, shared with the SVG chart so a legend and a badge agree. */
export const TONE_COLOURS = {
  good: '#2b8a3e',
  warn: '#e67700',
  bad: '#c92a2a',
  info: '#1864ab',
  accent: '#5f3dc4',
  muted: '#868e96',
} as const;

export const PAGE_CSS = `
:root {
  --ink: #1f2328; --dim: #59636e; --line: #d8dee4; --paper: #ffffff; --wash: #f6f8fa;
  --good: ${TONE_COLOURS.good}; --good-bg: #ebfbee; --warn: ${TONE_COLOURS.warn}; --warn-bg: #fff4e6;
  --bad: ${TONE_COLOURS.bad}; --bad-bg: #fff5f5; --info: ${TONE_COLOURS.info}; --info-bg: #e7f5ff;
  --accent: ${TONE_COLOURS.accent}; --accent-bg: #f3f0ff; --muted: ${TONE_COLOURS.muted}; --muted-bg: #f1f3f5;
  --sans: system-ui, -apple-system, "Segoe UI", Roboto, "Noto Sans", "DejaVu Sans", "Liberation Sans", Arial, sans-serif;
  --mono: ui-monospace, "SFMono-Regular", "DejaVu Sans Mono", "Liberation Mono", Menlo, Consolas, monospace;
}
* { box-sizing: border-box; }
html { background: var(--wash); }
body { margin: 0; color: var(--ink); font: 15px/1.5 var(--sans); border-top: 6px solid var(--muted); }
body.good { border-top-color: var(--good); } body.bad { border-top-color: var(--bad); } body.warn { border-top-color: var(--warn); }
main { max-width: 1120px; margin: 0 auto; padding: 24px 28px 40px; }
header.top { display: flex; align-items: center; gap: 16px; flex-wrap: wrap; }
h1 { font-size: 26px; line-height: 1.2; margin: 0; font-weight: 650; letter-spacing: -0.01em; }
h2 { font-size: 17px; margin: 32px 0 10px; font-weight: 650; }
h3 { font-size: 15px; margin: 0; font-weight: 600; overflow-wrap: anywhere; }
p { margin: 6px 0; }
.sub { color: var(--dim); margin: 8px 0 0; }
.dim { color: var(--dim); font-weight: normal; }
code, pre, .mono { font-family: var(--mono); font-size: 13px; }
code { background: var(--muted-bg); padding: 1px 5px; border-radius: 4px; overflow-wrap: anywhere; }
.verdict { font-size: 15px; font-weight: 700; text-transform: uppercase; letter-spacing: 0.06em; padding: 5px 14px; border-radius: 999px; color: #fff; background: var(--muted); }
.verdict.good { background: var(--good); } .verdict.bad { background: var(--bad); } .verdict.warn { background: var(--warn); }
.tiles { display: flex; flex-wrap: wrap; gap: 10px; margin: 20px 0 4px; }
.tile { min-width: 118px; padding: 10px 14px; border-radius: 10px; border: 1px solid var(--line); background: var(--paper); border-left-width: 5px; }
.tile .count { display: block; font-size: 26px; font-weight: 700; line-height: 1.1; }
.tile .label { color: var(--dim); font-size: 13px; }
.tile.good { border-left-color: var(--good); } .tile.good .count { color: var(--good); }
.tile.warn { border-left-color: var(--warn); } .tile.warn .count { color: var(--warn); }
.tile.bad { border-left-color: var(--bad); } .tile.bad .count { color: var(--bad); }
.tile.info { border-left-color: var(--info); } .tile.info .count { color: var(--info); }
.tile.accent { border-left-color: var(--accent); } .tile.accent .count { color: var(--accent); }
.tile.muted { opacity: 0.55; }
.badge { display: inline-block; font-size: 12px; font-weight: 650; padding: 1px 8px; border-radius: 999px; white-space: nowrap; border: 1px solid transparent; vertical-align: 1px; }
.badge.good { color: var(--good); background: var(--good-bg); border-color: #b2f2bb; }
.badge.warn { color: #a35200; background: var(--warn-bg); border-color: #ffd8a8; }
.badge.bad { color: var(--bad); background: var(--bad-bg); border-color: #ffc9c9; }
.badge.info { color: var(--info); background: var(--info-bg); border-color: #a5d8ff; }
.badge.accent { color: var(--accent); background: var(--accent-bg); border-color: #d0bfff; }
.badge.muted { color: var(--dim); background: var(--muted-bg); border-color: var(--line); }
.panel { background: var(--paper); border: 1px solid var(--line); border-radius: 10px; padding: 14px 18px; }
.facts { display: grid; grid-template-columns: repeat(auto-fill, minmax(200px, 1fr)); gap: 6px 24px; margin: 0; }
.facts div { min-width: 0; }
.facts dt { color: var(--dim); font-size: 12px; text-transform: uppercase; letter-spacing: 0.04em; }
.facts dd { margin: 0; font-weight: 600; overflow-wrap: anywhere; }
.chart { background: var(--paper); border: 1px solid var(--line); border-radius: 10px; padding: 10px 8px 4px; }
.chart svg { display: block; width: 100%; height: auto; }
.legend { display: flex; flex-wrap: wrap; gap: 4px 18px; font-size: 13px; color: var(--dim); margin: 0 0 8px; }
.legend .key { display: inline-block; width: 14px; height: 10px; border-radius: 2px; margin-right: 6px; vertical-align: 0; }
.legend .line { display: inline-block; width: 16px; height: 0; border-top: 2px solid; margin-right: 6px; vertical-align: 4px; }
.cards { display: flex; flex-direction: column; gap: 12px; }
.card { background: var(--paper); border: 1px solid var(--line); border-radius: 10px; padding: 12px 16px; border-left: 5px solid var(--muted); }
.card.good { border-left-color: var(--good); } .card.warn { border-left-color: var(--warn); } .card.bad { border-left-color: var(--bad); }
.card.info { border-left-color: var(--info); } .card.accent { border-left-color: var(--accent); }
.card .head { display: flex; gap: 8px; align-items: baseline; flex-wrap: wrap; }
.card .where { color: var(--dim); font-family: var(--mono); font-size: 12.5px; overflow-wrap: anywhere; }
.card .figures { display: flex; flex-wrap: wrap; gap: 2px 20px; margin: 6px 0 2px; font-size: 14px; }
.card .figures b { font-weight: 650; }
.label-row { display: inline-block; min-width: 64px; color: var(--dim); font-size: 13px; }
details.pre { margin: 8px 0 0; }
details.pre summary { cursor: pointer; color: var(--dim); font-size: 13px; }
pre { margin: 6px 0 0; padding: 10px 12px; background: #f6f8fa; border: 1px solid var(--line); border-radius: 6px; white-space: pre-wrap; overflow-wrap: anywhere; max-height: 420px; overflow: auto; }
ul.plain { margin: 4px 0; padding-left: 20px; }
footer { margin-top: 36px; color: var(--dim); font-size: 12px; }
@media print { body { border-top: 0; } .chart, .card, .panel, .tile { break-inside: avoid; } details.pre pre { max-height: none; } }
`;
