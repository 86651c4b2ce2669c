import { STATES } from '@bahi/india';

/**
 * Spelling repair for words OCR read in party names and addresses. Tesseract confuses a few glyph
 * groups in the small sans-serif type of invoices: "ri" read as "n" (Faridabad → "Fandabad",
 * Industrial → "Industnal"), "rn"/"m", "t"/"l", "i"/"l", "e"/"c", "cl"/"d". A word is repaired only
 * when it is not a known word and exactly one such confusion turns it into one: words of Indian
 * addresses and company names, states and common industrial towns. Anything else is left as read.
 */

const WORDS = `
industrial industries industry estate area sector road nagar plaza chambers complex building tower
floor ground first second third highway park street marg lane colony phase stage main cross block
plot survey shed gala office unit door flat khasra village taluk district dist near opposite behind
service link ring bypass station market centre center trade business tech commercial cyber greens
metro midc gidc sidco kiadb ida sipcot riico hsiidc upsidc apiic tsiic private limited pvt ltd llp
corporation company traders trading enterprises associates fabricators fabrication engineering
engineers works mills stores agencies chemicals pharmaceuticals pharma systems solutions services
logistics roadways motors auto automotive components steel metals metal plastics polymers textiles
textile foods agro agrotech power electricals electrical electronics controls hardware
infrastructure hospitality breweries life sciences forgings castings petrochem packaging papers paper
retail brothers sons international global india indian national exports imports industrial
warehouse godown depot plant factory site premises house bhavan bhawan sadan tower towers arcade
square circle chowk bazar bazaar gate junction crossing nagar puram pet halli palli pura wadi
road avenue extension layout enclave residency heights point hub zone sez special economic
north south east west upper lower old new greater inner outer
`;

/** Industrial towns and cities of India, as addresses print them. */
const CITIES = `
mumbai pune nagpur nashik aurangabad thane navi delhi gurugram gurgaon faridabad noida ghaziabad
lucknow kanpur agra varanasi meerut aligarh bareilly jaipur jodhpur udaipur kota ajmer bhiwadi
neemrana ahmedabad surat vadodara rajkot vapi bhavnagar jamnagar ankleshwar bharuch sanand morbi
indore bhopal gwalior jabalpur pithampur raipur bhilai bilaspur kolkata howrah durgapur asansol
haldia bhubaneswar cuttack rourkela patna ranchi jamshedpur dhanbad bokaro guwahati chennai
coimbatore madurai tiruppur salem trichy tiruchirappalli hosur sriperumbudur ambattur guindy
bengaluru bangalore mysuru mysore hubballi hubli dharwad mangaluru mangalore belagavi belgaum peenya
bommasandra whitefield hyderabad secunderabad warangal visakhapatnam vijayawada guntur nellore
tirupati kochi cochin thiruvananthapuram kozhikode thrissur chandigarh ludhiana amritsar jalandhar
mohali panipat sonipat rohtak ambala karnal hisar manesar bawal dehradun haridwar rudrapur shimla
baddi solan jammu srinagar panaji margao verna silvassa daman puducherry pondicherry kolhapur sangli
satara solapur ahmednagar jalgaon amravati akola latur nanded waluj chakan talegaon bhosari pimpri
chinchwad ranjangaon taloja turbhe bhiwandi vasai palghar tarapur ballabgarh sahibabad okhla
naraina bawana mayapuri narela kundli rai kathua satpur ambad hingna butibori shendra chikalthana
`;

/** The words of a text, lower case: its runs of ASCII letters. */
export function lowerWords(text: string): string[] {
  return text
    .toLowerCase()
    .split(/[^a-z]+/)
    .filter(Boolean);
}

/** Place words, lower case: the towns above and every word of a state name. */
const PLACES = new Set<string>([
  ...lowerWords(CITIES),
  ...STATES.flatMap((s) => lowerWords(s.name)).filter((w) => w.length > 2),
]);

/** Known words, lower case: address and company words, and places. */
const KNOWN = new Set<string>([...lowerWords(WORDS), ...PLACES]);

/** Words that qualify a place's name ("New Delhi", "Navi Mumbai", "Greater Noida"). */
const DIRECTIONS = new Set(['new', 'navi', 'north', 'south', 'east', 'west', 'greater']);

