/**
 * The home page carousels' pictures (docs/requirements.md §4, §12), read from src/data/carousels.yaml and checked; each
 * `image` names a file of src/assets/, made into AVIF and WebP sizes.
 */
import type { ImageMetadata } from 'astro';
import { readDataFile, DataFileError } from './data-file.ts';
import { CAROUSELS_FILE, carouselsFileSchema, type Words } from './schemas.ts';

/** docs/requirements.md §12: the hero carousel advances every 1500 ms. */
export const HERO_INTERVAL_MS = 1500;
/** docs/requirements.md §12: the client carousel advances every 3000 ms. */
export const CLIENT_INTERVAL_MS = 3000;

/** Every picture of src/assets/, by its path there ("hero/audits.svg"). */
const ASSETS = Object.fromEntries(
  Object.entries(import.meta.glob<ImageMetadata>('../assets/**/*.{svg,png,jpg,jpeg,webp,avif}', { eager: true, import: 'default' })).map(
    ([file, image]) => [file.slice('../assets/'.length), image],
  ),
);

const carousels = readDataFile(CAROUSELS_FILE, carouselsFileSchema);

const imageAt = (list: 'hero' | 'clients', i: number, file: string): ImageMetadata => {
  const image = ASSETS[file];
  if (!image) throw new DataFileError(CAROUSELS_FILE, [`${list} entry ${i + 1}, field "image" is "${file}": no such file in src/assets/`]);
  return image;
};

interface HeroImage {
  readonly image: ImageMetadata;
  /** What the picture shows, for people who cannot see it, in each language. */
  readonly alt: string;
  readonly alts: Words;
}

interface ClientLogo {
  readonly image: ImageMetadata;
  /** The client's name: the logo's text alternative. */
  readonly name: string;
}

export const heroImages: readonly HeroImage[] = carousels.hero.map(({ image, alt }, i) => ({ image: imageAt('hero', i, image), alt: alt.en, alts: alt }));

export const clientLogos: readonly ClientLogo[] = carousels.clients.map(({ image, name }, i) => ({ image: imageAt('clients', i, image), name }));
