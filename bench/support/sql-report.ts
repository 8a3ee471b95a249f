import { readFileSync } from 'node:fs';

/** What bench/support/capture-sql.js wrote for one distinct statement. */
export interface CapturedStatement {
  text: string;
  count: number;
  totalMs: number;
  plan: string | null;
  planMs: number;
}

export const readCaptured = (file: string): CapturedStatement[] =>
  JSON.parse(readFileSync(file, 'utf8')) as CapturedStatement[];

const oneLine = (sql: string) => sql.replace(/\s+/g, ' ').trim();

/**
 * The statements a process ran, by total time from call to answer (as its pg client saw it,
 * queueing included), each with auto_explain's EXPLAIN (ANALYZE, BUFFERS) of its slowest run.
 */
export function sqlMarkdown(title: string, statements: CapturedStatement[], top = 8): string {
  const hot = statements
    .filter((s) => s.count > 0 && !/^(begin|commit|rollback)$/i.test(s.text))
    .sort((a, b) => b.totalMs - a.totalMs)
    .slice(0, top);
  return [
    `### ${title}`,
    '',
    '| # | statement | calls | total ms | mean ms |',
    '|---:|---|---:|---:|---:|',
    ...hot.map(
      (s, i) =>
        `| ${i + 1} | \`${oneLine(s.text).slice(0, 90).replace(/\|/g, '\\|')}…\` | ${s.count} | ${s.totalMs.toFixed(0)} | ${(s.totalMs / s.count).toFixed(2)} |`,
    ),
    '',
    ...hot.flatMap((s, i) => [
      `#### ${title} #${i + 1}`,
      '',
      '```sql',
      oneLine(s.text).length > 1500 ? `${oneLine(s.text).slice(0, 1500)} …` : s.text,
      '```',
      '',
      s.plan
        ? `Slowest run (${s.planMs.toFixed(2)} ms):\n\n\`\`\`\n${s.plan}\n\`\`\``
        : '_No plan captured (not run while auto_explain was on)._',
      '',
    ]),
  ].join('\n');
}
