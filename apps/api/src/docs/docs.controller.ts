import { Controller, Get, Header, Inject } from '@nestjs/common';
import { Config } from '@graph-history/config';
import { CONFIG } from '@graph-history/http';
import { publicBaseUrl } from '../public-urls';
import { DOCS_CSP, errorsPage, referencePage } from './docs-pages';

/** The human API reference; readable without a key. */
@Controller('docs')
export class DocsController {
  private readonly reference: string;
  private readonly errors = errorsPage();

  constructor(@Inject(CONFIG) config: Config) {
    this.reference = referencePage(publicBaseUrl(config));
  }

  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Content-Security-Policy', DOCS_CSP)
  index(): string {
    return this.reference;
  }

  @Get('errors')
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Content-Security-Policy', DOCS_CSP)
  errorReference(): string {
    return this.errors;
  }
}
