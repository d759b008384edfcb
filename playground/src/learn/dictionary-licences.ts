/**
 * The licences of the dictionaries the Learn tab fetches (spelling.ts), shipped beside them as assets:
 * the tab's hint links each one.
 */

import usLicence from '#dictionary-en/license?url';
import gbLicence from '#dictionary-en-gb/license?url';
import termsLicence from '#software-terms/../LICENSE?url';

/** Each dictionary's name and the URL of its licence. */
export const DICTIONARY_LICENCES: readonly { name: string; url: string }[] = [
  { name: 'Hunspell en_US (dictionary-en)', url: usLicence },
  { name: 'Hunspell en_GB (dictionary-en-gb)', url: gbLicence },
  { name: 'cspell software terms', url: termsLicence },
];
