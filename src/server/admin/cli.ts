import readline from 'node:readline';
import { pathToFileURL } from 'node:url';
import { hashPassword } from '../auth/passwords.ts';
import { emailField, newPasswordField, usernameField } from '../auth/schemas.ts';
import { findUserByEmail, findUserByUsername, insertUser, setAdmin } from '../auth/users-repository.ts';
import { ConfigError, loadConfig } from '../config.ts';
import type { Db } from '../db/client.ts';
import { DataDirInUseError } from '../db/data-dir-lock.ts';
import { openDatabase } from '../db/open.ts';
import { MOVE_COMMANDS, MOVE_USAGE, runMoveCommand } from './move-db/commands.ts';

// `npm run admin -- create <username> <email> [--password X]` and `npm run admin -- promote <username>`:
// the way to make the first admin. Opens the database the configuration names (the same env as the server).
// export-db, import-db and copy-files move a shop to PostgreSQL (move-db/commands.ts).

export const USAGE = `Usage:
  npm run admin -- create <username> <email> [--password <password>]
      Creates a verified admin account. Without --password the password is asked for (hidden) on a
      terminal, or read from the first line of standard input:  echo 'pw' | npm run admin -- create ...
      (--password ends up in your shell history: prefer the prompt.)
  npm run admin -- promote <username>
      Makes an existing account an admin.
${MOVE_USAGE}`;

export type CliIo = {
  out(line: string): void;
  err(line: string): void;
  /** Asks for the password when --password is not given. */
  readPassword(): Promise<string>;
};

export type Outcome = { ok: boolean; message: string };

function firstIssue(result: { success: boolean; error?: { issues: { message: string }[] } }): string {
  return result.error?.issues[0]?.message ?? 'invalid';
}

/** Creates a verified admin. Says which of the username and email is taken (the operator may know). */
export async function createAdmin(
  db: Db,
  input: { username: string; email: string; password: string },
  now: Date = new Date(),
): Promise<Outcome> {
  const username = usernameField.safeParse(input.username);
  if (!username.success) return { ok: false, message: firstIssue(username) };
  const email = emailField.safeParse(input.email);
  if (!email.success) return { ok: false, message: firstIssue(email) };
  const password = newPasswordField.safeParse(input.password);
  if (!password.success) return { ok: false, message: firstIssue(password) };

  const byName = await findUserByUsername(db, username.data);
  if (byName) return { ok: false, message: `The username '${byName.username}' is already taken.` };
  const byEmail = await findUserByEmail(db, email.data);
  if (byEmail) {
    return {
      ok: false,
      message: `The email ${email.data} is already used by the account '${byEmail.username}'.`,
    };
  }
  const user = await insertUser(db, {
    username: username.data,
    email: email.data,
    passwordHash: await hashPassword(password.data),
    isAdmin: true,
    emailVerifiedAt: now,
    now,
  });
  if (!user) return { ok: false, message: 'The username or email was taken just now: try again.' };
  return { ok: true, message: `Created the admin '${user.username}' <${user.email}>. They can log in now.` };
}

export async function promoteUser(db: Db, username: string, now: Date = new Date()): Promise<Outcome> {
  const user = await findUserByUsername(db, username);
  if (!user) return { ok: false, message: `There is no user named '${username}'.` };
  if (user.isAdmin) return { ok: true, message: `'${user.username}' is already an admin.` };
  await setAdmin(db, user.id, true, now);
  return { ok: true, message: `'${user.username}' is now an admin.` };
}

/** Runs one command line (without `node cli.ts`); returns the exit code. */
export async function runAdminCommand(db: Db, argv: string[], io: CliIo): Promise<number> {
  const [command, ...rest] = argv;
  const report = (o: Outcome) => {
    (o.ok ? io.out : io.err)(o.message);
    return o.ok ? 0 : 1;
  };
  if (command === 'create') {
    const flag = rest.indexOf('--password');
    let password: string | undefined;
    if (flag !== -1) {
      password = rest[flag + 1];
      if (password === undefined) {
        io.err('--password needs a value.');
        return 2;
      }
      rest.splice(flag, 2);
    }
    const [username, email, ...extra] = rest;
    if (!username || !email || extra.length > 0) {
      io.err(USAGE);
      return 2;
    }
    return report(
      await createAdmin(db, { username, email, password: password ?? (await io.readPassword()) }),
    );
  }
  if (command === 'promote') {
    const [username, ...extra] = rest;
    if (!username || extra.length > 0) {
      io.err(USAGE);
      return 2;
    }
    return report(await promoteUser(db, username));
  }
  io.err(USAGE);
  return command === undefined || command === 'help' || command === '--help' ? 0 : 2;
}

/** Asks twice on a terminal without echoing; reads the first line of standard input otherwise. */
async function readPasswordFromUser(): Promise<string> {
  if (!process.stdin.isTTY) {
    const chunks: Buffer[] = [];
    for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
    return Buffer.concat(chunks).toString('utf8').split(/\r?\n/)[0] ?? '';
  }
  const ask = (prompt: string) =>
    new Promise<string>((resolve) => {
      const rl = readline.createInterface({ input: process.stdin, output: process.stdout, terminal: true });
      // Echo the prompt, not the keystrokes.
      (rl as unknown as { _writeToOutput(s: string): void })._writeToOutput = (s: string) => {
        if (s.includes(prompt)) process.stdout.write(prompt);
      };
      rl.question(prompt, (answer) => {
        rl.close();
        process.stdout.write('\n');
        resolve(answer);
      });
    });
  const first = await ask('Password: ');
  const second = await ask('Repeat the password: ');
  if (first !== second) throw new CliError('The passwords do not match.');
  return first;
}

class CliError extends Error {}

async function main(): Promise<number> {
  const argv = process.argv.slice(2);
  if (argv.length === 0 || ['help', '--help', '-h'].includes(argv[0] ?? '')) {
    console.log(USAGE);
    return 0;
  }
  const config = loadConfig(process.env, { payments: false });
  const io = { out: (line: string) => console.log(line), err: (line: string) => console.error(line) };
  // These open the databases and stores they move between themselves.
  if (MOVE_COMMANDS.includes(argv[0] ?? '')) return runMoveCommand(config, argv, io, USAGE);
  const database = await openDatabase(config);
  try {
    return await runAdminCommand(database.db, argv, {
      ...io,
      readPassword: readPasswordFromUser,
    });
  } finally {
    await database.close();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().then(
    (code) => process.exit(code),
    (err: unknown) => {
      if (err instanceof ConfigError || err instanceof DataDirInUseError || err instanceof CliError) {
        console.error(err.message);
      } else {
        console.error('The admin command failed:', err);
      }
      process.exit(1);
    },
  );
}
