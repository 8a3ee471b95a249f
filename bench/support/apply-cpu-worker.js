/* eslint-disable @typescript-eslint/no-require-imports */
/* global require, process, console, __dirname */
/**
 * One measurement of `pnpm bench:apply-cpu` in the checkout given as argv[2] (built with `pnpm
 * build`): the apply's CPU per event without I/O. 50 simulated graphs x 2,000 events (payloads in
 * jsonb's key order, as the apply reads them from the inbox), batches of 500 interleaved across
 * graphs, each reduced (`applyEvent`) and turned into the events and node_versions inserts
 * (`appliedRows` with the graph's encoder of stored JSON, `insertRowsSql`, the apply's column
 * lists). Prints `{ "usPerEvent": …, "versionsPerEvent": … }` of the
 * last of 3 passes (the first ones warm the JIT).
 */
const path = require('node:path');

const root = path.resolve(process.argv[2]);
const { simulate } = require(`${root}/libs/simulator/dist`);
const domain = require(`${root}/libs/domain/dist`);
const { appliedRows } = require(`${root}/libs/db/dist/repositories/applied-rows`);
const { insertRowsSql } = require(`${root}/libs/db/dist/repositories/insert-rows`);
const { AppliedJsonEncoder } = appliedJson();
// ids are sealed with a key of the database (checkouts since migration 0011): any key will do
if (domain.useIdKey) domain.useIdKey(require('node:crypto').randomBytes(16));

const GRAPHS = 50;
const EVENTS = 2_000;
const BATCH = 500;
const { EVENT_COLUMNS, VERSION_COLUMNS } = applyColumns();

/**
 * The apply's own column lists (libs/db apply-columns) of the checkout; one from before they had
 * a module of their own is measured with this tree's.
 */
function applyColumns() {
  const file = 'libs/db/dist/repositories/apply-columns';
  try {
    return require(`${root}/${file}`);
  } catch (err) {
    if (err.code !== 'MODULE_NOT_FOUND' || !String(err.message).includes(file)) throw err;
    return require(path.resolve(__dirname, '../..', file));
  }
}

/** The checkout's encoder of stored JSON; before it had one, the reducer encoded (none needed). */
function appliedJson() {
  const file = `${root}/libs/db/dist/repositories/applied-json`;
  try {
    return require(file);
  } catch (err) {
    if (err.code !== 'MODULE_NOT_FOUND' || !String(err.message).includes(file)) throw err;
    return { AppliedJsonEncoder: class {} };
  }
}

const graphs = simulate({ graphs: GRAPHS, events: EVENTS, seed: 'bench', graphKeyPrefix: 'tp' });
const inbox = graphs.map((g) =>
  g.events.map((e) => domain.inJsonbOrder(JSON.parse(JSON.stringify(e)))),
);

function pass() {
  const states = inbox.map((_, i) => domain.createGraphState(1_000 + i));
  const encoders = states.map((s) => new AppliedJsonEncoder(s.graphId));
  let events = 0;
  let versions = 0;
  const start = process.cpuUsage();
  for (let from = 0; from < EVENTS; from += BATCH) {
    inbox.forEach((graphEvents, i) => {
      const state = states[i];
      const applied = [];
      for (let seq = from + 1; seq <= Math.min(from + BATCH, graphEvents.length); seq++)
        applied.push(domain.applyEvent(state, graphEvents[seq - 1], seq));
      const rows = appliedRows(state.graphId, applied, Date.now(), null, encoders[i]);
      insertRowsSql('events', EVENT_COLUMNS, rows.events);
      insertRowsSql('node_versions', VERSION_COLUMNS, rows.versions);
      events += applied.length;
      versions += rows.versions.length;
    });
  }
  const cpu = process.cpuUsage(start);
  return { usPerEvent: (cpu.user + cpu.system) / events, versionsPerEvent: versions / events };
}

let last;
for (let i = 0; i < 3; i++) last = pass();
console.log(JSON.stringify(last));
