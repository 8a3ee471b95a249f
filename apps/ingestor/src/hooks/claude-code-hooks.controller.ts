import { Body, Controller, HttpCode, Param, Post, Req } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import { CurrentPrincipal, Principal } from '@graph-history/http';
import { bodyBytes } from '../ingest/ingest.controller';
import { CLAUDE_CODE_HOOKS_PATH } from './claude-code-hooks-route';
import { ClaudeCodeHooksService } from './claude-code-hooks.service';

/**
 * 204 with no body: Claude Code reads a 2xx body as the hook's output, and an empty one as
 * "nothing to say", so the hook never changes what the agent does.
 */
@Controller(CLAUDE_CODE_HOOKS_PATH)
export class ClaudeCodeHooksController {
  constructor(private readonly hooks: ClaudeCodeHooksService) {}

  @Post()
  @HttpCode(204)
  async accept(
    @CurrentPrincipal() principal: Principal,
    @Param('graph_key') graphKey: string,
    @Body() body: unknown,
    @Req() req: FastifyRequest,
  ): Promise<void> {
    await this.hooks.receive(principal, graphKey, body, {
      bytes: bodyBytes(req, body),
      authorization: req.headers.authorization,
    });
  }
}
