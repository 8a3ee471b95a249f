export { publicBaseUrl } from '@graph-history/config';
