/** Claude Code hooks of `type: "http"` post one hook payload here (`hooks install --http`). */
export const CLAUDE_CODE_HOOKS_PATH = 'ingest/v1/graphs/:graph_key/hooks/claude-code';
