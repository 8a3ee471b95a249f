const ENTITIES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** Text made safe to place in HTML content and in quoted attribute values. */
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (c) => ENTITIES[c]!);

/** Markup already safe to emit: built by `markup`, never from untrusted text. */
export class SafeHtml {
  constructor(readonly html: string) {}

  toString(): string {
    return this.html;
  }
}

export type HtmlValue =
  SafeHtml | string | number | boolean | null | undefined | readonly HtmlValue[];

const render = (v: HtmlValue): string => {
  if (v instanceof SafeHtml) return v.html;
  if (v === null || v === undefined) return '';
  if (Array.isArray(v)) return v.map(render).join('');
  return escapeHtml(String(v));
};

/**
 * A template tag that escapes every interpolated value unless it is SafeHtml (another `markup`
 * result), so untrusted data can only ever land as text. (Not named `html`: Prettier would
 * reformat the markup inside, changing the page's text.)
 */
export function markup(strings: TemplateStringsArray, ...values: HtmlValue[]): SafeHtml {
  let out = strings[0]!;
  values.forEach((v, i) => {
    out += render(v) + strings[i + 1]!;
  });
  return new SafeHtml(out);
}
