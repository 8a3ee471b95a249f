import { Migration } from 'kysely';
import * as m0001 from './0001_initial';
import * as m0002 from './0002_graphs_pending_work';
import * as m0003 from './0003_node_refs_session';
import * as m0004 from './0004_node_record_version';
import * as m0005 from './0005_graph_stalls_and_key_trim';
import * as m0006 from './0006_viewer_sessions';
import * as m0007 from './0007_node_versions_superseded';
import * as m0008 from './0008_public_json';
import * as m0009 from './0009_one_write_per_version';
import * as m0010 from './0010_events_active_before';
import * as m0011 from './0011_account_quotas';
import * as m0012 from './0012_sealed_ids';
import * as m0013 from './0013_node_refs_depth';
import * as m0014 from './0014_notices';
import * as m0015 from './0015_webhooks';
import * as m0016 from './0016_node_usage';
import * as m0017 from './0017_one_stored_shape';

/** Every migration, by name; names sort in the order they apply. Add new files here. */
export const migrations: Record<string, Migration> = {
  '0001_initial': m0001,
  '0002_graphs_pending_work': m0002,
  '0003_node_refs_session': m0003,
  '0004_node_record_version': m0004,
  '0005_graph_stalls_and_key_trim': m0005,
  '0006_viewer_sessions': m0006,
  '0007_node_versions_superseded': m0007,
  '0008_public_json': m0008,
  '0009_one_write_per_version': m0009,
  '0010_events_active_before': m0010,
  '0011_account_quotas': m0011,
  '0012_sealed_ids': m0012,
  '0013_node_refs_depth': m0013,
  '0014_notices': m0014,
  '0015_webhooks': m0015,
  '0016_node_usage': m0016,
  '0017_one_stored_shape': m0017,
};
