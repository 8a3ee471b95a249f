import { existsSync } from 'node:fs';
import { defaultCodexSessionsDir } from './codex-projects';
import { defaultCursorProjectsDir } from './cursor-projects';
import { defaultGeminiProjectsDir } from './gemini-projects';
import { legacyStorageOf } from './opencode/legacy-storage';
import { defaultOpencodeDb } from './opencode/opencode-db';
import { defaultProjectsDir } from './projects';

/** Providers `watch` reads; `--provider` picks one. */
export const PROVIDERS = ['claude-code', 'codex', 'gemini-cli', 'cursor', 'opencode'] as const;
export type Provider = (typeof PROVIDERS)[number];

export const PROVIDER_LABELS: Record<Provider, string> = {
  'claude-code': 'Claude Code',
  codex: 'Codex',
  'gemini-cli': 'Gemini CLI',
  cursor: 'Cursor',
  opencode: 'opencode',
};

/** Where each provider keeps its transcripts on this machine, env overrides honoured. */
export function defaultDirOf(provider: Provider, env: NodeJS.ProcessEnv): string {
  switch (provider) {
    case 'claude-code':
      return defaultProjectsDir(env['HOME'] || undefined);
    case 'codex':
      return defaultCodexSessionsDir(env);
    case 'gemini-cli':
      return defaultGeminiProjectsDir(env);
    case 'cursor':
      return defaultCursorProjectsDir(env);
    case 'opencode':
      return defaultOpencodeDb(env);
  }
}

/** The providers whose folders exist here; Claude Code when none does (its advice then helps). */
export function providersFound(env: NodeJS.ProcessEnv): Provider[] {
  const here = (p: Provider) => {
    const dir = defaultDirOf(p, env);
    return existsSync(dir) || (p === 'opencode' && existsSync(legacyStorageOf(dir)));
  };
  const found = PROVIDERS.filter(here);
  return found.length > 0 ? found : ['claude-code'];
}
