import { LegalLayout, type LegalSection } from './legal-layout.tsx';

const sections: LegalSection[] = [
  {
    heading: 'What we collect',
    body: (
      <ul>
        <li>
          <strong>Account information</strong>: your name, e-mail address, profile photo (if your identity
          provider shares one) and a securely hashed password if you use a local account.
        </li>
        <li>
          <strong>Organisation profile</strong>: legal name, organisation type, business address, contact
          phone and the GSTINs you register.
        </li>
        <li>
          <strong>Documents processed</strong>: the purchase orders, goods receipt notes and invoices you
          upload or connect, the values extracted from them and your corrections.
        </li>
        <li>
          <strong>Usage and security logs</strong>: sign-in times, IP address and actions taken, kept to
          protect your account and to troubleshoot problems.
        </li>
      </ul>
    ),
  },
  {
    heading: 'How we use it',
    body: (
      <p>
        We use this information only to provide Bahi to you: to sign you in, to extract and check your
        documents, to write results to the spreadsheets you choose, to send you notifications about your
        workspace, and to keep the service secure. We do not sell your data or use your documents to advertise
        to you.
      </p>
    ),
  },
  {
    heading: 'Self-hosted deployments',
    body: (
      <p>
        Bahi can be run by your own organisation. In a self-hosted deployment all data stays on the operator's
        infrastructure — its database, file storage and any services it connects — and the operator, not us,
        is the data fiduciary responsible for it. Nothing is sent to us.
      </p>
    ),
  },
  {
    heading: 'Processors and connected services',
    body: (
      <p>
        Where you connect a service such as Google Drive and Google Sheets, Bahi exchanges data with it on
        your instruction and under that provider's terms. An operator may also configure a hosting provider or
        an optional AI model provider to help read documents; such processors act only on the operator's
        instructions and under confidentiality obligations.
      </p>
    ),
  },
  {
    heading: 'Retention',
    body: (
      <p>
        We keep your data for as long as your account is active. When you ask for deletion, your account,
        organisation profile and documents are deleted within 30 days, except records we must keep by law (for
        example, tax records). Security logs are kept for up to 180 days.
      </p>
    ),
  },
  {
    heading: 'Your rights under the DPDP Act, 2023',
    body: (
      <>
        <p>
          Under India's Digital Personal Data Protection Act, 2023 you have the right to obtain a summary of
          the personal data we process about you, to have it corrected, completed or updated, to have it
          erased, to nominate another person to exercise your rights, and to have your grievances redressed.
        </p>
        <p>
          You may withdraw consent at any time; doing so does not affect processing already carried out. If
          you are not satisfied with our response, you may complain to the Data Protection Board of India.
        </p>
      </>
    ),
  },
  {
    heading: 'Security',
    body: (
      <p>
        Sessions use secure, http-only cookies; OAuth tokens and secrets are encrypted at rest; every query is
        scoped to your organisation. No system is perfectly secure, and we will notify you and the Data
        Protection Board as the law requires if a breach affects your personal data.
      </p>
    ),
  },
  {
    heading: 'Contact and grievances',
    body: (
      <p>
        To exercise your rights or raise a grievance, contact the operator of your Bahi deployment; for a
        self-hosted installation that is your organisation's administrator, who acts as the grievance officer
        for the data it holds. Requests are answered within 30 days.
      </p>
    ),
  },
];

/** `/privacy-policy`: public Privacy Policy. */
export function PrivacyPage() {
  return (
    <LegalLayout
      title="Privacy Policy"
      lastUpdated="Last updated: 14 October 2025"
      intro={
        <p>
          This policy explains what personal data Bahi collects, why, how long it is kept and the rights you
          have over it.
        </p>
      }
      sections={sections}
    />
  );
}
