import { Controller, Get, Header } from '@nestjs/common';
import { errorsPage, referencePage } from './docs-pages';

/** The human API reference; readable without a key. */
@Controller('docs')
export class DocsController {
  private readonly reference = referencePage();
  private readonly errors = errorsPage();

  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  index(): string {
    return this.reference;
  }

  @Get('errors')
  @Header('Content-Type', 'text/html; charset=utf-8')
  errorReference(): string {
    return this.errors;
  }
}
