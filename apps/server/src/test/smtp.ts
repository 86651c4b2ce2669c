import type { AddressInfo } from 'node:net';
import { type ParsedMail, simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';

/** A message the loopback server took: the envelope and the parsed message. */
export interface ReceivedMail {
  from: string;
  to: string[];
  raw: string;
  parsed: ParsedMail;
}

/** A real SMTP server on 127.0.0.1 (smtp-server) that keeps what it is sent; its login is `ap` / `pass-word`. */
export interface LoopbackSmtp {
  port: number;
  received: ReceivedMail[];
  /** SMTP_* variables pointing at it, for `parseEnv`. */
  envVars: Record<string, string>;
  close(): Promise<void>;
}

/** Starts the loopback SMTP server (plain SMTP with a login; STARTTLS off, as on a local relay). */
export async function startLoopbackSmtp(): Promise<LoopbackSmtp> {
  const received: ReceivedMail[] = [];
  const server = new SMTPServer({
    authOptional: false,
    allowInsecureAuth: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onAuth(auth, _session, callback) {
      if (auth.username === 'ap' && auth.password === 'pass-word') callback(null, { user: 'ap' });
      else callback(new Error('Invalid username or password'));
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('end', () => {
        const raw = Buffer.concat(chunks).toString('utf8');
        simpleParser(raw).then(
          (parsed) => {
            received.push({
              from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
              to: session.envelope.rcptTo.map((r) => r.address),
              raw,
              parsed,
            });
            callback();
          },
          (error: Error) => callback(error),
        );
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.server.address() as AddressInfo).port;
  return {
    port,
    received,
    envVars: {
      SMTP_HOST: '127.0.0.1',
      SMTP_PORT: String(port),
      SMTP_SECURE: 'false',
      SMTP_USER: 'ap',
      SMTP_PASSWORD: 'pass-word',
      MAIL_FROM: 'Accounts <ap@example.test>',
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
