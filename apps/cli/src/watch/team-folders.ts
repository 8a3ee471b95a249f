import { readFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { listSubdirectories } from './file-listing';
import type { WatchTarget } from './watch-target';

/** A Claude Code agent team's folder (`~/.claude/teams/<team>/`) and the session that leads it. */
export interface TeamFolder {
  team: string;
  leadSessionId: string;
}

/**
 * Claude Code keeps agent teams beside the folder of projects: `~/.claude/teams` next to
 * `~/.claude/projects`. Found from whatever `--dir` names (projects, one project, one session).
 */
export function defaultTeamsDir(target: WatchTarget): string {
  const projects = target.kind === 'projects' ? target.dir : dirname(target.dir); // a project's folder, or the session's
  return join(dirname(projects), 'teams');
}

async function leadSession(configPath: string): Promise<string | undefined> {
  const text = await readFile(configPath, 'utf8').catch(() => undefined);
  if (text === undefined) return undefined;
  try {
    const config = JSON.parse(text) as { leadSessionId?: unknown };
    return typeof config.leadSessionId === 'string' && config.leadSessionId !== ''
      ? config.leadSessionId
      : undefined;
  } catch {
    return undefined; // being written; read again at the next pass
  }
}

/** The teams under `teamsDir` (but those `skip` names) whose config names their lead session. */
export async function teamFolders(
  teamsDir: string,
  skip: (team: string) => boolean,
): Promise<TeamFolder[]> {
  const out: TeamFolder[] = [];
  for (const team of await listSubdirectories(teamsDir)) {
    if (skip(team)) continue;
    const leadSessionId = await leadSession(join(teamsDir, team, 'config.json'));
    if (leadSessionId) out.push({ team, leadSessionId });
  }
  return out;
}
