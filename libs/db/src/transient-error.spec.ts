import { isTransientDbError } from './transient-error';

const withCode = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isTransientDbError', () => {
  it.each([
    ['a lost connection', new Error('Connection terminated unexpectedly')],
    ['a pool timeout', new Error('timeout exceeded when trying to connect')],
    ['an ended pool', new Error('Cannot use a pool after calling end on the pool')],
    ['class 08', withCode('08006')],
    ['admin shutdown', withCode('57P01')],
    ['crash shutdown', withCode('57P02')],
    ['starting up', withCode('57P03')],
    ['serialization failure', withCode('40001')],
    ['deadlock', withCode('40P01')],
    ['too many connections', withCode('53300')],
    ['a full disk', withCode('53100')],
    ['an I/O error', withCode('58030')],
    ['a failover (read-only transaction)', withCode('25006')],
    ['a refused socket', withCode('ECONNREFUSED')],
    ['a reset socket', withCode('ECONNRESET')],
    ['a wrapped cause', new Error('apply failed', { cause: withCode('ECONNRESET') })],
  ])('is true for %s', (_name, err) => {
    expect(isTransientDbError(err)).toBe(true);
  });

  it.each([
    ['an encoding RangeError', new RangeError('Invalid string length')],
    ['a data error', withCode('22P02', 'invalid input syntax for type bigint')],
    ['a value out of range', withCode('22003')],
    ['a program limit', withCode('54000', 'index row size exceeds maximum')],
    ['a constraint violation', withCode('23505')],
    ['a TypeError', new TypeError('not an integer: 1e+300')],
    ['a string', 'boom'],
    ['null', null],
  ])('is false for %s', (_name, err) => {
    expect(isTransientDbError(err)).toBe(false);
  });
});
