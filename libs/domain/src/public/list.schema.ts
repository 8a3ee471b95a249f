import { Type, type Static, type TSchema, type TUnsafe } from '@sinclair/typebox';
import { bool, closed, nullable, str } from './json-schema';

/** The list envelope of every list, with `data` items of `item`. */
export const listSchema = <T extends TSchema>(item: T, description: string) =>
  closed(
    {
      object: Type.Literal('list'),
      url: str({
        description:
          'This list with every parameter that defined it, including as_of; add starting_after for the next page.',
      }),
      as_of_event_id: nullable(
        str({ description: 'The event the list is as of; null for the graph list.' }),
      ),
      has_more: bool(),
      data: Type.Array(item),
    },
    { description },
  );

export type ListEnvelope<T> = Static<ReturnType<typeof listSchema<TUnsafe<T>>>>;
