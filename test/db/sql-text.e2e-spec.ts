import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  GeneratedSql,
  SQL_DIR,
  undeclaredMethods,
  unlistedRepositoryFiles,
} from '../../libs/db/src/sql-text/sql-text';
import { generateOnScratchDatabase } from '../../libs/db/src/sql-text/scratch-database';
import { TEST_DB_PREFIX } from '../support/database-url';

/** Where `generated` first differs from `committed`: the line number and both lines. */
function firstDifference(committed: string, generated: string): string {
  const a = committed.split('\n');
  const b = generated.split('\n');
  const line = a.findIndex((l, i) => l !== b[i]);
  const at = line === -1 ? a.length : line;
  return `line ${at + 1}:\n  committed: ${a[at] ?? '(end of file)'}\n  generated: ${b[at] ?? '(end of file)'}`;
}

/** What `pnpm sql:sync` would change in libs/db/sql: one message per stale, missing or extra file. */
function staleFiles(generated: Map<string, string>): string[] {
  const committed = existsSync(SQL_DIR) ? readdirSync(SQL_DIR) : [];
  const problems = committed
    .filter((file) => !generated.has(file))
    .map((file) => `libs/db/sql/${file} belongs to no repository`);
  for (const [file, text] of generated) {
    const path = join(SQL_DIR, file);
    if (!existsSync(path)) problems.push(`libs/db/sql/${file} is missing`);
    else {
      const old = readFileSync(path, 'utf8');
      if (old !== text) {
        problems.push(`libs/db/sql/${file} is stale, ${firstDifference(old, text)}`);
      }
    }
  }
  return problems;
}

/** libs/db/sql holds the SQL every repository method sends, as the code sends it today. */
describe('the committed SQL text', () => {
  let generated: GeneratedSql;

  beforeAll(async () => {
    const name = `${TEST_DB_PREFIX}sql_${randomBytes(4).toString('hex')}`;
    generated = await generateOnScratchDatabase(process.env.DATABASE_URL!, name);
  });

  it('is what the repositories send now (else run `pnpm sql:sync` and commit libs/db/sql)', () => {
    expect(generated.failed).toEqual([]);
    const problems = staleFiles(generated.files);
    if (problems.length > 0) {
      throw new Error(`Run \`pnpm sql:sync\` and commit libs/db/sql:\n${problems.join('\n')}`);
    }
  });

  it('names the stale file and its first changed line when a statement changes', () => {
    const files = new Map(generated.files);
    const text = files.get('account.repository.sql')!;
    files.set('account.repository.sql', text.replace('"accounts"', '"accounts_v2"'));
    files.delete('trim.repository.sql');
    const problems = staleFiles(files);
    expect(problems).toHaveLength(2);
    expect(problems[0]).toBe('libs/db/sql/trim.repository.sql belongs to no repository');
    expect(problems[1]).toMatch(
      /^libs\/db\/sql\/account\.repository\.sql is stale, line \d+:\n {2}committed: +"accounts"\n {2}generated: +"accounts_v2"$/,
    );
  });

  it('covers every repository file', () => {
    expect(unlistedRepositoryFiles()).toEqual([]);
  });

  it('covers every public repository method: each has @GenerateSql examples or is listed in SENDS_NO_SQL', () => {
    expect(undeclaredMethods()).toEqual([]);
  });
});