/** Words a place's name runs to at most ("Dadra Nagar Haveli"); a longer line is more than a place. */
const PLACE_NAME_MAX_WORDS = 3;

/**
 * Whether a text names only a place ("Bangalore", "New Delhi"): a town or state, the line of an
 * address a layout set where a party's name should be, never the party.
 */
export function isPlaceName(text: string): boolean {
  const words = lowerWords(text);
  return (
    words.length > 0 &&
    words.length <= PLACE_NAME_MAX_WORDS &&
    words.every((w) => PLACES.has(w) || DIRECTIONS.has(w)) &&
    words.some((w) => PLACES.has(w))
  );
}

/** Glyph groups OCR reads for one another, each way: [as read, as printed]. */
const CONFUSIONS: ReadonlyArray<readonly [string, string]> = [
  ['n', 'ri'],
  ['m', 'rn'],
  ['rn', 'm'],
  ['l', 't'],
  ['t', 'l'],
  ['l', 'i'],
  ['i', 'l'],
  ['c', 'e'],
  ['e', 'c'],
  ['d', 'cl'],
  ['h', 'b'],
  ['b', 'h'],
  // A zero for an o inside a word ("Bh0pal"): only ever a known word, never a code, is repaired.
  ['0', 'o'],
];

/** Thin glyphs a blurred photo or a faint scan loses from a word ("Bulding"). */
const DROPPED = ['i', 'l'];

/** Letters a word needs before a lost glyph is put back: a short word would match too many. */
const DROPPED_MIN_LETTERS = 5;

/** Whether a character is an ASCII capital letter. */
function isCapital(c: string | undefined): boolean {
  return c !== undefined && c >= 'A' && c <= 'Z';
}

/** Give `word` the capitalisation of `model` (all caps, capitalised, or lower case). */
function shapeLike(model: string, word: string): string {
  if (model.length > 1 && model === model.toUpperCase()) return word.toUpperCase();
  if (isCapital(model[0])) return word[0]!.toUpperCase() + word.slice(1);
  return word;
}

/** Letters a word needs to be repaired: in a shorter one, one confusion makes too many known words. */
const REPAIR_MIN_LETTERS = 4;

/** The known word one OCR confusion away from `word`, or null (unknown, or several). */
export function repairOcrWord(word: string): string | null {
  const lower = word.toLowerCase();
  if (lower.length < REPAIR_MIN_LETTERS || !/^[a-z0]+$/.test(lower) || KNOWN.has(lower)) return null;
  const found = new Set<string>();
  for (const [read, printed] of CONFUSIONS) {
    for (let i = lower.indexOf(read); i >= 0; i = lower.indexOf(read, i + 1)) {
      const cand = lower.slice(0, i) + printed + lower.slice(i + read.length);
      if (KNOWN.has(cand)) found.add(cand);
    }
  }
  if (lower.length >= DROPPED_MIN_LETTERS)
    for (let i = 1; i < lower.length; i++)
      for (const glyph of DROPPED) {
        const cand = lower.slice(0, i) + glyph + lower.slice(i);
        if (KNOWN.has(cand)) found.add(cand);
      }
  return found.size === 1 ? shapeLike(word, [...found][0]!) : null;
}

/**
 * A company's legal form as OCR misreads it, closing a name ("(P)LTO.", "Pvt LID"): "D" read as
 * "O", "T" as "I". Too short for the word repair above, and only ever the form at a name's end.
 */
const MISREAD_LTD = /(?<=[\s).])(?:LTO|LID|LT0)(?=\.?\s*$)/i;

/** Repair the OCR-misread known words of a name or address line; other words stay as read. */
export function repairOcrText(text: string): string {
  return (
    text
      // A word may hold a zero OCR read for an o, never start or end with one (a figure's "10").
      .replace(/[A-Za-z]+(?:0+[A-Za-z]+)*/g, (w) => repairOcrWord(w) ?? w)
      .replace(MISREAD_LTD, (w) => shapeLike(w, 'ltd'))
      // A dash read as a middle dot between two parts of an address ("Gujarat · 394074").
      .replaceAll(' \u00b7 ', ' - ')
  );
}
