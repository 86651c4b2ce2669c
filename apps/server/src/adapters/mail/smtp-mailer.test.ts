import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type LoopbackSmtp, startLoopbackSmtp } from '../../test/smtp.ts';
import { MailRefusedError } from './mailer.ts';
import { createSmtpMailer } from './smtp-mailer.ts';

// The SMTP mailer against a real SMTP server on loopback (smtp-server) with a login: what arrives is
// parsed back, so the envelope, the headers and both bodies are checked as a mail client would see them.

describe('SMTP mailer', () => {
  let smtp: LoopbackSmtp;
  beforeAll(async () => {
    smtp = await startLoopbackSmtp();
  });
  afterAll(() => smtp.close());

  const config = () => ({
    host: '127.0.0.1',
    port: smtp.port,
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
    expect(smtp.received).toHaveLength(1);
    const got = smtp.received[0]!;
    expect(got.from).toBe('ap@example.test');
    expect(got.to).toEqual(['vendor@example.test']);
    expect(got.parsed.subject).toBe('Your vendor details for Acme');
    expect(got.parsed.text).toContain(link);
    expect(got.parsed.html).toContain(`href="${link}"`);
  });

  it('refuses header injection in the address or subject before connecting', async () => {
    const mailer = createSmtpMailer(config());
    const before = smtp.received.length;
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
    expect(smtp.received.length).toBe(before);
  });

  it('fails with the server’s refusal when the login is wrong', async () => {
    const mailer = createSmtpMailer({ ...config(), password: 'wrong' });
    await expect(
      mailer.send({ to: 'vendor@example.test', subject: 'Hi', text: 'x', html: '<p>x</p>' }),
    ).rejects.toThrow(/Invalid login|535|Invalid username/);
    mailer.close();
  });
});
