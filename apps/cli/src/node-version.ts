/** The oldest Node.js the service runs on (package.json `engines`). */
export const MIN_NODE = [20, 19, 0] as const;

/** Why `version` (e.g. "20.18.1") cannot run graph-history, with the fix; null when it can. */
export function unsupportedNode(version: string): string | null {
  const parts = version.replace(/^v/, '').split('.').map(Number);
  for (let i = 0; i < MIN_NODE.length; i++) {
    const have = parts[i] ?? 0;
    if (have > MIN_NODE[i]!) return null;
    if (have < MIN_NODE[i]!) {
      return `Node.js ${version} is too old: graph-history needs ${MIN_NODE.join('.')} or later; install a current Node.js (https://nodejs.org, or \`nvm install 22\`) and run it again.`;
    }
  }
  return null;
}
