import { CODEX_SESSIONS_DEPTH, CodexProjects } from './codex-projects';
import type { FoundProject, ProjectFinder } from './project-finder';

/** Codex rollouts grouped into projects by the cwd of their sessions (see CodexProjects). */
export class CodexFinder implements ProjectFinder {
  readonly label = 'Codex';
  private readonly projects: CodexProjects;
  private readonly found = new Map<string, FoundProject & { groups: Set<string> }>();
  private counts = { sessions: 0, agents: 0, projects: 0 };

  /** `onlyRoot`: follow one session (and its sub-agents) only, as `--dir <rollout file>` asks. */
  constructor(
    readonly dir: string,
    private readonly onlyRoot?: string,
  ) {
    this.projects = new CodexProjects(dir);
  }

  get sessions(): number {
    return this.counts.sessions;
  }

  async find(): Promise<FoundProject[]> {
    const projects = await this.projects.find(this.onlyRoot);
    this.counts = { sessions: 0, agents: 0, projects: projects.length };
    for (const project of projects) {
      this.counts.sessions += project.sessions;
      this.counts.agents += project.threads.length - project.sessions;
      let entry = this.found.get(project.name);
      if (!entry) {
        const groups = new Set<string>();
        entry = {
          name: project.name,
          what: `the Codex sessions of ${project.cwd}`,
          groups,
          source: { dir: this.dir, groups, depth: CODEX_SESSIONS_DEPTH },
        };
        this.found.set(project.name, entry);
      }
      for (const id of project.threads) entry.groups.add(id);
    }
    return [...this.found.values()];
  }

  describe(): string {
    const { sessions, agents, projects } = this.counts;
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
    return `Codex: found ${plural(sessions, 'session')} (${plural(agents, 'sub-agent')}) in ${plural(projects, 'project')} under ${this.dir}.`;
  }
}
