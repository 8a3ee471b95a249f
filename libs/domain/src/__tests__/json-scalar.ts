import fc from 'fast-check';

/** Any value JSON.stringify writes as a scalar (or drops, for undefined), strings of any text. */
export const jsonScalar = fc.oneof(
  fc.constant(undefined),
  fc.constant(null),
  fc.boolean(),
  fc.integer(),
  fc.double(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme', maxLength: 3 }),
);
