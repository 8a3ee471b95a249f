import { Type, type Static } from '@sinclair/typebox';
import { TASK_STATUSES } from '../node';
import { bool, closed, int, nullable, oneOf, str } from './json-schema';

/** Items of a node's `tasks`, `spawns`, `waits` and `messages` expansions. */

export const TaskSchema = closed({
  object: Type.Literal('task'),
  id: str(),
  content: str(),
  status: oneOf(TASK_STATUSES),
  active_form: nullable(str()),
  /** Both present only on tasks whose events gave an owner or blockers (decisions: additive). */
  owner: Type.Optional(nullable(str())),
  blocked_by: Type.Optional(Type.Array(str())),
  created: int(),
  updated: int(),
});
export type PublicTask = Static<typeof TaskSchema>;

export const SpawnSchema = closed({
  object: Type.Literal('spawn'),
  spawn_call_id: nullable(str()),
  node_id: str(),
  agent_type: str(),
  purpose: str(),
  background: bool(),
  created: int(),
});
export type PublicSpawn = Static<typeof SpawnSchema>;

export const WaitSchema = closed({
  object: Type.Literal('wait'),
  on_id: str(),
  reason: nullable(str()),
  started: int(),
  ended: nullable(int()),
});
export type PublicWait = Static<typeof WaitSchema>;

export const MessageSchema = closed({
  object: Type.Literal('message'),
  id: str(),
  direction: oneOf(['sent', 'received'] as const),
  from_id: str(),
  to_id: str(),
  created: int(),
  text: nullable(str({ maxLength: 2000 })),
});
export type PublicMessage = Static<typeof MessageSchema>;
