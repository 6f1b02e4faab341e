/**
 * The cities the inbox's search knows in both languages (src/data/places.json), checked when loaded.
 * A word names a place when, folded as placeKey folds it, it is one of the place's spellings or a
 * telling word of one ("Mushait" of "Khamis Mushait").
 */
import { z } from 'zod';
import data from '../../data/places.json' with { type: 'json' };

const LATIN = /^[A-Za-z' -]+$/;
const ARABIC = /^(?:[\u0621-\u064A ]|\u0651)+$/u;

const PlacesFile = z.object({
  about: z.string(),
  places: z
    .array(
      z.object({
        en: z.array(z.string().regex(LATIN)).min(1),
        ar: z.array(z.string().regex(ARABIC)).min(1),
      }),
    )
    .min(30),
});

type Place = { readonly en: readonly string[]; readonly ar: readonly string[] };

/** A spelling as the search compares it: "Al-Khobar", "al khobar", "الخبر" all read "khobar" / "خبر". */
function placeKey(text: string): string {
  return text
    .toLowerCase()
    .replace(/[\u064B-\u0652\u0640]/g, '')
    .replace(/[أإآ]/g, 'ا')
    .replace(/ة/g, 'ه')
    .replace(/ى/g, 'ي')
    .replace(/^(al|ar|at|as|ad|az)[\s-]+/, '')
    .replace(/^ال(?=.{3})/, '')
    .replace(/[\s'’-]+/g, '');
}

/** Words of a spelling that do not tell a place alone ("city", "مدينة"). */
const GENERIC = new Set(['city', 'مدينه', 'bahr', 'ras', 'abu', 'al']);

export function parsePlaces(raw: unknown): Place[] {
  const places = PlacesFile.parse(raw).places;
  const owner = new Map<string, number>();
  places.forEach((place, index) => {
    for (const spelling of [...place.en, ...place.ar]) {
      const key = placeKey(spelling);
      const other = owner.get(key);
      if (other !== undefined && other !== index) throw new Error(`places.json: "${spelling}" names two places`);
      owner.set(key, index);
    }
  });
  return places;
}

export const PLACES: readonly Place[] = parsePlaces(data);

const KEYED = PLACES.map((place) => {
  const spellings = [...place.en, ...place.ar];
  const keys = new Set(spellings.map(placeKey));
  for (const spelling of spellings)
    for (const word of spelling.split(/[\s-]+/)) {
      const key = placeKey(word);
      if (key.length >= 4 && !GENERIC.has(key)) keys.add(key);
    }
  // How a lead may write it: each spelling, and the Arabic ones without the article too.
  const forms = new Set(place.en.map((spelling) => spelling.toLowerCase()));
  for (const spelling of place.ar) {
    forms.add(spelling);
    if (spelling.startsWith('ال') && spelling.length > 5) forms.add(spelling.slice(2));
  }
  return { keys, forms: [...forms] };
});

/** Every way of writing the place (both languages) a typed word names; none when it names none. */
export function placeAlternatives(word: string): string[] {
  const key = placeKey(word);
  if (key.length < 3) return [];
  return KEYED.filter((place) => place.keys.has(key)).flatMap((place) => place.forms);
}
