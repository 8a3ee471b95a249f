import { getOwn } from '../own-record';
import type { Emitter } from './emitter';
import type { TeammateJoinedFact } from './line';
import { type OnLinked, linkSpawn } from './spawns';
import { rememberTeammate } from './teams';

/**
 * A member of a team's config becomes an agent under the lead's session: tied to the lead's spawn
 * call that named it when that call is known, else created on its own (`link_method: explicit`)
 * with the ref the spawn's result would give it (`<session>/<name>@<team>`), so whichever of the
 * config and the transcript comes first, the teammate is one node.
 */
export function teammateJoined(em: Emitter, fact: TeammateJoinedFact, onLinked: OnLinked): void {
  const ref = `${em.sessionId}/${fact.agentId}`;
  if (em.node(ref)) return rememberTeammate(em, fact.name, ref);
  const known = getOwn(em.session.teammates ?? {}, fact.name);
  if (known && em.live(known)) return;
  const call = Object.entries(em.session.spawns).find(
    ([, memo]) => !memo.agentRef && memo.name === fact.name,
  );
  if (call) {
    linkSpawn(em, call[0], call[1], fact.agentId, 'spawn_call_id', onLinked);
    return;
  }
  linkSpawn(
    em,
    fact.agentId,
    {
      parent: em.sessionId,
      agentType: fact.agentType,
      purpose: fact.purpose,
      promptKey: '',
      background: true,
      ts: em.ts,
      version: em.line.version ?? em.session.version,
      name: fact.name,
      ...(fact.cwd ? { cwd: fact.cwd } : {}),
    },
    fact.agentId,
    'explicit',
    onLinked,
  );
}
