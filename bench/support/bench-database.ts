import { sql } from 'kysely';
import { createDb } from '@graph-history/db';

/** Drops and creates the bench's own database `name` on the server of `serverUrl`. */
export async function recreateDatabase(serverUrl: string, name: string): Promise<void> {
  await dropDatabase(serverUrl, name);
  const admin = createDb(serverUrl, { max: 1 });
  try {
    await sql`create database ${sql.id(name)}`.execute(admin);
  } finally {
    await admin.destroy();
  }
}

export async function dropDatabase(serverUrl: string, name: string): Promise<void> {
  const admin = createDb(serverUrl, { max: 1 });
  try {
    await sql`drop database if exists ${sql.id(name)} with (force)`.execute(admin);
  } finally {
    await admin.destroy();
  }
}
