import { Controller, Get, Header } from '@nestjs/common';
import { DOCS_CSP, errorsPage, referencePage } from './docs-pages';

/** The human API reference; readable without a key. */
@Controller('docs')
export class DocsController {
  private readonly reference = referencePage();
  private readonly errors = errorsPage();

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
