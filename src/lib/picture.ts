/**
 * Pictures for the carousel islands, made by astro:assets at build time. An island cannot render
 * Astro's <Picture>, so the page asks for the same files with getImage() and hands the island
 * plain data (src, srcset, sizes, width, height, one <source> per format).
 */
import { getImage } from 'astro:assets';
import type { ImageMetadata } from 'astro';
import type { PictureData } from './carousel';

type RasterFormat = 'avif' | 'webp';

interface PictureOptions {
  /** Candidate widths for srcset (never wider than the source). */
  readonly widths: readonly number[];
  /** The `sizes` attribute: how wide the picture is shown at each viewport width. */
  readonly sizes: string;
  /** Better formats first; the last one is the <img> fallback. */
  readonly formats?: readonly [RasterFormat, ...RasterFormat[]];
}

/** AVIF and WebP at several widths. SVG sources are rasterized (image.dangerouslyProcessSVG: our own files only). */
export async function rasterPicture(src: ImageMetadata, options: PictureOptions): Promise<PictureData> {
  const formats = options.formats ?? (['avif', 'webp'] as const);
  const images = await Promise.all(
    formats.map((format) => getImage({ src, format, widths: [...options.widths], sizes: options.sizes })),
  );
  const fallback = images[images.length - 1];
  if (!fallback) throw new Error('rasterPicture needs at least one format');
  return {
    src: fallback.src,
    srcset: fallback.srcSet.attribute,
    sizes: options.sizes,
    width: src.width,
    height: src.height,
    sources: images.slice(0, -1).map((image, i) => ({ type: `image/${formats[i] ?? 'webp'}`, srcset: image.srcSet.attribute })),
  };
}

/**
 * A logo: an SVG is served as it is (sharp at any size, a few KB); a raster logo (PNG, JPEG…)
 * gets AVIF and WebP at the widths given.
 */
export async function logoPicture(src: ImageMetadata, options: PictureOptions): Promise<PictureData> {
  if (src.format === 'svg') {
    const image = await getImage({ src, format: 'svg' });
    return { src: image.src, width: src.width, height: src.height, sources: [] };
  }
  return rasterPicture(src, options);
}
