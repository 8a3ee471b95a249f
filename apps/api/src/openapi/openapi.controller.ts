import { Controller, Get, Inject } from '@nestjs/common';
import { Config } from '@graph-history/config';
import { CONFIG } from '@graph-history/http';
import { publicBaseUrl } from '../public-urls';
import { openApiDocument } from './openapi.document';

/** The OpenAPI 3.1 document; readable without a key. */
@Controller('api/v1')
export class OpenApiController {
  private readonly document: object;

  constructor(@Inject(CONFIG) config: Config) {
    this.document = openApiDocument(publicBaseUrl(config));
  }

  @Get('openapi.json')
  get(): object {
    return this.document;
  }
}
