import { EventScript } from '../../api/support/watch-events';

/**
 * A share with everything the page shows: nested agents (foreground and background), tasks,
 * waits (one a deadlock), messages, attention, an ended and a failed agent. Events are 2 s apart
 * and end just before now, so nothing is stale.
 */
export function demoShare(): EventScript {
  const s = new EventScript(Date.now() - 60 * 2_000, 2_000);
  s.session('s', { title: 'Refactor the billing service' })
    .status('s', 'working', 'Planning the refactor')
    .tasks('s', [
      { content: 'Map the modules', status: 'completed' },
      { content: 'Split the invoice code', status: 'in_progress' },
      { content: 'Run the suite', status: 'pending' },
    ])
    .agent('s/plan', 's', { purpose: 'Map the modules', background: false })
    .status('s/plan', 'working', 'Reading src/billing')
    .agent('s/plan/grep', 's/plan', { purpose: 'Find every caller of charge()' })
    .status('s/plan/grep', 'working', 'Searching 412 files')
    .message('s', 's/plan', 'Start with the invoice module')
    .ended('s/plan/grep', 'completed')
    .agent('s/tests', 's', { purpose: 'Write the missing tests', background: true })
    .tasks('s/tests', [
      { content: 'invoice totals', status: 'completed' },
      { content: 'refunds', status: 'in_progress' },
    ])
    .status('s/tests', 'working', 'Writing refund tests\nthree of five done')
    .agent('s/lint', 's', { purpose: 'Fix lint errors', background: true })
    .status('s/lint', 'failed', 'eslint crashed on a generated file')
    .ended('s/lint', 'failed')
    .agent('s/a', 's', { purpose: 'Migrate the schema', background: true })
    .agent('s/b', 's', { purpose: 'Update the API client', background: true })
    .waitStarted('s/a', ['s/b'], 'needs the new client')
    .waitStarted('s/b', ['s/a'], 'needs the new schema')
    .attention('s/plan', 'permission', 'Allow editing package.json?')
    .status('s/plan', 'input_required', 'Waiting for permission to edit package.json');
  for (let i = 0; i < 6; i++) s.activity('s/tests');
  return s;
}
