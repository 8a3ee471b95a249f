/**
 * Markdown an agent wrote (summaries, headlines), as plain text: heading marks, emphasis, inline
 * code ticks, link targets and fences dropped, list items kept as `• …`. The page never renders
 * Markdown to HTML, so nothing an agent writes can become markup.
 */
export function plainText(md: string): string {
  return md
    .split('\n')
    .filter((line) => !/^\s*(```|~~~)/.test(line))
    .map((line) =>
      line
        .replace(/^\s{0,3}#{1,6}\s+/, '')
        .replace(/^(\s*)[-*+]\s+/, '$1• ')
        .replace(/^\s{0,3}>\s?/, '')
        .replace(/!?\[([^\]]*)\]\([^)]*\)/g, '$1')
        .replace(/(\*\*|__)(?=\S)(.+?)(?<=\S)\1/g, '$2')
        .replace(/(^|[^\w*])\*(?=\S)([^*]+?)(?<=\S)\*(?!\*)/g, '$1$2')
        .replace(/`([^`]+)`/g, '$1'),
    )
    .join('\n');
}
