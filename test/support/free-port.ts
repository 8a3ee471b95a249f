export { freePort } from '@graph-history/cli/fleet/free-port';
