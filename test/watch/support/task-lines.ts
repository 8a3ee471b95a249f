import type { SourceLine } from '@graph-history/adapters';
import type { TranscriptBuilder } from './transcript-builder';

/**
 * HAND-MADE lines after Claude Code's TaskCreate/TaskUpdate tool schema: three tasks, then task 2
 * blocked by task 1 and owned by `tester`, task 1 started by `parser`.
 */
export function assignedTasks(b: TranscriptBuilder): SourceLine[] {
  return [
    b.prompt('plan'),
    b.toolUse('C1', 'TaskCreate', { subject: 'Parse', description: '…' }),
    b.toolResult('C1', 'Task #1 created successfully: Parse'),
    b.toolUse('C2', 'TaskCreate', { subject: 'Test', description: '…' }),
    b.toolResult('C2', 'Task #2 created successfully: Test'),
    b.toolUse('C3', 'TaskCreate', { subject: 'Ship', description: '…' }),
    b.toolResult('C3', 'Task #3 created successfully: Ship'),
    b.toolUse('U1', 'TaskUpdate', { taskId: '2', addBlockedBy: ['1'], owner: 'tester' }),
    b.toolUse('U2', 'TaskUpdate', { taskId: '1', status: 'in_progress', owner: 'parser' }),
  ];
}
