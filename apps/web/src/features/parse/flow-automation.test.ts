import { describe, expect, it } from 'vitest';
import { automationFromFlow, describeNextRun, toMailInput, toTrigger } from './flow-automation.ts';
import { createEmptyForm } from './flow-form.ts';
import { toFlowBody } from './flows-api.ts';

describe('flow automation in the form', () => {
  it('turns the trigger choice into the contract shape', () => {
    const base = createEmptyForm();
    expect(toTrigger(base)).toEqual({ kind: 'manual' });
    expect(toTrigger({ ...base, trigger: 'every', everyMinutes: '30' })).toEqual({
      kind: 'every',
      minutes: 30,
    });
    expect(toTrigger({ ...base, trigger: 'daily', dailyTime: '06:45' })).toEqual({
      kind: 'daily',
      time: '06:45',
      timeZone: 'Asia/Kolkata',
    });
  });

  it('sends the mailbox password only when typed, and never reads one back', () => {
    const values = {
      ...createEmptyForm(),
      name: 'Mail',
      types: ['INVOICE' as const],
      sheetName: 'Bills',
      sourceKind: 'email' as const,
      mailHost: ' imap.example.in ',
      mailUser: 'ap@example.in',
      mailSenders: '@vendor.in, bills@supplier.in',
    };
    expect(toMailInput(values).password).toBeUndefined();
    expect(toMailInput({ ...values, mailPassword: 'secret' }).password).toBe('secret');
    const body = toFlowBody(values);
    expect(body.io.input.url).toBe('');
    expect(body.io.input.mail?.host).toBe('imap.example.in');
    expect(body.io.input.mail?.filters?.senders).toEqual(['@vendor.in', 'bills@supplier.in']);
    const saved = {
      id: 'f1',
      uid: 'u',
      name: 'Mail',
      types: ['INVOICE' as const],
      status: 'inactive' as const,
      createdAt: 0,
      updatedAt: 0,
      lastRunAt: null,
      io: { ...body.io, input: { ...body.io.input, mail: { ...toMailInput(values), hasPassword: true } } },
      trigger: { kind: 'arrival' as const },
    } as Parameters<typeof automationFromFlow>[0];
    const back = automationFromFlow(saved);
    expect(back.mailPassword).toBe('');
    expect(back.trigger).toBe('arrival');
    expect(back.mailHost).toBe('imap.example.in');
  });

  it('says when the flow runs next', () => {
    expect(describeNextRun({ trigger: { kind: 'manual' }, nextRunAt: null })).toBeNull();
    expect(describeNextRun({ trigger: { kind: 'arrival' }, nextRunAt: null })).toBe(
      'Runs when documents arrive',
    );
    expect(
      describeNextRun(
        { trigger: { kind: 'every', minutes: 15 }, nextRunAt: Date.UTC(2026, 2, 2, 2, 0) },
        Date.UTC(2026, 2, 1),
      ),
    ).toMatch(/^Next run 2 Mar/);
    // 18:30Z on 2 March is past midnight in India: the card shows the organisation's date and time,
    // whatever zone the browser is in.
    const daily = { kind: 'daily' as const, time: '00:30', timeZone: 'Asia/Kolkata' };
    expect(describeNextRun({ trigger: daily, nextRunAt: Date.UTC(2026, 2, 2, 19, 0) }, 0)).toMatch(
      /^Next run 3 Mar, 12:30 am$/i,
    );
    expect(
      describeNextRun(
        { trigger: { ...daily, timeZone: 'Europe/London' }, nextRunAt: Date.UTC(2026, 2, 3, 0, 30) },
        0,
      ),
    ).toMatch(/^Next run 3 Mar, 12:30 am$/i);
    expect(
      describeNextRun(
        { trigger: { kind: 'every', minutes: 15 }, nextRunAt: Date.UTC(2026, 2, 2, 19, 0) },
        0,
        'Asia/Kolkata',
      ),
    ).toMatch(/^Next run 3 Mar/);
  });
});
