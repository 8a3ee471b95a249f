import {
  Type,
  type SchemaOptions,
  type Static,
  type TSchema,
  type TUnsafe,
} from '@sinclair/typebox';

/**
 * Small builders over TypeBox for the public objects' schemas: each yields plain JSON Schema
 * (draft 2020-12, as OpenAPI 3.1 and fast-json-stringify read it) and carries its TypeScript type.
 */

export const int = (options: SchemaOptions = {}) => Type.Integer(options);
export const str = (options: SchemaOptions = {}) => Type.String(options);
export const bool = (options: SchemaOptions = {}) => Type.Boolean(options);

/** `type: [T, 'null']`: one branch-free type test for validators and the serializer. */
export const nullable = <T extends TSchema & { type: string }>(schema: T) =>
  Type.Unsafe<Static<T> | null>({ ...schema, type: [schema.type, 'null'] });

/** `enum: [...]` of string values (and null when listed). */
export const oneOf = <const V extends readonly (string | null)[]>(
  values: V,
  options: SchemaOptions = {},
) => Type.Unsafe<V[number]>({ ...options, enum: [...values] });

/** A reference to another public object's schema in the OpenAPI document's components. */
export const ref = <T>(name: string, options: SchemaOptions = {}) =>
  Type.Unsafe<T>({ ...options, $ref: `#/components/schemas/${name}` });

/** An object whose listed properties are all present (unless Optional) and nothing else. */
export const closed = <P extends Parameters<typeof Type.Object>[0]>(
  properties: P,
  options: SchemaOptions = {},
) => Type.Object(properties, { ...options, additionalProperties: false });

export type { Static, TSchema, TUnsafe };

/** The property names of an object schema, in its order: the order of the fields on the wire. */
export const fieldOrder = (schema: { properties: object }): readonly string[] =>
  Object.keys(schema.properties);

/** A copy of `value` with its fields in `order` (absent ones left out). */
export function inFieldOrder<T>(order: readonly string[], value: Record<string, unknown>): T {
  const out: Record<string, unknown> = {};
  for (const field of order) if (value[field] !== undefined) out[field] = value[field];
  return out as T;
}
