import {
  DEFAULT_TIME_ZONE,
  type FlowInput,
  type FlowTrigger,
  MailAfterActionSchema,
  MailAuthSchema,
  type Workflow,
} from '@bahi/contracts';
import { z } from 'zod';

// The flow form's automation part: when the flow runs by itself, and the e-mail source's mailbox. The form
// holds text as typed; `toTrigger` / `toMailInput` turn it into the contract's shapes (the server checks
// again). A stored mailbox password is never in the form: an empty password box keeps it.

/** Labels of the trigger choices, in the order the form offers them. */
export const TRIGGER_LABELS = {
  manual: 'When I press Run',
  arrival: 'When documents arrive',
  every: 'Every few minutes',
  daily: 'Daily at a time',
} as const;

/** The form's trigger choice. */
export type TriggerChoice = keyof typeof TRIGGER_LABELS;

/** The automation fields of the flow form (text as typed). */
export const AutomationFormShape = {
  trigger: z.enum(['manual', 'arrival', 'every', 'daily']),
  everyMinutes: z.string(),
  dailyTime: z.string(),
  mailHost: z.string(),
  mailPort: z.string(),
  mailTls: z.boolean(),
  mailUser: z.string(),
  mailAuth: MailAuthSchema,
  mailPassword: z.string(),
  mailFolder: z.string(),
  mailAfter: MailAfterActionSchema,
  mailMoveTo: z.string(),
  mailSenders: z.string(),
  mailSubject: z.string(),
  mailIncludes: z.string(),
  mailExcludes: z.string(),
  mailMaxAgeDays: z.string(),
};

/** The automation fields' values. */
export interface AutomationFormValues {
  trigger: TriggerChoice;
  everyMinutes: string;
  dailyTime: string;
  mailHost: string;
  mailPort: string;
  mailTls: boolean;
  mailUser: string;
  /** Password (app password), or OAuth2 with Google / Microsoft 365 (connected after saving). */
  mailAuth: z.infer<typeof MailAuthSchema>;
  mailPassword: string;
  mailFolder: string;
  mailAfter: z.infer<typeof MailAfterActionSchema>;
  mailMoveTo: string;
  mailSenders: string;
  mailSubject: string;
  /** Attachment names must contain one of these words (comma-separated); empty = any. */
  mailIncludes: string;
  /** Attachment names containing one of these words are skipped. */
  mailExcludes: string;
  mailMaxAgeDays: string;
}

/** A new flow: manual, and a mailbox on IMAP over TLS (port 993) read from its inbox. */
export function emptyAutomation(): AutomationFormValues {
  return {
    trigger: 'manual',
    everyMinutes: '15',
    dailyTime: '07:00',
    mailHost: '',
    mailPort: '993',
    mailTls: true,
    mailUser: '',
    mailAuth: 'password',
    mailPassword: '',
    mailFolder: 'INBOX',
    mailAfter: 'read',
    mailMoveTo: '',
    mailSenders: '',
    mailSubject: '',
    mailIncludes: '',
    mailExcludes: '',
    mailMaxAgeDays: '30',
  };
}

/** The automation fields of a saved flow (its password is not known to the browser). */
export function automationFromFlow(flow: Workflow): AutomationFormValues {
  const base = emptyAutomation();
  const trigger = flow.trigger ?? { kind: 'manual' };
  const mail = flow.io.input.mail;
  return {
    ...base,
    trigger: trigger.kind,
    ...(trigger.kind === 'every' ? { everyMinutes: String(trigger.minutes) } : {}),
    ...(trigger.kind === 'daily' ? { dailyTime: trigger.time } : {}),
    ...(mail
      ? {
          mailHost: mail.host,
          mailPort: String(mail.port),
          mailTls: mail.tls,
          mailUser: mail.user,
          mailAuth: mail.auth ?? 'password',
          mailFolder: mail.folder,
          mailAfter: mail.after,
          mailMoveTo: mail.moveTo,
          mailSenders: mail.filters.senders.join(', '),
          mailSubject: mail.filters.subjectContains,
          mailIncludes: mail.filters.nameIncludes.join(', '),
          mailExcludes: mail.filters.nameExcludes.join(', '),
          mailMaxAgeDays: String(mail.filters.maxAgeDays),
        }
      : {}),
  };
}

/** The trigger to save (numbers as typed; the server refuses what is out of range, in words). */
export function toTrigger(values: AutomationFormValues): FlowTrigger {
  if (values.trigger === 'every') return { kind: 'every', minutes: Number(values.everyMinutes) || 0 };
  if (values.trigger === 'daily')
    return { kind: 'daily', time: values.dailyTime.trim(), timeZone: DEFAULT_TIME_ZONE };
  return { kind: values.trigger };
}

/** Comma- (or semicolon-) separated words as typed, trimmed, empties dropped. */
function words(text: string): string[] {
  return text
    .split(/[,;]+/)
    .map((s) => s.trim())
    .filter(Boolean);
}

/** The mailbox to save; the password only when one was typed (none keeps the stored one). */
export function toMailInput(values: AutomationFormValues): NonNullable<FlowInput['mail']> {
  return {
    host: values.mailHost.trim(),
    port: Number(values.mailPort) || 993,
    tls: values.mailTls,
    user: values.mailUser.trim(),
    auth: values.mailAuth,
    ...(values.mailPassword && values.mailAuth === 'password' ? { password: values.mailPassword } : {}),
    folder: values.mailFolder.trim() || 'INBOX',
    after: values.mailAfter,
    moveTo: values.mailMoveTo.trim(),
    filters: {
      senders: words(values.mailSenders),
      subjectContains: values.mailSubject.trim(),
      nameIncludes: words(values.mailIncludes),
      nameExcludes: words(values.mailExcludes),
      maxAgeDays: Number(values.mailMaxAgeDays) || 0,
      skipNoise: true,
    },
  };
}

/**
 * "Next run 3 Mar, 00:30" style text for the flow card, on the organisation's clock (`timeZone`; a daily
 * schedule's own zone, which the server keeps equal to it), or null when it waits for nothing on a clock.
 */
export function describeNextRun(
  flow: Pick<Workflow, 'trigger' | 'nextRunAt'>,
  now = Date.now(),
  timeZone?: string,
): string | null {
  const trigger = flow.trigger ?? { kind: 'manual' };
  if (trigger.kind === 'arrival') return 'Runs when documents arrive';
  if (trigger.kind === 'manual' || !flow.nextRunAt) return null;
  const at = new Date(Math.max(flow.nextRunAt, now));
  const zone = trigger.kind === 'daily' ? trigger.timeZone : (timeZone ?? DEFAULT_TIME_ZONE);
  const when = at.toLocaleString('en-IN', {
    day: 'numeric',
    month: 'short',
    hour: '2-digit',
    minute: '2-digit',
    timeZone: zone,
  });
  return `Next run ${when}`;
}
