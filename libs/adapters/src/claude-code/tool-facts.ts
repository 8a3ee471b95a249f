import { deleteOwn, getOwn, setOwn } from '../own-record';
import type { Emitter } from './emitter';
import type { Fact, TodoInput, ToolResultFact } from './line';
import { type OnLinked, endAgent, recordSpawn, spawnResult } from './spawns';
import { createdTaskId, tasksPayload, updatedTasks } from './tasks';
import { sendMessage } from './teams';
import { closeWait, openWait } from './waits';

type ToolUse = Extract<Fact, { kind: 'tool_use' }>;

function setTasks(em: Emitter, ref: string, tasks: TodoInput[]): void {
  const node = em.node(ref);
  if (!node || node.ended || JSON.stringify(tasks) === JSON.stringify(node.tasks)) return;
  node.tasks = tasks;
  em.send('tasks.updated', ref, { tasks: tasksPayload(tasks) });
}

/** A tool call by node `ref`: spawns, task lists, blocking polls; the rest only shows as activity. */
export function toolUse(em: Emitter, ref: string, fact: ToolUse): void {
  const { tool } = fact;
  switch (tool.op) {
    case 'spawn':
      recordSpawn(em, ref, fact.id, tool);
      break;
    case 'todos':
      setTasks(em, ref, tool.todos);
      return;
    case 'message':
      sendMessage(em, ref, fact.id, tool);
      break;
    case 'question':
      em.send('attention.raised', ref, { reason: 'question', message: tool.text });
      return;
    case 'task_update': {
      const node = em.node(ref);
      const next = node ? updatedTasks(node.tasks, tool) : undefined;
      if (next) return setTasks(em, ref, next);
      break;
    }
    case 'task_output': {
      const target = getOwn(em.session.agents, tool.taskId);
      setOwn(em.session.tools, fact.id, {
        node: ref,
        label: fact.label,
        tool,
        ...(target && tool.block ? { waitOn: target } : {}),
      });
      if (target && tool.block) return openWait(em, ref, target, `${fact.name} ${tool.taskId}`);
      break;
    }
    default:
      setOwn(em.session.tools, fact.id, { node: ref, label: fact.label, tool });
  }
  em.activity(ref, fact.label);
}

/** A blocking poll reported as waiting (2.1.x `waiting_for_task` progress). */
export function waitingForTask(
  em: Emitter,
  ref: string,
  toolUseId: string,
  description: string | undefined,
): void {
  const memo = getOwn(em.session.tools, toolUseId);
  if (memo?.waitOn) openWait(em, memo.node, memo.waitOn, 'TaskOutput');
  else em.activity(ref, description ? `Waiting for ${description}` : undefined);
}

/** The result of a tool call made by node `ref`. */
export function toolResult(
  em: Emitter,
  ref: string,
  fact: ToolResultFact,
  onLinked: OnLinked,
): void {
  const spawn = getOwn(em.session.spawns, fact.toolUseId);
  const memo = getOwn(em.session.tools, fact.toolUseId);
  deleteOwn(em.session.tools, fact.toolUseId);
  const caller = spawn?.parent ?? memo?.node ?? ref;
  if (fact.rejected) {
    const what = memo?.label ?? (spawn ? `Task ${spawn.purpose}` : 'a tool call');
    em.send('attention.raised', caller, {
      reason: 'permission',
      message: `The user rejected ${what}.`,
    });
  }
  if (spawn) return spawnResult(em, fact, spawn, onLinked);
  if (!memo) return;
  const { tool } = memo;
  if (tool.op === 'task_output' && memo.waitOn) closeWait(em, memo.node, memo.waitOn);
  if (fact.isError) return;
  if (tool.op === 'task_stop') {
    const target = getOwn(em.session.agents, tool.taskId);
    if (target)
      endAgent(
        em,
        target,
        'canceled',
        `Stopped by ${memo.node === em.sessionId ? 'the session' : 'its parent'}.`,
      );
  }
  if (tool.op === 'task_create') {
    const node = em.node(memo.node);
    if (!node) return;
    const id = createdTaskId(node.tasks, fact.createdTaskId, fact.text);
    const task = {
      id,
      content: tool.subject,
      status: 'pending' as const,
      ...(tool.activeForm ? { activeForm: tool.activeForm } : {}),
    };
    setTasks(em, memo.node, [...node.tasks.filter((t) => t.id !== id), task]);
  }
}
