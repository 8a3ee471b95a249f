import { detectFiles } from './files';

describe('detectFiles', () => {
  it('claims session files and both sub-agent layouts, grouping a session with its agents', () => {
    expect(
      detectFiles([
        's1.jsonl',
        's1/subagents/agent-a1.jsonl',
        's1/subagents/agent-a1.meta.json',
        's1/subagents/agent-acompact-123.jsonl',
        'agent-b2.jsonl',
        'agent-acompact-9.jsonl',
        's1/tool-results/x.txt',
        'notes.md',
        's1/other/deeper.jsonl',
      ]),
    ).toEqual([
      { path: 's1.jsonl', id: 's1', group: 's1' },
      { path: 's1/subagents/agent-a1.jsonl', id: 's1/agent-a1', group: 's1' },
      { path: 's1/subagents/agent-a1.meta.json', id: 's1/agent-a1.meta', group: 's1', whole: true },
      { path: 'agent-b2.jsonl', id: 'agent-b2', group: 'agent-b2' },
    ]);
  });

  it('claims team files only in a folder of teams, and session files only outside one', () => {
    const paths = [
      't1/config.json',
      't1/inboxes/lead.json',
      't1/inboxes/x/deeper.json',
      's1.jsonl',
    ];
    expect(detectFiles(paths, 'teams')).toEqual([
      { path: 't1/config.json', id: 'team:t1', group: 'team:t1', whole: true },
      { path: 't1/inboxes/lead.json', id: 'team:t1/lead', group: 'team:t1', whole: true },
    ]);
    expect(detectFiles(paths)).toEqual([{ path: 's1.jsonl', id: 's1', group: 's1' }]);
  });
});
