import type { Notice } from './types/resources.js';

const MAX_TEXT = 80;
const cut = (text: string) => (text.length > MAX_TEXT ? `${text.slice(0, MAX_TEXT - 1)}…` : text);

/**
 * What a notice says, in a few words a person reads at a glance: whose, what, why (`agent "Plan
 * the migration" needs you (permission: Allow rm?)`). The CLI and the viewer print this.
 */
export function noticeSummary(n: Notice): string {
  const d = n.data;
  if (!('kind' in d)) return `graph ${n.graph_id} stopped applying: ${cut(d.reason)}`;
  const who = `${d.kind}${d.title ? ` ${JSON.stringify(cut(d.title))}` : ''}`;
  switch (n.type) {
    case 'node.input_required': {
      const a = d.attention;
      return `${who} needs you${a ? ` (${a.reason}${a.message ? `: ${cut(a.message)}` : ''})` : ''}`;
    }
    case 'node.failed':
      return `${who} failed${d.headline ? `: ${cut(d.headline)}` : ''}`;
    case 'node.wait_cycle':
      return `${who} is in a wait cycle (a deadlock)`;
    default:
      return `${who} ended (${d.state})`;
  }
}
