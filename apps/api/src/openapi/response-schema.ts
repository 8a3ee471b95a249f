import { RouteSchema } from '@nestjs/platform-fastify';
import { PUBLIC_SCHEMAS, type PublicSchemaName } from '@graph-history/domain';

/**
 * The public schemas as the serializer reads them: without `required`, because fast-json-stringify
 * writes required properties before optional ones, while the schemas' property order (expansions
 * beside their `_id` field) is the field order. Presence is what the types and the OpenAPI
 * document (with `required`) guarantee.
 */
const withoutRequired = (schema: unknown): unknown => {
  if (Array.isArray(schema)) return schema.map(withoutRequired);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema)
      .filter(([key]) => key !== 'required')
      .map(([key, value]) => [key, withoutRequired(value)]),
  );
};

const serializerSchemas = withoutRequired(PUBLIC_SCHEMAS);

/**
 * Declares a route's 200 body as the named public object: Fastify compiles its serializer
 * (fast-json-stringify) from the schema the OpenAPI document serves, so the fields come out in the
 * schema's order and nothing undeclared leaves the API.
 */
export const RespondsWith = (name: PublicSchemaName) =>
  RouteSchema({
    response: {
      200: { $ref: `#/components/schemas/${name}`, components: { schemas: serializerSchemas } },
    },
  });
