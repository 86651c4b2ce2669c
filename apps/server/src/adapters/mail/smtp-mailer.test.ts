import type { AddressInfo } from 'node:net';
import { simpleParser } from 'mailparser';
import { SMTPServer } from 'smtp-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MailRefusedError } from './mailer.ts';
import { createSmtpMailer } from './smtp-mailer.ts';

// The SMTP mailer against a real SMTP server on loopback (smtp-server), with a login: what arrives is
// parsed back, so the envelope, the headers and both bodies are checked as a mail client would see them.

interface Received {
  from: string;
  to: string[];
  raw: string;
}

describe('SMTP mailer', () => {
  const received: Received[] = [];
  let server: SMTPServer;
  let port = 0;

  beforeAll(async () => {
    server = new SMTPServer({
      authOptional: false,
      allowInsecureAuth: true,
      disabledCommands: ['STARTTLS'],
      onAuth(auth, _session, callback) {
        if (auth.username === 'ap' && auth.password === 'pass-word') callback(null, { user: 'ap' });
        else callback(new Error('Invalid username or password'));
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () => {
          received.push({
            from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
            to: session.envelope.rcptTo.map((r) => r.address),
            raw: Buffer.concat(chunks).toString('utf8'),
          });
          callback();
        });
      },
      logger: false,
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.server.address() as AddressInfo).port;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  const config = () => ({
    host: '127.0.0.1',
    port,
    secure: false,
    user: 'ap',
    password: 'pass-word',
    from: 'Accounts <ap@example.test>',
  });

  it('delivers to the one recipient with the subject, both bodies and the link', async () => {
    const mailer = createSmtpMailer(config());
    const link = 'http://localhost:3000/vendor-form/abcDEF123_-';
    const sent = await mailer.send({
      to: 'vendor@example.test',
      subject: 'Your vendor details for Acme',
      text: `Open ${link}`,
      html: `<p><a href="${link}">${link}</a></p>`,
    });
    mailer.close();
    expect(sent.messageId).toMatch(/@/);
    expect(received).toHaveLength(1);
    const got = received[0]!;
    expect(got.from).toBe('ap@example.test');
    expect(got.to).toEqual(['vendor@example.test']);
    const parsed = await simpleParser(got.raw);
    expect(parsed.subject).toBe('Your vendor details for Acme');
    expect(parsed.text).toContain(link);
    expect(parsed.html).toContain(`href="${link}"`);
  });

  it('refuses header injection in the address or subject before connecting', async () => {
    const mailer = createSmtpMailer(config());
    const before = received.length;
    const body = { text: 'x', html: '<p>x</p>' };
    await expect(
      mailer.send({ ...body, to: 'vendor@example.test\r\nBcc: all@example.test', subject: 'Hi' }),
    ).rejects.toBeInstanceOf(MailRefusedError);
    await expect(
      mailer.send({ ...body, to: 'a@example.test, b@example.test', subject: 'Hi' }),
    ).rejects.toBeInstanceOf(MailRefusedError);
    await expect(
      mailer.send({ ...body, to: 'vendor@example.test', subject: 'Hi\r\nBcc: all@example.test' }),
    ).rejects.toBeInstanceOf(MailRefusedError);
    mailer.close();
    expect(received.length).toBe(before);
  });

  it('fails with the server’s refusal when the login is wrong', async () => {
    const mailer = createSmtpMailer({ ...config(), password: 'wrong' });
    await expect(
      mailer.send({ to: 'vendor@example.test', subject: 'Hi', text: 'x', html: '<p>x</p>' }),
    ).rejects.toThrow(/Invalid login|535|Invalid username/);
    mailer.close();
  });
});
