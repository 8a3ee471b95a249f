import { loadavg } from 'node:os';
import { Client } from 'pg';

async function admin(serverUrl: string, sql: string): Promise<void> {
  const c = new Client({ connectionString: serverUrl });
  await c.connect();
  try {
    await c.query(sql);
  } finally {
    await c.end();
  }
}

/** Drops the database `name` on the server (connections to it are ended). */
export const dropDatabase = (serverUrl: string, name: string): Promise<void> =>
  admin(serverUrl, `drop database if exists ${name} with (force)`);

/** An empty database `name` on the server, dropping what was there. */
export async function recreateDatabase(serverUrl: string, name: string): Promise<void> {
  await dropDatabase(serverUrl, name);
  await admin(serverUrl, `create database ${name}`);
}

/** The machine's load averages: other processes share its cores, and figures move with them. */
export const loadAverage = (): string =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(' ');
