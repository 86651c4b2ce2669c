import { type ChildProcess, execFileSync, spawn } from 'node:child_process';
import { chmod, chown, mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createConnection, createServer } from 'node:net';
import { tmpdir, userInfo } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { ImapFlow } from 'imapflow';

// A real IMAP server for tests: Debian's Dovecot (`apt-get install dovecot-imapd`; `.ci/run` installs it),
// started on a random loopback port with a throw-away mail store (Maildir) and a passwd-file user, from a
// dovecot.conf written here — no system configuration is read or changed. Run as an ordinary user it runs
// as that user; run as root (containers, CI) its login and mail processes drop to the package's own
// unprivileged users, as Dovecot refuses to serve mail as root.

/** The binary; tests that need it skip when it is missing (`hasDovecot`). */
const DOVECOT = '/usr/sbin/dovecot';

/** True when Dovecot is installed on this machine. */
export function hasDovecot(): boolean {
  try {
    execFileSync(DOVECOT, ['--version'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/** A running test mail server. */
export interface TestMailServer {
  host: string;
  port: number;
  user: string;
  password: string;
  /** A client logged in as the test user (for appending and inspecting). */
  connect(): Promise<ImapFlow>;
  /** Appends a raw message to a folder (created when missing); answers its UID and the folder's UIDVALIDITY. */
  append(
    folder: string,
    raw: string | Buffer,
    flags?: string[],
  ): Promise<{ uid: number; uidValidity: number }>;
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** Waits until the server greets on its port (or gives up with its log). */
async function waitForGreeting(port: number, log: () => Promise<string>): Promise<void> {
  for (let attempt = 0; attempt < 100; attempt++) {
    const greeted = await new Promise<boolean>((resolve) => {
      const socket = createConnection({ host: '127.0.0.1', port });
      socket.once('data', (chunk) => {
        socket.destroy();
        resolve(chunk.toString().startsWith('* OK'));
      });
      socket.once('error', () => resolve(false));
    });
    if (greeted) return;
    await sleep(100);
  }
  throw new Error(`Dovecot did not start:\n${await log()}`);
}

/** Who the server's processes run as: this user, or (as root) the package's unprivileged users. */
function processUsers(): { login: string; internal: string; group: string; uid: number; gid: number } {
  const me = userInfo();
  if (me.uid !== 0) {
    const group = execFileSync('id', ['-gn']).toString().trim();
    return { login: me.username, internal: me.username, group, uid: me.uid, gid: me.gid };
  }
  const id = (flag: string, name: string) => Number(execFileSync('id', [flag, name]).toString().trim());
  return {
    login: 'dovenull',
    internal: 'dovecot',
    group: 'dovecot',
    uid: id('-u', 'dovecot'),
    gid: id('-g', 'dovecot'),
  };
}

/** Options of the test mail server. */
export interface DovecotOptions {
  /**
   * Also accept OAuth2 bearer tokens (SASL XOAUTH2 and OAUTHBEARER) for the test user, checked by Dovecot's
   * `oauth2` passdb against this token-introspection endpoint (RFC 7662, POSTed `token=`; the answer's
   * `active` and `email` say whether and whom the token lets in).
   */
  oauth2IntrospectionUrl?: string;
}

/** The oauth2 passdb (and its settings file) when bearer tokens are accepted. */
async function oauth2Passdb(root: string, options: DovecotOptions): Promise<string> {
  if (!options.oauth2IntrospectionUrl) return '';
  const file = join(root, 'dovecot-oauth2.conf.ext');
  await writeFile(
    file,
    `introspection_mode = post
introspection_url = ${options.oauth2IntrospectionUrl}
username_attribute = email
active_attribute = active
active_value = true
`,
  );
  await chmod(file, 0o644);
  return `passdb {
  driver = oauth2
  mechanisms = xoauth2 oauthbearer
  args = ${file}
}
`;
}

/** Starts Dovecot on a loopback port with one user and an empty mail store. */
export async function startDovecot(options: DovecotOptions = {}): Promise<TestMailServer> {
  const root = await mkdtemp(join(tmpdir(), 'bahi-imap-'));
  const port = await freePort();
  const user = 'clerk';
  const password = 'app-password-1234';
  const who = processUsers();
  for (const dir of ['run', 'state', 'mail']) await mkdir(join(root, dir));
  if (userInfo().uid === 0) {
    // The unprivileged auth and mail processes must reach the passwd file and the mail store.
    await chmod(root, 0o755);
    await chown(join(root, 'mail'), who.uid, who.gid);
  }
  await writeFile(join(root, 'passwd'), `${user}:{PLAIN}${password}\n`, { mode: 0o644 });
  // The mode given to writeFile passes through the umask (077 under some CI shells): set it outright,
  // or Dovecot's unprivileged auth process cannot read the throw-away user and every login fails.
  await chmod(join(root, 'passwd'), 0o644);
  const conf = `
base_dir = ${root}/run
state_dir = ${root}/state
log_path = ${root}/dovecot.log
protocols = imap
listen = 127.0.0.1
ssl = no
disable_plaintext_auth = no
auth_mechanisms = plain login${options.oauth2IntrospectionUrl ? ' xoauth2 oauthbearer' : ''}
mail_location = maildir:${root}/mail/%u
default_internal_user = ${who.internal}
default_internal_group = ${who.group}
default_login_user = ${who.login}
first_valid_uid = 1
${await oauth2Passdb(root, options)}passdb {
  driver = passwd-file
  args = scheme=PLAIN username_format=%u ${root}/passwd
}
userdb {
  driver = static
  args = uid=${who.uid} gid=${who.gid} home=${root}/mail/%u
}
service imap-login {
  inet_listener imap {
    address = 127.0.0.1
    port = ${port}
  }
  inet_listener imaps {
    port = 0
  }
}
`;
  await writeFile(join(root, 'dovecot.conf'), conf);
  const child: ChildProcess = spawn(DOVECOT, ['-c', join(root, 'dovecot.conf'), '-F'], { stdio: 'ignore' });
  const log = () => readFile(join(root, 'dovecot.log'), 'utf8').catch(() => '(no log)');
  await waitForGreeting(port, log);
  // Dovecot answers a login it cannot check yet (its auth process still starting, or busy on a loaded
  // machine) with a temporary failure: the helper tries again rather than failing the test.
  const connect = async () => {
    for (let attempt = 1; ; attempt++) {
      const client = new ImapFlow({
        host: '127.0.0.1',
        port,
        secure: false,
        auth: { user, pass: password },
        logger: false,
      });
      client.on('error', () => {});
      try {
        await client.connect();
        return client;
      } catch (error) {
        const response = (error as { response?: string }).response ?? String(error);
        if (attempt >= 10) throw new Error(`Dovecot login failed: ${response}\n${await log()}`);
        await sleep(300 * attempt);
      }
    }
  };
  return {
    host: '127.0.0.1',
    port,
    user,
    password,
    connect,
    async append(folder, raw, flags = []) {
      const client = await connect();
      try {
        if (folder !== 'INBOX') await client.mailboxCreate(folder).catch(() => undefined);
        const result = await client.append(folder, raw, flags);
        if (!result) throw new Error('APPEND failed');
        return { uid: Number(result.uid), uidValidity: Number(result.uidValidity) };
      } finally {
        await client.logout();
      }
    },
    async stop() {
      child.kill('SIGTERM');
      await new Promise((resolve) => (child.exitCode !== null ? resolve(null) : child.once('exit', resolve)));
      await rm(root, { recursive: true, force: true });
    },
  };
}
