import { unsupportedNode } from './node-version';

describe('unsupportedNode', () => {
  it.each(['20.19.0', '20.20.2', '21.0.0', '22.1.0', 'v24.3.1'])('accepts %s', (v) => {
    expect(unsupportedNode(v)).toBeNull();
  });

  it.each(['20.18.3', '18.20.4', 'v16.0.0', '20.9.0'])(
    'refuses %s in one line with the fix',
    (v) => {
      const message = unsupportedNode(v)!;
      expect(message.split('\n')).toHaveLength(1);
      expect(message).toBe(
        `Node.js ${v} is too old: graph-history needs 20.19.0 or later; install a current Node.js (https://nodejs.org, or \`nvm install 22\`) and run it again.`,
      );
    },
  );
});
