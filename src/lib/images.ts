/**
 * Build-time raster images: each page's share image (drawn with satori from the page title in Cairo, Latin and Arabic;
 * satori shapes Arabic with HarfBuzz and lays right-to-left boxes out from the right) and the app icons.
 */
import fs from 'node:fs/promises';
import { createRequire } from 'node:module';
import satori from 'satori';
import sharp from 'sharp';

const require = createRequire(import.meta.url);
let fonts: Promise<{ name: string; data: Buffer; weight: 700 | 800; style: 'normal' }[]> | undefined;

/** Cairo's files at the image's two weights: satori falls back to the next family, not another file of one family. */
const FONT_FAMILY = 'Cairo, "Cairo Arabic"';

function loadFonts() {
  fonts ??= Promise.all(
    (['latin', 'arabic'] as const).flatMap((subset) =>
      ([700, 800] as const).map(async (weight) => ({
        name: subset === 'latin' ? 'Cairo' : 'Cairo Arabic',
        weight,
        style: 'normal' as const,
        data: await fs.readFile(require.resolve(`@fontsource/cairo/files/cairo-${subset}-${weight}-normal.woff`)),
      })),
    ),
  );
  return fonts;
}

/**
 * Arabic's optional marks (tanween, fatha, damma, kasra, shadda, sukun: U+064B to U+0652, and the dagger alif U+0670).
 * Satori draws a mark without the font's mark-to-letter positioning (a shadda inside the letter under it), so the share
 * images drop them, as headlines are normally written; the pages keep them.
 */
const ARABIC_MARKS = /[\u064B-\u0652\u0670]/g;

/** The text a share image draws: `text` without Arabic's optional marks (letters and hamza kept). */
export function shareImageText(text: string): string {
  return text.replace(ARABIC_MARKS, '');
}

type Node = { type: string; props: Record<string, unknown> };
const el = (type: string, style: Record<string, unknown>, children?: unknown, extra: Record<string, unknown> = {}): Node => ({
  type,
  props: { style, children, ...extra },
});

/** A 1200x630 PNG: navy background, the shield, the company name, the page title and the tagline. */
export async function renderShareImage(
  title: string,
  options: { company: string; tagline: string; iconSvg: string; dir?: 'ltr' | 'rtl' },
): Promise<Buffer> {
  const icon = `data:image/svg+xml;base64,${Buffer.from(options.iconSvg).toString('base64')}`;
  title = shareImageText(title);
  const tagline = shareImageText(options.tagline);
  const tree = el(
    'div',
    {
      // Satori sizes boxes without their padding: 1200x630 in all.
      width: 1200 - 2 * 80,
      height: 630 - 2 * 64,
      display: 'flex',
      flexDirection: 'column',
      justifyContent: 'space-between',
      padding: '64px 80px',
      backgroundColor: '#0b2545',
      backgroundImage: 'linear-gradient(135deg, #071a33 0%, #13315c 100%)',
      fontFamily: FONT_FAMILY,
      color: '#ffffff',
      // Right to left: the rows start at the right, the shield and the accent bar mirrored.
      direction: options.dir ?? 'ltr',
    },
    [
      el('div', { display: 'flex', alignItems: 'center', gap: '24px' }, [
        el('img', { width: 88, height: 88 }, undefined, { src: icon, width: 88, height: 88 }),
        el('div', { fontSize: 56, fontWeight: 800 }, options.company),
      ]),
      el(
        'div',
        { display: 'flex', fontSize: title.length > 40 ? 64 : 76, fontWeight: 800, lineHeight: 1.15, maxWidth: 1040 },
        title,
      ),
      el('div', { display: 'flex', alignItems: 'center', fontSize: 34, fontWeight: 700, color: '#f28c28' }, [
        el('div', {
          width: 64,
          height: 8,
          [options.dir === 'rtl' ? 'marginLeft' : 'marginRight']: 20,
          backgroundColor: '#f28c28',
          borderRadius: 4,
        }),
        el('div', { display: 'flex' }, tagline),
      ]),
    ],
  );
  const svg = await satori(tree as unknown as Parameters<typeof satori>[0], {
    width: 1200,
    height: 630,
    fonts: await loadFonts(),
  });
  return sharp(Buffer.from(svg)).png({ compressionLevel: 9, palette: true }).toBuffer();
}

/** A square PNG of the app icon. */
export function renderIcon(iconSvg: string, size: number): Promise<Buffer> {
  return sharp(Buffer.from(iconSvg), { density: Math.max(72, (72 * size) / 512) })
    .resize(size, size)
    .png()
    .toBuffer();
}

/** An ICO file holding one PNG (browsers ask for /favicon.ico on their own). */
export function pngToIco(png: Buffer, size: number): Buffer {
  const header = Buffer.alloc(6);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2); // icon
  header.writeUInt16LE(1, 4); // one image
  const entry = Buffer.alloc(16);
  entry.writeUInt8(size >= 256 ? 0 : size, 0);
  entry.writeUInt8(size >= 256 ? 0 : size, 1);
  entry.writeUInt8(0, 2); // no palette
  entry.writeUInt8(0, 3);
  entry.writeUInt16LE(1, 4); // colour planes
  entry.writeUInt16LE(32, 6); // bits per pixel
  entry.writeUInt32LE(png.length, 8);
  entry.writeUInt32LE(6 + 16, 12);
  return Buffer.concat([header, entry, png]);
}
