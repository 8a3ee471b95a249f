export * from './adapter';
export { cleanText, firstLine } from './text';
export { claudeCodeAdapter } from './claude-code/claude-code.adapter';
export type { ClaudeCodeState } from './claude-code/state';
export { ACTIVITY_INTERVAL_MS } from './claude-code/emitter';
export { teamGroup } from './claude-code/files';
export { codexAdapter } from './codex/codex.adapter';
export type { CodexState } from './codex/state';
export { rolloutThreadId } from './codex/files';
export {
  HOOK_ADAPTER,
  type HookEvents,
  type HookView,
  answeredKeyPrefix,
  askKeyPrefix,
  claudeCodeHookEvents,
  hookNode,
  hookViewNeeds,
  keyTime,
  transcriptKeyRule,
} from './claude-code/hook-events';
export { geminiAdapter } from './gemini/gemini.adapter';
export type { GeminiState } from './gemini/state';
export { cursorAdapter } from './cursor/cursor.adapter';
export type { CursorState } from './cursor/state';
export { opencodeAdapter } from './opencode/opencode.adapter';
export type { OpencodeState } from './opencode/state';
