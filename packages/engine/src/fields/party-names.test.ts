import { describe, expect, it } from 'vitest';
import {
  cutAddressAfterForm,
  hasMisreadForm,
  isAddressNotName,
  isNeverAPartyName,
  looksLikeAddress,
  nameAgreesWithGstin,
  panHolderOfGstin,
} from './party-names.ts';

describe('isNeverAPartyName', () => {
  it.each([
    'Legal Name',
    'Trade Name :',
    'Name',
    'Buyer',
    'Consignee Details',
    'Copy',
    'Customer Copy',
    'Original for Recipient',
    'DUPLICATE FOR TRANSPORTER',
    'Triplicate',
    'DEL',
    'DEL - BOM',
    'Bill To',
    'M/s.',
    'Details',
    '(Original)',
  ])('refuses %j', (text) => {
    expect(isNeverAPartyName(text)).toBe(true);
  });

  it.each([
    'Sharma Traders',
    'Bharat Heavy Electricals Limited',
    'For Office Supplies Co',
    'Copy Craft Printers',
    'Original Spares Pvt Ltd',
    'BSNL',
    'Delhi Tubes',
    'MAHALAXMIGRAM',
    'Supplier Solutions LLP',
  ])('keeps %j', (text) => {
    expect(isNeverAPartyName(text)).toBe(false);
  });
});

describe('PAN holder of a GSTIN', () => {
  // Structurally valid GSTINs; the check character is not what this reads.
  it('reads the fourth PAN character', () => {
    expect(panHolderOfGstin('27AAACR5055K1Z7')).toBe('company');
    expect(panHolderOfGstin('29AAFFS1234K1Z2')).toBe('firm');
    expect(panHolderOfGstin('09ABCPS1234K1Z5')).toBe('person');
    expect(panHolderOfGstin('not a gstin')).toBeNull();
  });

  it('says when a name agrees with, or contradicts, the PAN beside it', () => {
    expect(nameAgreesWithGstin('Reliance Industries Limited', '27AAACR5055K1Z7')).toBe('agree');
    expect(nameAgreesWithGstin('Shree Traders', '27AAACR5055K1Z7')).toBe('unlikely');
    expect(nameAgreesWithGstin('Kaveri Labs Pvt Ltd', '09ABCPS1234K1Z5')).toBe('conflict');
    expect(nameAgreesWithGstin('Sun Advisors LLP', '29AAFFS1234K1Z2')).toBe('agree');
    expect(nameAgreesWithGstin('Ramesh Kumar', '09ABCPS1234K1Z5')).toBe('unknown');
  });
});

describe('looksLikeAddress', () => {
  it('doubts address lines read as names', () => {
    expect(looksLikeAddress('Indira Layout')).toBe(true);
    expect(looksLikeAddress('Sector-41, Gurugram, Haryana')).toBe(true);
    expect(looksLikeAddress('Plot No. 14, MIDC')).toBe(true);
    expect(looksLikeAddress('Vardhman Hardware, Pune')).toBe(false);
    expect(looksLikeAddress('Sahyadri Pumps (Pune) Private Limited')).toBe(false);
  });
});

describe('cutAddressAfterForm', () => {
  it('ends a name at its company form when an address runs on after it', () => {
    expect(cutAddressAfterForm('Mehta Tools Pvt. Ltd. 14, Canal Road, Pune - 411001')).toBe(
      'Mehta Tools Pvt. Ltd.',
    );
    expect(cutAddressAfterForm('Sunrise Agro LLP Sector-5, Noida')).toBe('Sunrise Agro LLP');
    expect(cutAddressAfterForm('Sahyadri Pumps (Pune) Private Limited')).toBe(
      'Sahyadri Pumps (Pune) Private Limited',
    );
    expect(cutAddressAfterForm('Orion Castings Limited (FY2022-27)')).toBe(
      'Orion Castings Limited (FY2022-27)',
    );
    expect(cutAddressAfterForm('Limited Edition Traders')).toBe('Limited Edition Traders');
  });
});

describe('isAddressNotName', () => {
  it.each([
    'Indira Layout',
    'Sector-41, Gurugram, Haryana',
    'Plot No. 12, MIDC',
    'Near Bus Stand, Opp. Temple, Pune',
  ])('an address line with nothing of a business in it is no name: %s', (line) =>
    expect(isAddressNotName(line)).toBe(true),
  );
  it.each([
    'Gandhi Nagar Traders',
    'Sector Five Steels Pvt Ltd',
    'Ring Road Motors & Co',
    'Sahyadri Pumps Pvt Ltd',
  ])('a business that names a place keeps its name: %s', (name) =>
    expect(isAddressNotName(name)).toBe(false),
  );
});

describe('a company form OCR misread', () => {
  it('is a word of the same length a slip or two from Private or Limited', () => {
    expect(hasMisreadForm('KAVERI AGRO PRIUAIE LIMIIED')).toBe(true);
    expect(hasMisreadForm('Kaveri Agro Foods Limitcd')).toBe(true);
    expect(hasMisreadForm('Kaveri Agro Foods Private Limited')).toBe(false);
    expect(hasMisreadForm('Sahyadri Unlimited Pumps')).toBe(false);
  });
});
