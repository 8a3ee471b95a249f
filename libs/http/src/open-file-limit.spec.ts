import { execFileSync } from 'node:child_process';
import { connectionsWithinFileLimit } from './open-file-limit';

describe('connectionsWithinFileLimit', () => {
  it('keeps a cap well under the open-file limit as it is', () => {
    expect(connectionsWithinFileLimit(100)).toBe(100);
  });

  it('lowers a cap the open-file limit cannot hold, leaving descriptors for the rest', () => {
    const limit = Number(execFileSync('sh', ['-c', 'ulimit -Sn'], { encoding: 'utf8' }).trim());
    expect(connectionsWithinFileLimit(10_000_000)).toBe(Math.max(64, limit - 256));
  });
});
