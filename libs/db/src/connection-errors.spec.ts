import { isConnectionError } from './connection-errors';

const pgError = (code: string, message = 'x') => Object.assign(new Error(message), { code });

describe('isConnectionError', () => {
  it('names the failures of the connection: retried, 503, never held against the data', () => {
    for (const err of [
      pgError('57P01', 'terminating connection due to administrator command'),
      pgError('57P02'),
      pgError('57P03', 'the database system is starting up'),
      pgError('08006'),
      pgError('08001'),
      pgError('53300'),
      pgError('ECONNREFUSED', 'connect ECONNREFUSED 127.0.0.1:5432'),
      pgError('ECONNRESET'),
      new Error('Connection terminated unexpectedly'),
      new Error('timeout exceeded when trying to connect'),
      new Error('Client has encountered a connection error and is not queryable'),
    ])
      expect([err.message, isConnectionError(err)]).toEqual([err.message, true]);
  });

  it('leaves statement errors alone', () => {
    for (const err of [
      pgError('23505', 'duplicate key value violates unique constraint'),
      pgError('22P02'),
      pgError('40001'),
      new RangeError('Invalid string length'),
      null,
      'text',
    ])
      expect(isConnectionError(err)).toBe(false);
  });
});
