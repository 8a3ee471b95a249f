import { Controller, Get, Headers, Param, Res } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import { resourceMissing } from '@graph-history/http';
import { ViewerAssets } from './viewer-assets';

/** The front end's script and stylesheet; their path changes with their content. */
@Controller('viewer')
export class ViewerAssetsController {
  constructor(private readonly assets: ViewerAssets) {}

  @Get(':hash/:file')
  file(
    @Param('hash') hash: string,
    @Param('file') file: string,
    @Headers('accept-encoding') encoding: string | undefined,
    @Res() reply: FastifyReply,
  ): void {
    const asset = this.assets.find(hash, file);
    if (!asset) throw resourceMissing(null, `No such viewer file: ${hash}/${file}.`);
    const gzip = /\bgzip\b/.test(encoding ?? '');
    reply
      .status(200)
      .headers({
        'Content-Type': asset.contentType,
        'Cache-Control': 'public, max-age=31536000, immutable',
        'X-Content-Type-Options': 'nosniff',
        Vary: 'Accept-Encoding',
        ...(gzip ? { 'Content-Encoding': 'gzip' } : {}),
      })
      .send(gzip ? asset.gzipped : asset.body);
  }
}
