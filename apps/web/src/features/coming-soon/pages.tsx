import {
  BadgeCheckIcon,
  BanknoteIcon,
  CalendarClockIcon,
  ClipboardCheckIcon,
  FileSpreadsheetIcon,
  GaugeIcon,
  GitCompareArrowsIcon,
  HandCoinsIcon,
  HourglassIcon,
  LandmarkIcon,
  LineChartIcon,
  ReceiptIndianRupeeIcon,
  ScanLineIcon,
  ShieldCheckIcon,
  UserPlusIcon,
  UsersIcon,
  WalletIcon,
} from 'lucide-react';
import type * as React from 'react';
import { type ComingSoonContent, ComingSoonPage } from './coming-soon-page.tsx';

const vendorManagement: ComingSoonContent = {
  module: 'vendor-management',
  icon: UsersIcon,
  eyebrow: 'Vendor Management',
  // Onboarding links and the vendor master below work today; online verification is still to come.
  availableBadge: 'Vendor onboarding available',
  title: 'Onboard and pay vendors without the paperwork chase',
  description:
    'Send a vendor a link to fill in their own PAN, GSTINs, bank account and Udyam details, approve what they send, and keep every supplier of your verified documents in one vendor master. Checking GSTINs and bank accounts online with the government and banks is planned.',
  features: [
    {
      icon: UserPlusIcon,
      title: 'Self-serve vendor onboarding',
      description: 'Send a link; vendors submit GSTIN, PAN, bank details and cancelled cheque themselves.',
      available: { where: 'Create a link under Vendor onboarding above' },
    },
    {
      icon: BadgeCheckIcon,
      title: 'GSTIN and PAN verification',
      description:
        'Check GSTIN status, legal name and filing regularity, and that the PAN matches the GSTIN.',
    },
    {
      icon: BanknoteIcon,
      title: 'Bank account validation',
      description: 'Penny-drop verification of account number and IFSC before the first payout.',
    },
    {
      icon: ShieldCheckIcon,
      title: 'MSME Udyam status',
      description:
        'Capture the Udyam registration number and category so MSME payment deadlines are tracked.',
      available: { where: 'Open MSME', to: '/msme' },
    },
    {
      icon: GitCompareArrowsIcon,
      title: 'Three-way match before payout',
      description: 'Release payments only when the PO, GRN and invoice agree on quantities, rates and tax.',
      available: { where: 'Open Reconcile', to: '/reconcile' },
    },
    {
      icon: FileSpreadsheetIcon,
      title: 'Vendor statements',
      description:
        'Ledger, open invoices, TDS deducted and payments made — one shareable statement per vendor.',
    },
  ],
  benefits: [
    'Cut vendor onboarding from days of e-mails to a single link.',
    'Stop payments to wrong or unverified bank accounts.',
    'Keep one clean vendor master across Tally, Zoho Books and your sheets.',
    'Know which MSME vendors must be paid first.',
  ],
};

const compliance: ComingSoonContent = {
  module: 'gst-tds-msme',
  icon: LandmarkIcon,
  eyebrow: 'GST & TDS, MSME Compliance',
  // MSME payment dates already work on the Reconcile screen; the rest of the module is planned.
  availableBadge: 'MSME payment dates available',
  title: 'Stay compliant every month, not just at filing time',
  description:
    'Reconcile input tax credit, deduct the right TDS and pay MSME vendors within the statutory limit — with the evidence kept.',
  features: [
    {
      icon: GitCompareArrowsIcon,
      title: 'GSTR-2B reconciliation',
      description:
        'Match your purchase register with GSTR-2B and flag missing, mismatched or ineligible ITC.',
    },
    {
      icon: ReceiptIndianRupeeIcon,
      title: 'TDS deduction',
      description:
        'Suggest the section (194C, 194J, 194Q…) and rate per invoice, including lower-deduction certificates.',
    },
    {
      icon: ClipboardCheckIcon,
      title: 'Form 26Q preparation',
      description: 'Build quarterly 26Q data from deductions made, with PAN validation and challan mapping.',
    },
    {
      icon: HourglassIcon,
      title: 'MSME 45-day tracking',
      description: 'Track dues to MSME suppliers under section 43B(h) so expenses are not disallowed.',
      available: { where: 'Open MSME', to: '/msme' },
    },
    {
      icon: CalendarClockIcon,
      title: 'Due-date calendar',
      description: 'GSTR-1, GSTR-3B, TDS deposit and return deadlines with reminders to the right person.',
    },
    {
      icon: ScanLineIcon,
      title: 'E-invoice and e-way bill checks',
      description: 'Verify the IRN and signed QR on e-invoices and flag movements that need an e-way bill.',
    },
  ],
  benefits: [
    'Claim every rupee of eligible input tax credit.',
    'Avoid interest and penalties from late or short TDS deduction.',
    'Protect your deduction under section 43B(h) by paying MSMEs on time.',
    'Hand your auditor reconciliations instead of spreadsheets to rebuild.',
  ],
};

const workingCapital: ComingSoonContent = {
  module: 'working-capital',
  icon: WalletIcon,
  eyebrow: 'Working Capital Management',
  title: 'See your cash position weeks ahead',
  description:
    'Forecast cash from your actual receivables and payables, spot ageing early, and unlock cash tied up in invoices.',
  features: [
    {
      icon: LineChartIcon,
      title: 'Cash-flow forecasting',
      description: '13-week forecast built from open invoices, payment terms and recurring commitments.',
    },
    {
      icon: CalendarClockIcon,
      title: 'Receivables ageing',
      description: 'Ageing buckets by customer with reminders for overdue invoices.',
    },
    {
      icon: HourglassIcon,
      title: 'Payables ageing',
      description: 'Plan payouts by due date and discount windows without missing MSME deadlines.',
    },
    {
      icon: HandCoinsIcon,
      title: 'Invoice discounting and TReDS',
      description:
        'Identify invoices eligible for discounting on TReDS platforms and compare the cost of funds.',
    },
    {
      icon: GaugeIcon,
      title: 'Working capital metrics',
      description: 'DSO, DPO, inventory days and the cash conversion cycle, tracked month on month.',
    },
    {
      icon: BanknoteIcon,
      title: 'Payment runs',
      description:
        'Batch approved payables into a bank upload file, prioritising MSME dues and early-payment discounts.',
    },
  ],
  benefits: [
    'Fewer surprises at month end.',
    'Lower borrowing by collecting and paying at the right time.',
    'A shared view of cash for founders, finance and operations.',
    'Cheaper funding by discounting the right invoices at the right time.',
  ],
};

/**
 * `/vendor-management`: what already works (`children`: the router passes the Vendors feature's vendor
 * master), then the portal still to come.
 */
export function VendorManagementPage({ children }: { children?: React.ReactNode }) {
  return <ComingSoonPage content={vendorManagement}>{children}</ComingSoonPage>;
}

/** `/compliance`: GST & TDS, MSME Compliance. */
export function CompliancePage() {
  return <ComingSoonPage content={compliance} />;
}

/** `/working-capital`. */
export function WorkingCapitalPage() {
  return <ComingSoonPage content={workingCapital} />;
}
