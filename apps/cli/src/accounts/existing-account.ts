import { Account, AccountRepository } from '@graph-history/db';
import { CliError } from '../cli-error';

const ACCOUNT_NAME = /^[^\s\p{C}](?:[^\p{C}]{0,98}[^\s\p{C}])?$/u;

/** Throws a CliError unless `name` is a valid account name. */
export function assertAccountName(name: string): void {
  if (!ACCOUNT_NAME.test(name)) {
    throw new CliError(
      `Invalid account name ${JSON.stringify(name)}: use 1 to 100 printable characters, without leading or trailing spaces.`,
    );
  }
}

/** The account named `name`; a CliError saying how to create it when there is none. */
export async function existingAccount(accounts: AccountRepository, name: string): Promise<Account> {
  assertAccountName(name);
  const account = await accounts.findByName(name);
  if (!account)
    throw new CliError(
      `No account is named ${JSON.stringify(name)}; create one with \`keys create --account NAME\`.`,
    );
  return account;
}
