import { useIdKey } from '@graph-history/domain';

/**
 * Jest setup of every test file: ids are sealed with the key of the template database every test
 * database clones (test/global-setup.ts), so ids a test encodes are those the apps give.
 */
const hex = process.env.GH_TEST_ID_KEY;
if (!hex) throw new Error('GH_TEST_ID_KEY is unset: test/global-setup.ts sets it.');
useIdKey(Buffer.from(hex, 'hex'));
