import { LegalLayout, type LegalSection } from './legal-layout.tsx';

const sections: LegalSection[] = [
  {
    heading: 'Who we are and what these terms cover',
    body: (
      <p>
        Bahi is finance back-office software that reads purchase orders, goods receipt notes and GST invoices,
        checks them against Indian rules and records the results in spreadsheets. These terms govern your use
        of Bahi, whether you use a deployment run by us or by your own organisation (the "operator"). By
        creating an account or using the service you agree to them on behalf of yourself and the organisation
        you represent.
      </p>
    ),
  },
  {
    heading: 'Eligibility',
    body: (
      <p>
        You must be at least 18 years old and able to enter into a binding contract under Indian law to use
        Bahi. If you use Bahi for an organisation, you confirm that you are authorised to bind that
        organisation to these terms.
      </p>
    ),
  },
  {
    heading: 'Your account',
    body: (
      <>
        <p>
          You are responsible for keeping your sign-in credentials confidential and for everything done
          through your account. Tell the operator at once if you suspect unauthorised access.
        </p>
        <p>
          The information you give us — your name, e-mail address, organisation details and GSTINs — must be
          accurate and kept up to date.
        </p>
      </>
    ),
  },
  {
    heading: 'Acceptable use',
    body: (
      <ul>
        <li>Upload only documents you are entitled to process.</li>
        <li>
          Do not attempt to access another organisation's data, probe or disrupt the service, or bypass its
          limits.
        </li>
        <li>Do not use Bahi to prepare documents you know to be false, or to evade tax or any other law.</li>
      </ul>
    ),
  },
  {
    heading: 'Your data',
    body: (
      <p>
        You keep all rights in the documents and data you put into Bahi. You grant the operator a limited
        licence to store and process them solely to provide the service to you. How personal data is handled
        is described in our Privacy Policy.
      </p>
    ),
  },
  {
    heading: 'Extracted results and professional judgement',
    body: (
      <p>
        Bahi extracts and checks values automatically and shows where each value came from, but automated
        extraction can be wrong. You remain responsible for reviewing results before relying on them for GST
        returns, TDS deductions, payments or any other filing or decision. Bahi is not a substitute for advice
        from a chartered accountant or tax professional.
      </p>
    ),
  },
  {
    heading: 'Fees',
    body: (
      <p>
        Self-hosted use of the open-source software is free under its licence (GNU AGPL v3.0 or later). Where
        the service is provided to you for a fee, the fees, billing period and taxes are set out in your order
        or subscription and are payable in Indian Rupees.
      </p>
    ),
  },
  {
    heading: 'Limitation of liability',
    body: (
      <>
        <p>
          To the fullest extent permitted by law, neither party is liable for indirect, incidental or
          consequential losses, including lost profits, interest or penalties arising from filings you make.
        </p>
        <p>
          Our total liability for all claims arising out of or relating to the service is limited to the
          greater of INR 25,000 or the fees you paid for the service in the 3 months before the event giving
          rise to the claim.
        </p>
      </>
    ),
  },
  {
    heading: 'Suspension, termination and deletion',
    body: (
      <p>
        You may stop using Bahi at any time. You may ask for your account and your organisation's data to be
        deleted; we (or the operator) will delete them within 30 days of the request, except where the law
        requires us to keep specific records for longer. We may suspend accounts that break these terms or put
        the service at risk.
      </p>
    ),
  },
  {
    heading: 'Changes to these terms',
    body: (
      <p>
        We may update these terms from time to time. When we make a material change we will tell you in the
        app or by e-mail before it takes effect. Continuing to use Bahi after that means you accept the
        updated terms.
      </p>
    ),
  },
  {
    heading: 'Governing law and jurisdiction',
    body: (
      <p>
        These terms are governed by the laws of India. The courts of Bengaluru, India have exclusive
        jurisdiction over any dispute arising out of or in connection with them.
      </p>
    ),
  },
];

/** `/terms-and-conditions`: public Terms and Conditions. */
export function TermsPage() {
  return (
    <LegalLayout
      title="Terms and Conditions"
      lastUpdated="Last updated: 14 October 2025"
      intro={
        <p>
          Please read these Terms and Conditions carefully. They explain what you can expect from Bahi and
          what we expect from you.
        </p>
      }
      sections={sections}
    />
  );
}
