import Ajv2020 from 'ajv/dist/2020';
import type { HttpResponse } from './http';

type OpenApi = {
  paths: Record<
    string,
    { get: { responses: Record<string, { content?: Record<string, { schema: object }> }> } }
  >;
};

/**
 * Validates real responses against the response schemas the served OpenAPI 3.1 document declares
 * for an operation and status.
 */
export class OpenApiResponses {
  private readonly ajv = new Ajv2020({ strict: false, allErrors: true });

  constructor(private readonly doc: OpenApi) {
    this.ajv.addSchema({ ...doc, $id: 'openapi.json' });
  }

  /** Schema errors of `res` for GET `pathTemplate` (e.g. `/api/v1/graphs/{graph_id}`); [] when it conforms. */
  errors(pathTemplate: string, res: HttpResponse): string[] {
    const op = this.doc.paths[pathTemplate]?.get;
    if (!op) return [`the document has no GET ${pathTemplate}`];
    const response = op.responses[String(res.status)];
    if (!response) return [`the document declares no ${res.status} for GET ${pathTemplate}`];
    if (!response.content) return res.text === '' ? [] : [`${res.status} should have no body`];
    const pointer = `openapi.json#/paths/${pathTemplate.replace(/~/g, '~0').replace(/\//g, '~1')}/get/responses/${res.status}/content/application~1json/schema`;
    const validate = this.ajv.getSchema(pointer);
    if (!validate) return [`cannot resolve ${pointer}`];
    if (validate(res.body)) return [];
    return (validate.errors ?? []).map(
      (e) => `${e.instancePath || '/'} ${e.message} ${JSON.stringify(e.params)}`,
    );
  }
}
