/**
 * The home page carousels' pictures (docs/requirements.md §4, §12): the hero images and the client logos.
 * To change a picture, put the new file in src/assets/ and point the import at it; any SVG,
 * PNG, JPEG, WebP or AVIF works (the build makes the AVIF/WebP sizes). Keep the order you want
 * them shown in. Every hero image needs `alt` text describing it; every logo needs the
 * client's name (it is the logo's text alternative).
 */
import type { ImageMetadata } from 'astro';
import auditsImage from '../assets/hero/audits.svg';
import laboratoryImage from '../assets/hero/laboratory.svg';
import trainingImage from '../assets/hero/training.svg';
import safetyImage from '../assets/hero/safety.svg';
import sustainabilityImage from '../assets/hero/sustainability.svg';
import industrialImage from '../assets/hero/industrial.svg';
import partnershipImage from '../assets/hero/partnership.svg';
import noravelLogo from '../assets/clients/noravel-energy.svg';
import tessarinLogo from '../assets/clients/tessarin-labs.svg';
import verokanLogo from '../assets/clients/verokan-industrial.svg';
import halvoraLogo from '../assets/clients/halvora-water.svg';
import astervelLogo from '../assets/clients/astervel-engineering.svg';

export interface HeroImage {
  readonly image: ImageMetadata;
  /** What the picture shows, for people who cannot see it. */
  readonly alt: string;
}

export interface ClientLogo {
  readonly image: ImageMetadata;
  /** The client's name: the logo's text alternative. */
  readonly name: string;
}

/** docs/requirements.md §12: the hero carousel advances every 1500 ms. */
export const HERO_INTERVAL_MS = 1500;
/** docs/requirements.md §12: the client carousel advances every 3000 ms. */
export const CLIENT_INTERVAL_MS = 3000;

/**
 * Seven hero illustrations, original artwork made for Globaq (src/assets/hero/*.svg). The
 * first one is the page's largest picture: it is loaded first, the others as they come up.
 */
export const heroImages: readonly HeroImage[] = [
  {
    image: auditsImage,
    alt: 'Illustration of a management-system audit: a checklist on a clipboard with ticked items, a magnifying glass and a results chart.',
  },
  {
    image: laboratoryImage,
    alt: 'Illustration of a testing laboratory: a conical flask, test tubes in a rack and a microscope on a bench.',
  },
  {
    image: trainingImage,
    alt: 'Illustration of a training session: a trainer presenting a rising chart on a screen to a class.',
  },
  {
    image: safetyImage,
    alt: 'Illustration of workplace safety equipment: a hard hat, safety goggles, a traffic cone and a shield with a check mark.',
  },
  {
    image: sustainabilityImage,
    alt: 'Illustration of sustainability: wind turbines, solar panels and leaves inside a circular arrow loop.',
  },
  {
    image: industrialImage,
    alt: 'Illustration of an industrial plant: distillation columns, storage tanks, pipework and a flare stack, with an inspection check mark.',
  },
  {
    image: partnershipImage,
    alt: 'Illustration of partnership: two puzzle pieces fitting together in front of a globe, with two people connected.',
  },
];

/**
 * SAMPLE LOGOS — REPLACE BEFORE GOING LIVE. These five are fictional companies with wordmarks
 * drawn for this site (src/assets/clients/*.svg), so the carousel can be built and tested. They
 * are not Globaq's clients and not real companies. Replace each with a real client's logo
 * (with the client's permission) and name.
 */
export const clientLogos: readonly ClientLogo[] = [
  { image: noravelLogo, name: 'Noravel Energy' },
  { image: tessarinLogo, name: 'Tessarin Labs' },
  { image: verokanLogo, name: 'Verokan Industrial' },
  { image: halvoraLogo, name: 'Halvora Water' },
  { image: astervelLogo, name: 'Astervel Engineering' },
];
