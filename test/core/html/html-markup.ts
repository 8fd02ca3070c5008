/**
 * A strict reader of the markup the HTML renderers write, for tests: every tag must be well formed
 * with double-quoted attribute values free of `"`, `<` and `>`; every `&` in text must start one of
 * the entities escapeHtml writes. Returns the page's skeleton (tags with their attribute names, and
 * the content of <style> blocks), so a test can assert that data never changes the markup.
 */

const TAG = /^<(\/?)([a-zA-Z][a-zA-Z0-9-]*)((?:\s+[a-zA-Z][a-zA-Z0-9:-]*(?:="[^"<>]*")?)*)\s*(\/?)>$/;
const ATTR = /\s+([a-zA-Z][a-zA-Z0-9:-]*)(?:="[^"<>]*")?/g;
const BAD_AMP = /&(?!(?:amp|lt|gt|quot|#39);)/;

class MarkupError extends Error {}

export function markupSkeleton(html: string): string[] {
  const out: string[] = [];
  const styles: string[] = [];
  const withoutStyles = html.replace(/<style>([\s\S]*?)<\/style>/g, (_m, css: string) => {
    styles.push(css);
    return '<style></style>';
  });
  for (const css of styles) out.push(`style{${css}}`);
  for (const m of withoutStyles.matchAll(/<[^>]*>|[^<]+|</g)) {
    const token = m[0];
    if (token === '<!DOCTYPE html>') continue;
    if (token.startsWith('<')) {
      const tag = TAG.exec(token);
      if (!tag) throw new MarkupError(`malformed tag at ${m.index}: ${JSON.stringify(token.slice(0, 120))}`);
      const attrs = [...(tag[3] ?? '').matchAll(ATTR)].map((a) => a[1]);
      out.push(`${tag[1]}${(tag[2] ?? '').toLowerCase()}(${attrs.join(',')})${tag[4]}`);
    } else {
      if (token.includes('>'))
        throw new MarkupError(`raw > in text at ${m.index}: ${JSON.stringify(token.slice(0, 120))}`);
      const amp = BAD_AMP.exec(token);
      if (amp)
        throw new MarkupError(
          `raw & in text at ${m.index + amp.index}: ${JSON.stringify(token.slice(amp.index, amp.index + 40))}`,
        );
    }
  }
  return out;
}

/** The same string with every UTF-16 unit but newline replaced by `a`: same length, same lines, no markup. */
function blandText(text: string): string {
  return text.replace(/[^\n]/g, 'a');
}

/** A deep copy of a JSON-like value with every string made bland (keys and enum values kept where asked). */
export function blandStrings<T>(
  value: T,
  keep: (path: readonly string[], text: string) => boolean,
  path: readonly string[] = [],
): T {
  if (typeof value === 'string') return (keep(path, value) ? value : blandText(value)) as T;
  if (Array.isArray(value)) return value.map((v, i) => blandStrings(v, keep, [...path, String(i)])) as T;
  if (value !== null && typeof value === 'object') {
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, blandStrings(v, keep, [...path, k])])) as T;
  }
  return value;
}
