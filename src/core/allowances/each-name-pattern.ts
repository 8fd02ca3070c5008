/** Row names of a `.each`/`.for` title template, as a regular expression. */

/**
 * A regular expression for the row names of a `.each`/`.for` title template: printf placeholders
 * (%s %d %i %f %j %o %O %c %#) and `$name` interpolations match any text; %% is a percent sign.
 */
export function eachNamePattern(template: string): RegExp {
  let source = '';
  const re = /%%|%[sdifjoOc#$]|\$[A-Za-z_$][\w$.]*/g;
  let last = 0;
  for (const m of template.matchAll(re)) {
    source += escapeRegExp(template.slice(last, m.index)) + (m[0] === '%%' ? '%' : '.*?');
    last = (m.index ?? 0) + m[0].length;
  }
  source += escapeRegExp(template.slice(last));
  return new RegExp(`^${source}$`, 's');
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
