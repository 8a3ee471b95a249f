import { HOOK_EVENTS, withOurHooks, withoutOurHooks } from './claude-settings';
import { hookCommand } from './hook-inbox-dir';

const theirs = {
  model: 'opus',
  hooks: {
    PreToolUse: [{ matcher: 'Bash', hooks: [{ type: 'command', command: 'audit.sh' }] }],
    Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }],
  },
  permissions: { allow: ['Bash(ls:*)'] },
};

describe('Claude Code settings hooks', () => {
  const command = hookCommand('/run/user/1/graph-history-hooks');

  it('adds one handler per hook event beside the hooks already there', () => {
    const added = withOurHooks(theirs, command) as { hooks: Record<string, unknown[]> };
    expect(Object.keys(added.hooks).sort()).toEqual(HOOK_EVENTS.map((h) => h.event).sort());
    expect(added.hooks['PreToolUse']).toEqual([
      theirs.hooks.PreToolUse[0],
      { matcher: 'Task|Agent', hooks: [{ type: 'command', command, timeout: 5 }] },
    ]);
    expect(added.hooks['Stop']).toHaveLength(2);
    expect(added).toMatchObject({ model: 'opus', permissions: theirs.permissions });
  });

  it('replaces its own hooks when installed again', () => {
    const twice = withOurHooks(withOurHooks(theirs, command), `${command} again`);
    expect(twice).toEqual(withOurHooks(theirs, `${command} again`));
  });

  it('uninstall removes exactly what was added, keeping key order', () => {
    const back = withoutOurHooks(withOurHooks(theirs, command));
    expect(back).toEqual(theirs);
    expect(JSON.stringify(back)).toBe(JSON.stringify(theirs));
    expect(withoutOurHooks(withOurHooks({ model: 'opus' }, command))).toEqual({ model: 'opus' });
  });

  it('keeps a handler of another tool that shares a matcher group with ours', () => {
    const mixed = {
      hooks: {
        Stop: [
          {
            hooks: [
              { type: 'command', command },
              { type: 'command', command: 'say done' },
            ],
          },
        ],
      },
    };
    expect(withoutOurHooks(mixed)).toEqual({
      hooks: { Stop: [{ hooks: [{ type: 'command', command: 'say done' }] }] },
    });
  });

  it('quotes the inbox folder for the shell and ends with its mark', () => {
    expect(hookCommand("/tmp/it's here")).toMatch(
      /^d='\/tmp\/it'\\''s here'; .*; exit 0 # graph-history-hook$/,
    );
  });
});
