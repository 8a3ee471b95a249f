import type { SourceLine, TranscriptFile } from '@graph-history/adapters';

type Obj = Record<string, unknown>;

/**
 * Writes Claude Code transcript lines of the shapes FORMAT.md documents, with increasing
 * timestamps, for scenarios the real fixtures do not contain (background agents, rejections…).
 */
export class TranscriptBuilder {
  readonly main: TranscriptFile;
  private clock: number;
  private uuid = 0;
  private readonly lineNos = new Map<string, number>();

  constructor(
    readonly sessionId = 'sess-1',
    readonly version = '2.1.39',
    start = Date.parse('2026-01-01T00:00:00.000Z'),
  ) {
    this.main = { path: `${sessionId}.jsonl`, id: sessionId, group: sessionId };
    this.clock = start;
  }

  /** The 2.x file of sub-agent `agentId`. */
  agentFile(agentId: string): TranscriptFile {
    return {
      path: `${this.sessionId}/subagents/agent-${agentId}.jsonl`,
      id: `${this.sessionId}/agent-${agentId}`,
      group: this.sessionId,
    };
  }

  /** A 2.1.x `agent-<id>.meta.json` beside the sub-agent's file (read whole, no newline). */
  agentMeta(agentId: string, meta: Obj): SourceLine {
    const file: TranscriptFile = {
      path: `${this.sessionId}/subagents/agent-${agentId}.meta.json`,
      id: `${this.sessionId}/agent-${agentId}.meta`,
      group: this.sessionId,
      whole: true,
    };
    return { file, lineNo: 1, text: JSON.stringify(meta) };
  }

  /** Advances the transcript clock; returns the time the next line gets. */
  tick(ms = 1_000): number {
    this.clock += ms;
    return this.clock;
  }

  get now(): number {
    return this.clock;
  }

  line(fields: Obj, file: TranscriptFile = this.main, extra: Obj = {}): SourceLine {
    const time = this.tick();
    const uuid = `u-${++this.uuid}`;
    const body = {
      parentUuid: null,
      isSidechain: file !== this.main,
      sessionId: this.sessionId,
      version: this.version,
      cwd: '/work/project',
      timestamp: new Date(time).toISOString(),
      uuid,
      ...fields,
      ...extra,
    };
    return this.raw(file, JSON.stringify(body));
  }

  /** A line with exactly this text (invalid JSON, blank lines, hand-made shapes). */
  raw(file: TranscriptFile, text: string): SourceLine {
    const lineNo = (this.lineNos.get(file.id) ?? 0) + 1;
    this.lineNos.set(file.id, lineNo);
    return { file, lineNo, text };
  }

  prompt(text: string, file?: TranscriptFile, extra?: Obj): SourceLine {
    return this.line({ type: 'user', message: { role: 'user', content: text } }, file, extra);
  }

  text(text: string, file?: TranscriptFile, extra?: Obj): SourceLine {
    return this.line(
      { type: 'assistant', message: { role: 'assistant', content: [{ type: 'text', text }] } },
      file,
      extra,
    );
  }

  toolUse(id: string, name: string, input: Obj, file?: TranscriptFile): SourceLine {
    return this.line(
      {
        type: 'assistant',
        message: { role: 'assistant', content: [{ type: 'tool_use', id, name, input }] },
      },
      file,
    );
  }

  toolResult(
    id: string,
    content: string,
    opts: { isError?: boolean; toolUseResult?: unknown } = {},
    file?: TranscriptFile,
  ): SourceLine {
    const block = {
      type: 'tool_result',
      tool_use_id: id,
      content,
      ...(opts.isError !== undefined ? { is_error: opts.isError } : {}),
    };
    return this.line(
      {
        type: 'user',
        message: { role: 'user', content: [block] },
        ...(opts.toolUseResult !== undefined ? { toolUseResult: opts.toolUseResult } : {}),
      },
      file,
    );
  }

  agentProgress(toolUseId: string, agentId: string): SourceLine {
    return this.line({
      type: 'progress',
      parentToolUseID: toolUseId,
      data: { type: 'agent_progress', agentId, prompt: '…' },
    });
  }

  waitingForTask(toolUseId: string, description: string): SourceLine {
    return this.line({
      type: 'progress',
      parentToolUseID: toolUseId,
      toolUseID: 'task-output-waiting-1',
      data: { type: 'waiting_for_task', taskDescription: description, taskType: 'local_agent' },
    });
  }

  system(subtype: string, extra: Obj = {}): SourceLine {
    return this.line({ type: 'system', subtype, ...extra });
  }

  notification(taskId: string, status: string, summary: string, queued: boolean): SourceLine {
    const content = `<task-notification>\n<task-id>${taskId}</task-id>\n<status>${status}</status>\n<summary>${summary}</summary>\n</task-notification>`;
    if (!queued) return this.prompt(content);
    const time = this.tick();
    return this.raw(
      this.main,
      JSON.stringify({
        type: 'queue-operation',
        operation: 'enqueue',
        timestamp: new Date(time).toISOString(),
        sessionId: this.sessionId,
        content,
      }),
    );
  }

  /** The first line of a sub-agent file: its prompt. */
  agentRoot(
    file: TranscriptFile,
    prompt: string,
    agentId: string,
    version = this.version,
  ): SourceLine {
    return this.line({ type: 'user', message: { role: 'user', content: prompt } }, file, {
      agentId,
      version,
      isSidechain: true,
    });
  }
}
