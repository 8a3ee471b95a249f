import { Controller, Get, Header, Inject } from '@nestjs/common';
import { Config } from '@graph-history/config';
import { CONFIG } from '@graph-history/http';
import { publicBaseUrl } from '../public-urls';
import { FAVICON } from './favicon';
import { HOME_CSP, homePage } from './home-page';

/** The landing page and the site icon; readable without a key. */
@Controller()
export class HomeController {
  private readonly page: string;

  constructor(@Inject(CONFIG) config: Config) {
    this.page = homePage(publicBaseUrl(config));
  }

  @Get()
  @Header('Content-Type', 'text/html; charset=utf-8')
  @Header('Content-Security-Policy', HOME_CSP)
  home(): string {
    return this.page;
  }

  @Get('favicon.ico')
  @Header('Content-Type', 'image/x-icon')
  @Header('Cache-Control', 'public, max-age=86400')
  favicon(): Buffer {
    return FAVICON;
  }
}
