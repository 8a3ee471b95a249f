import { FileProgress } from './file-progress';

describe('FileProgress', () => {
  it('saves only the run of lines from the start that were all sent', () => {
    const p = new FileProgress();
    p.readLine({ offset: 10, lineNo: 1 }, 1);
    p.readLine({ offset: 20, lineNo: 2 }); // nothing to send (blank, unknown row)
    p.readLine({ offset: 30, lineNo: 3 }, 2);
    p.readLine({ offset: 40, lineNo: 4 }, 3);
    expect(p.read).toEqual({ offset: 40, lineNo: 4 });
    expect(p.committed).toEqual({ offset: 0, lineNo: 0 });
    p.sent(new Set([3])); // a later line went first (an earlier timestamp)
    expect(p.committed).toEqual({ offset: 0, lineNo: 0 });
    p.sent(new Set([1]));
    expect(p.committed).toEqual({ offset: 20, lineNo: 2 });
    p.sent(new Set([2]));
    expect(p.committed).toEqual({ offset: 40, lineNo: 4 });
  });
});
