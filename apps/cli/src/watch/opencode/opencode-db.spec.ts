import { CliError } from '../../cli-error';
import { readOpencodeRows } from './opencode-db';

// as where the native module's build failed at install (an optional dependency, left unbuilt)
jest.mock('better-sqlite3', () => {
  throw new Error('Could not locate the bindings file.');
});

describe('reading opencode without a usable better-sqlite3', () => {
  it('stops with what to install instead of a stack trace', async () => {
    const read = readOpencodeRows('/home/me/.local/share/opencode/opencode.db', 0);
    await expect(read).rejects.toBeInstanceOf(CliError);
    await expect(read).rejects.toThrow(
      /needs the better-sqlite3 module.*Could not locate the bindings file.*pnpm rebuild better-sqlite3/,
    );
  });
});
