/** One call of a repository method that `pnpm sql:sync` makes to capture the SQL it sends. */
export interface SqlExample {
  /** Tells apart several examples of one method (e.g. the branches of its SQL). */
  name?: string;
  params: unknown[];
}

const EXAMPLES = Symbol('sql examples');

type WithExamples = { [EXAMPLES]?: SqlExample[] };

/**
 * Marks a repository method that sends SQL: `pnpm sql:sync` calls it with each example's params
 * against a migrated database and writes the statements it sends to libs/db/sql/.
 */
export function GenerateSql(...examples: SqlExample[]): MethodDecorator {
  return (_target, _key, descriptor) => {
    (descriptor.value as WithExamples)[EXAMPLES] =
      examples.length > 0 ? examples : [{ params: [] }];
  };
}

/** The examples `method` was decorated with, or undefined when it is not decorated. */
export const sqlExamplesOf = (method: unknown): SqlExample[] | undefined =>
  typeof method === 'function' ? (method as WithExamples)[EXAMPLES] : undefined;
