/**
 * Who does the work: the team, the credentials and the case studies, in each language. The repository ships no entry;
 * a collection's page, sections and links exist only once it has one. An untranslated entry shows in English, `pending`.
 */
import { getCollection, getEntry, type CollectionEntry } from 'astro:content';
import { assertTwins } from './catalogue';
import { defaultLocale, type Locale } from '../i18n';
import { TRUST_ROUTES } from '../integrations/content-links.ts';

export type TrustKind = 'team' | 'credentials' | 'cases';
const TRUST_KINDS: readonly TrustKind[] = ['team', 'credentials', 'cases'];

/** Each collection's page, unprefixed (/ar adds its prefix); the link check knows them too. */
export { TRUST_ROUTES };

export type TeamEntry = CollectionEntry<'team'> | CollectionEntry<'arTeam'>;
export type CredentialEntry = CollectionEntry<'credentials'> | CollectionEntry<'arCredentials'>;
export type CaseEntry = CollectionEntry<'cases'> | CollectionEntry<'arCases'>;

/** An entry as a page shows it: `pending` when it is the English one standing in for its translation. */
export interface Shown<E> {
  readonly entry: E;
  readonly pending: boolean;
  /** A translated team member shown with the English entry's photo, whose `alt` is English. */
  readonly photoInEnglish?: boolean;
}

interface Twinned {
  readonly id: string;
  readonly filePath?: string | undefined;
  readonly data: { readonly order: number };
}

/** The entries in `locale` by `order`: translations checked against their English twins, the rest English and pending. */
function inLocale<E extends Twinned>(
  english: readonly E[],
  translated: readonly E[],
  facts: (entry: E) => Record<string, unknown>,
  locale: Locale,
): Shown<E>[] {
  const byOrder = [...english].sort((a, b) => a.data.order - b.data.order);
  if (locale.code === defaultLocale.code) return byOrder.map((entry) => ({ entry, pending: false }));
  const summary = (entry: E) => ({ key: entry.id, facts: facts(entry), filePath: entry.filePath });
  assertTwins(byOrder.map(summary), translated.map(summary), 'file name');
  const own = new Map(translated.map((entry) => [entry.id, entry]));
  return byOrder.map((original) => {
    const twin = own.get(original.id);
    return twin ? { entry: twin, pending: false } : { entry: original, pending: true };
  });
}

type TrustCollection = 'team' | 'credentials' | 'cases' | 'arTeam' | 'arCredentials' | 'arCases';

/** A trust collection's entries, without asking Astro when it has none: getCollection() warns of an empty one on every page. */
async function entriesOf<C extends TrustCollection>(name: C): Promise<CollectionEntry<C>[]> {
  const counts = (await getEntry('trustCounts', 'count'))?.data;
  return counts && counts[name] > 0 ? ((await getCollection(name)) as CollectionEntry<C>[]) : [];
}

const day = (date: Date | undefined) => date?.toISOString().slice(0, 10);

/** The team in `locale`. A twin has the same order and numbers; without a photo of its own it shows the English one's. */
export async function getTeam(locale: Locale = defaultLocale): Promise<Shown<TeamEntry>[]> {
  const [english, arabic] = await Promise.all([entriesOf('team'), entriesOf('arTeam')]);
  const shown = inLocale<TeamEntry>(
    english,
    arabic,
    (e) => ({ order: e.data.order, numbers: e.data.qualifications.map((q) => q.number ?? null) }),
    locale,
  );
  const photoOf = new Map(english.map((e) => [e.id, e.data.photo]));
  return shown.map((member) => {
    const photo = photoOf.get(member.entry.id);
    if (member.pending || member.entry.data.photo || !photo) return member;
    return { ...member, entry: { ...member.entry, data: { ...member.entry.data, photo } } as TeamEntry, photoInEnglish: true };
  });
}

/** The credentials, in `locale`. A twin has the same order, kind, number, dates and document. */
export async function getCredentials(locale: Locale = defaultLocale): Promise<Shown<CredentialEntry>[]> {
  const [english, arabic] = await Promise.all([entriesOf('credentials'), entriesOf('arCredentials')]);
  return inLocale<CredentialEntry>(
    english,
    arabic,
    (e) => ({
      order: e.data.order,
      kind: e.data.kind,
      number: e.data.number,
      validFrom: day(e.data.validFrom) ?? null,
      validUntil: day(e.data.validUntil) ?? null,
      document: e.data.document ?? null,
    }),
    locale,
  );
}

/** The case studies, in `locale`. A twin has the same order, standards, year and permission. */
export async function getCases(locale: Locale = defaultLocale): Promise<Shown<CaseEntry>[]> {
  const [english, arabic] = await Promise.all([entriesOf('cases'), entriesOf('arCases')]);
  return inLocale<CaseEntry>(
    english,
    arabic,
    (e) => ({
      order: e.data.order,
      standards: e.data.standards,
      year: e.data.year,
      permission: e.data.permission ?? false,
      named: e.data.client !== undefined,
    }),
    locale,
  );
}

/** The trust collections that have entries: only these have a page, a section and links. */
export async function trustKindsWithEntries(): Promise<TrustKind[]> {
  const counts = (await getEntry('trustCounts', 'count'))?.data;
  return TRUST_KINDS.filter((kind) => (counts?.[kind] ?? 0) > 0);
}
