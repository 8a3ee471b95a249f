import { Harness } from '../__tests__/harness';
import { NOTICE_TEXT_MAX, nodeNoticeFacts } from './notice-facts';

describe('nodeNoticeFacts', () => {
  it('keeps a notice small: long titles and attention messages are cut with …', () => {
    const h = new Harness();
    h.apply('session.started', 's', { title: 't'.repeat(5_000) });
    h.apply('attention.raised', 's', { reason: 'question', message: 'm'.repeat(5_000) });
    const facts = nodeNoticeFacts(h.state.nodes.get(1)!);
    expect(facts.title).toBe(`${'t'.repeat(NOTICE_TEXT_MAX - 1)}…`);
    expect(facts.attention).toEqual({
      reason: 'question',
      message: `${'m'.repeat(NOTICE_TEXT_MAX - 1)}…`,
      since: expect.any(Number),
    });
  });

  it('names an agent by its purpose, else its type, and leaves short texts whole', () => {
    const h = new Harness();
    h.apply('session.started', 's', {});
    h.apply('agent.spawned', 's/a', { parent: 's', agent_type: 'Explore', purpose: 'find it' });
    expect(nodeNoticeFacts(h.state.nodes.get(2)!)).toEqual({
      kind: 'agent',
      title: 'find it',
      state: 'working',
      attention: null,
      headline: null,
    });
    expect(nodeNoticeFacts(h.state.nodes.get(1)!).title).toBeNull();
  });
});
