import type { Node } from '../api/types';

/** How the viewer names the providers graph-history has adapters for; others show as sent. */
const PROVIDER_LABELS: Record<string, string> = {
  'claude-code': 'Claude Code',
  codex: 'Codex',
  'gemini-cli': 'Gemini CLI',
  cursor: 'Cursor',
  opencode: 'opencode',
};

export const providerLabel = (provider: string): string =>
  Object.hasOwn(PROVIDER_LABELS, provider) ? PROVIDER_LABELS[provider]! : provider;

/**
 * In a share of several providers, a tree row names its provider when it starts a provider's tree: a session, or an agent whose
 * provider is not its parent's. Below that, every node is its session's provider.
 */
export const rowShowsProvider = (
  n: Pick<Node, 'kind' | 'provider'>,
  parent: Pick<Node, 'provider'> | undefined,
): boolean => n.kind === 'session' || parent === undefined || parent.provider !== n.provider;
