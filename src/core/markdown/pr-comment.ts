/**
 * A pull-request comment from a report: a hidden marker line first (a sticky-comment step finds its
 * own comment by it and edits it instead of adding one per push), the verdict and what to do first,
 * then sections; a long section is folded in `<details>`, and the whole never goes over GitHub's
 * comment limit: sections keep their order, items are taken while they fit, and each cut section
 * says how many items it left out. Pure.
 */

/** GitHub's limit on a comment body, in characters. */
export const GITHUB_COMMENT_LIMIT = 65_536;
/** A section with more items than this is folded. */
export const FOLD_ABOVE = 10;
/** One item is cut to this many characters (a 100 kB error message stays a line). */
export const MAX_ITEM_CHARS = 2_000;

export interface CommentSection {
  readonly title: string;
  /** Lines before the items (a table's header); kept whenever the section is. */
  readonly head?: readonly string[];
  /** One entry per test or finding: a line, or a few lines. */
  readonly items: readonly string[];
  /** Fold even when short (evidence, allowance YAML). */
  readonly folded?: boolean;
}

export interface PrComment {
  /** `flakeguard:gate` gives `<!-- flakeguard:gate -->`. */
  readonly marker: string;
  /** The verdict and what to do first, as Markdown lines. */
  readonly headline: readonly string[];
  readonly sections: readonly CommentSection[];
  /** Small print at the end (the load the gate measured). */
  readonly footer?: readonly string[];
}

function commentMarker(marker: string): string {
  return `<!-- ${marker.replace(/--/g, '-')} -->`;
}

/** Text safe inside a `<summary>` or a table cell. */
function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

function cutItem(item: string): string {
  return item.length <= MAX_ITEM_CHARS ? item : `${item.slice(0, MAX_ITEM_CHARS - 1)}…`;
}

function omittedLine(n: number): string {
  return `_… and ${n} more not shown: a comment holds at most ${GITHUB_COMMENT_LIMIT.toLocaleString('en-US')} characters; the full list is in the command's --json output._`;
}

/**
 * The section with `items` shown and `omitted` counted. Folding and the summary's count go by the
 * section's whole list, so a trial render (no items, a count of what would be left) has the layout
 * of the final one: a section that folds, folds in every estimate too.
 */
function renderSection(section: CommentSection, items: readonly string[], omitted: number): string {
  const count = section.items.length;
  const body = [...(section.head ?? []), ...items];
  const tail = omitted > 0 ? ['', omittedLine(omitted)] : [];
  if (section.folded || count > FOLD_ABOVE) {
    return [
      '<details>',
      `<summary>${escapeHtml(section.title)} (${count})</summary>`,
      '',
      ...body,
      ...tail,
      '',
      '</details>',
      '',
    ].join('\n');
  }
  return [`#### ${section.title}`, '', ...body, ...tail, ''].join('\n');
}

/** The comment as Markdown, at most `limit` characters. */
export function buildPrComment(comment: PrComment, limit = GITHUB_COMMENT_LIMIT): string {
  const top = `${[commentMarker(comment.marker), ...comment.headline, ''].join('\n')}\n`;
  const bottom = comment.footer && comment.footer.length > 0 ? `${comment.footer.join('\n')}\n` : '';
  const sections = comment.sections.filter((s) => s.items.length > 0);
  // What every section costs with no item but the line that says how many were left out.
  const skeleton = sections.map((s) => renderSection(s, [], s.items.length).length + 1);
  let room = limit - top.length - bottom.length - skeleton.reduce((a, b) => a + b, 0);
  const parts: string[] = [];
  sections.forEach((section, i) => {
    room += skeleton[i] ?? 0;
    const kept: string[] = [];
    // Each item adds its length and a newline to the section's text; the count line changes with what is left.
    let keptChars = 0;
    for (const raw of section.items) {
      const item = cutItem(raw);
      const left = section.items.length - kept.length - 1;
      if (renderSection(section, [], left).length + keptChars + item.length + 1 + 1 > room) break;
      kept.push(item);
      keptChars += item.length + 1;
    }
    const text = `${renderSection(section, kept, section.items.length - kept.length)}\n`;
    room -= text.length;
    parts.push(text);
  });
  const whole = `${top}${parts.join('')}${bottom}`;
  // Only a headline or footer longer than the limit gets here: cut it, and say so.
  if (whole.length <= limit) return whole;
  const note = '\n\n_(cut at the comment limit)_\n';
  return `${whole.slice(0, limit - note.length)}${note}`;
}
