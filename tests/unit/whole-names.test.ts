/** Names kept on one line: found in a text, wrapped in MDX bodies, text left letter for letter. */
import { describe, expect, test } from 'vitest';
import { splitWholeNames, WHOLE_NAMES, wrapWholeNamesInHtml } from '../../src/lib/whole-names';

const wholes = (text: string) =>
  splitWholeNames(text)
    .filter((run) => run.whole)
    .map((run) => run.text);

describe('names kept whole', () => {
  test('finds each listed name and every standard code, and nothing inside another word', () => {
    expect(wholes('Globaq delivers from Al-Khobar: Saudi Aramco Schedule Q and Schedule D assessments')).toEqual([
      'Al-Khobar',
      'Saudi Aramco',
      'Schedule Q',
      'Schedule D',
    ]);
    expect(wholes('ISO 9001:2015, ISO/IEC 17025:2017 and ISO/IEC 17025 labs')).toEqual([
      'ISO 9001:2015',
      'ISO/IEC 17025:2017',
      'ISO/IEC 17025',
    ]);
    expect(wholes('Schedule Quality')).toEqual([]);
    expect(wholes('Simple, Efficient and Timely, in support of Saudi Vision 2030.')).toEqual(['Saudi Vision 2030']);
    expect(wholes('ببساطة وكفاءة، دعمًا لرؤية السعودية 2030.')).toEqual(['السعودية 2030']);
    expect(wholes('مثل ISO 9001 و ISO 14001 و ISO 45001.')).toEqual(['ISO 9001', 'ISO 14001', 'ISO 45001']);
    expect(wholes('تقييمات Schedule Q و Schedule D لأرامكو')).toEqual(['Schedule Q', 'Schedule D']);
    for (const name of WHOLE_NAMES) expect(wholes(`a ${name} b`)).toEqual([name]);
  });

  test('the runs put together are the text, letter for letter', () => {
    const text = 'From Al-Khobar (Saudi Arabia): Schedule Q, ISO 14001:2015.';
    expect(
      splitWholeNames(text)
        .map((run) => run.text)
        .join(''),
    ).toBe(text);
  });

  test('in rendered HTML (an MDX body) names in the text are wrapped; tags, code, styles (a `<` in their CSS too) and islands are not', () => {
    const html =
      '<style>@media (width < 40rem) { p { color: red } }</style><p title="Al-Khobar">Trainings in Al-Khobar.</p><code>Al-Khobar</code><astro-island><p>Schedule Q</p></astro-island><p>Schedule Q <br/>and ISO 9001:2015</p>';
    expect(wrapWholeNamesInHtml(html)).toBe(
      '<style>@media (width < 40rem) { p { color: red } }</style><p title="Al-Khobar">Trainings in <span class="nowrap">Al-Khobar</span>.</p><code>Al-Khobar</code><astro-island><p>Schedule Q</p></astro-island>' +
        '<p><span class="nowrap">Schedule Q</span> <br/>and <span class="nowrap">ISO 9001:2015</span></p>',
    );
  });
});
