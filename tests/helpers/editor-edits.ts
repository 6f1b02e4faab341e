/**
 * The edits a content editor makes with docs/content.md alone, applied to a copy of the project:
 * a 13th service in English only, a course in English only, a new standard with its Arabic text
 * and one without (both in the middle of the list), a page and its menu entry in English only, a rewritten paragraph, the
 * company's real phone number, a real client's logo in place of the first listed and the last
 * deleted, the last quality policy point rewritten in English only, and an entry of each trust
 * collection (a team member with an Arabic twin and a photo, two credentials in English only, a
 * case study naming its client with permission). Each is correct and documented, so every content check must pass after them.
 */
import fs from 'node:fs';
import path from 'node:path';

export const NEW_SERVICE = 'quality-digitalization';
export const NEW_COURSE = 'kaizen';
/** A page, and its menu entry, in English only. */
export const NEW_PAGE = 'AuditAssistance/SupplierAudits';
/** A standard with its Arabic text, and one without. */
export const NEW_STANDARD = 'iso-50001-2018';
export const UNTRANSLATED_STANDARD = 'iso-27001-2022';
export const NEW_PHONE = '+966 13 555 0101';
/** A client's logo and name, in place of the first logo listed (and the last is deleted). */
export const NEW_CLIENT = { image: 'clients/qamar-testing.svg', name: 'Qamar Testing' };
/** The fifth quality policy point, rewritten in English only. */
export const NEW_POLICY_POINT =
  'Support Saudi Vision 2030 by training local auditors and building capability in quality, safety and sustainability.';
export const REWRITTEN =
  'Globaq helps organizations in the Eastern Province meet the standards their clients and regulators ask for.';

function replaceIn(file: string, from: RegExp, to: string | ((match: string, ...groups: string[]) => string)): void {
  const text = fs.readFileSync(file, 'utf8');
  if (!from.test(text)) throw new Error(`${from} is not in ${file}: the editor's edit needs updating`);
  fs.writeFileSync(file, text.replace(from, to as string));
}

/** The highest `order` among the services in `dir`. */
export const lastOrder = (dir: string): number =>
  Math.max(
    ...fs
      .readdirSync(path.join(dir, 'src/content/services'))
      .map((name) =>
        Number(/^order: (\d+)/m.exec(fs.readFileSync(path.join(dir, 'src/content/services', name), 'utf8'))?.[1] ?? 0),
      ),
  );

/** The trust entries an editor adds (docs/content.md, "Who does the work"), by file. */
export const TRUST_ENTRIES: Readonly<Record<string, string>> = {
  'src/content/team/placeholder-member.yaml': `order: 1
name: "Placeholder Member"
role: "Placeholder Lead Auditor"
qualifications:
  - title: "ISO 9001:2015 Lead Auditor"
    body: "Placeholder Body"
    number: "TEST-0001"
languages: [English, Arabic]
photo:
  src: "./placeholder-member.svg"
  alt: "Placeholder photo"
`,
  // Without a photo of its own: the Arabic page shows the English one's, its alt marked English.
  'src/content/ar/team/placeholder-member.yaml': `order: 1
name: "عضو تجريبي"
role: "مدقق رئيسي تجريبي"
qualifications:
  - title: "مدقق رئيسي ISO 9001:2015"
    body: "جهة تجريبية"
    number: "TEST-0001"
languages: [الإنجليزية, العربية]
`,
  // No Arabic twin: the Arabic pages show it in English, marked.
  'src/content/credentials/placeholder-cr.yaml': `order: 1
kind: commercial-registration
issuer: "Placeholder Issuer"
number: "TEST-CR-0001"
validUntil: 2030-12-31
`,
  'src/content/credentials/placeholder-vat.yaml': `order: 2
kind: vat
issuer: "Placeholder Issuer"
number: "TEST-VAT-0001"
`,
  'src/content/cases/placeholder-case.yaml': `order: 1
title: "Placeholder case for the tests"
sector: "Placeholder sector"
standards: [iso-9001-2015]
year: 2024
challenge: "The placeholder challenge, long enough for the schema's minimum."
work: "The placeholder work, long enough for the schema's minimum length."
outcome: "The placeholder outcome, long enough for the schema's minimum."
client: "Placeholder Client"
permission: true
`,
  'src/content/ar/cases/placeholder-case.yaml': `order: 1
title: "حالة تجريبية للاختبارات"
sector: "قطاع تجريبي"
standards: [iso-9001-2015]
year: 2024
challenge: "تحدٍ تجريبي بطول يكفي الحد الأدنى للمخطط."
work: "عمل تجريبي بطول يكفي الحد الأدنى للمخطط."
outcome: "نتيجة تجريبية بطول يكفي الحد الأدنى للمخطط."
client: "عميل تجريبي"
permission: true
`,
};

/** A standard as src/data/standards.yaml writes it, with its Arabic words when given. */
const standard = (id: string, code: string, en: { title: string; summary: string }, ar?: { title: string; summary: string }) =>
  `- id: ${id}\n  code: ${code}\n  kind: certification\n  en:\n    title: ${en.title}\n    summary: ${en.summary}\n${ar ? `  ar:\n    title: ${ar.title}\n    summary: ${ar.summary}\n` : ''}`;

/** Applies every edit to the project copy at `dir`. */
export function applyEditorEdits(dir: string): void {
  const at = (file: string) => path.join(dir, file);
  // A 13th service, English only, after the others.
  const service = fs
    .readFileSync(at('src/content/services/ai-solutions.mdx'), 'utf8')
    .replace(/^order: .*$/m, `order: ${lastOrder(dir) + 1}`)
    .replace(/^title: .*$/m, 'title: Quality Digitalization')
    .replace(
      /^description: .*$/m,
      'description: "Quality digitalization in Saudi Arabia: your quality system, records and audits moved from paper to one shared, searchable place."',
    );
  fs.writeFileSync(at(`src/content/services/${NEW_SERVICE}.mdx`), service);
  // A course, English only, first in the list.
  replaceIn(
    at('src/content/pages/trainings/other-trainings.mdx'),
    /^courses:\n/m,
    `courses:\n  - id: ${NEW_COURSE}\n    title: "Kaizen Training"\n    summary: "Small, continuous improvements led by the people who do the work, with practical exercises."\n    duration: "1 day"\n`,
  );
  // Two standards in the middle of the list, as the docs allow: one with its Arabic text, one
  // without; ISO Consultancy lists both, in both languages.
  const standards = fs.readFileSync(at('src/data/standards.yaml'), 'utf8');
  const entries = [...standards.matchAll(/^- id: /gm)].map((match) => match.index);
  const middle = entries[Math.floor(entries.length / 2)]!;
  fs.writeFileSync(
    at('src/data/standards.yaml'),
    standards.slice(0, middle) +
      standard(
        NEW_STANDARD,
        'ISO 50001:2018',
        {
          title: 'Energy management systems',
          summary:
            'A management system to use energy more efficiently, with targets, measurement and continual improvement of energy performance.',
        },
        {
          title: 'أنظمة إدارة الطاقة',
          summary: 'نظام إدارة لاستخدام الطاقة بكفاءة أعلى، بأهداف وقياس وتحسين مستمر لأداء الطاقة.',
        },
      ) +
      standard(UNTRANSLATED_STANDARD, 'ISO/IEC 27001:2022', {
        title: 'Information security management systems',
        summary:
          'Requirements to establish, run and improve an information security management system that protects the confidentiality, integrity and availability of information.',
      }) +
      standards.slice(middle),
  );
  for (const page of ['src/content/pages/iso-consultancy.mdx', 'src/content/ar/pages/iso-consultancy.mdx']) {
    replaceIn(at(page), /^standards:\n((?: {2}- .*\n)+)/m, (all) => `${all}  - ${NEW_STANDARD}\n  - ${UNTRANSLATED_STANDARD}\n`);
  }
  // A page in English only, linked from the English menu only.
  const page = fs
    .readFileSync(at('src/content/pages/audit-assistance/iso-internal-audits.mdx'), 'utf8')
    .replace(/^route: .*$/m, `route: ${NEW_PAGE}`)
    .replace(/^title: .*$/m, 'title: Supplier Audits')
    .replace(
      /^description: .*$/m,
      'description: "Audits of your suppliers against your requirements and ISO 9001, on site in the Kingdom, with a clear report."',
    );
  fs.writeFileSync(at('src/content/pages/audit-assistance/supplier-audits.mdx'), page);
  replaceIn(
    at('src/data/navigation.yaml'),
    /( *)- href: \/AuditAssistance\/ISOThirdPartyAudits\n(?:\1 {2}.*\n)+/,
    (all, indent) => `${all}${indent}- href: /${NEW_PAGE}\n${indent}  label:\n${indent}    en: Supplier Audits\n`,
  );
  // A rewritten paragraph: the About page's first.
  replaceIn(at('src/content/pages/about.mdx'), /(^## .*\n\n)[^\n]+\n/m, (_all, heading) => `${heading}${REWRITTEN}\n`);
  // The company's real phone number, replacing the example: one line.
  replaceIn(at('src/data/company.yaml'), /^phone: .*$/m, `phone: "${NEW_PHONE}"`);
  // A real client's logo in place of the first one listed, whichever it is: its file in src/assets/, its entry.
  replaceIn(at('src/data/carousels.yaml'), /- image: (clients\/\S+)\n( *)name: .*\n/, (_all, image, indent) => {
    fs.copyFileSync(at(`src/assets/${image}`), at(`src/assets/${NEW_CLIENT.image}`));
    return `- image: ${NEW_CLIENT.image}\n${indent}name: ${NEW_CLIENT.name}\n`;
  });
  // The last logo deleted: 4 of the 5 samples left, too few for embla to loop 3 in view without copies.
  replaceIn(at('src/data/carousels.yaml'), /^( *)- image: clients\/\S+\n(?:\1 {2}.*\n)*(?![\s\S])/m, '');
  // The last quality policy point rewritten in English, its Arabic words left for the translator.
  replaceIn(
    at('src/data/home.yaml'),
    /(^qualityPolicy:\n(?:[ \t].*\n)*)( *)- en: .*\n\2 {2}ar: .*\n/m,
    (_all, before, indent) => `${before}${indent}- en: "${NEW_POLICY_POINT}"\n`,
  );
  // An entry of each trust collection, after the entries the collection has: its `order` follows theirs.
  const offsets = Object.fromEntries(
    ['team', 'credentials', 'cases'].map((kind) => {
      const folder = at(`src/content/${kind}`);
      const files = fs.existsSync(folder) ? fs.readdirSync(folder).filter((name) => name.endsWith('.yaml')) : [];
      const orders = files.map((name) =>
        Number(/^order: *(\d+)/m.exec(fs.readFileSync(path.join(folder, name), 'utf8'))?.[1] ?? 0),
      );
      return [kind, Math.max(0, ...orders)];
    }),
  );
  for (const [file, text] of Object.entries(TRUST_ENTRIES)) {
    const offset = offsets[/src\/content\/(?:ar\/)?(\w+)\//.exec(file)?.[1] ?? ''] ?? 0;
    fs.mkdirSync(path.dirname(at(file)), { recursive: true });
    fs.writeFileSync(
      at(file),
      text.replace(/^order: (\d+)/m, (_line, order) => `order: ${offset + Number(order)}`),
    );
  }
  fs.copyFileSync(at('src/assets/brand/icon.svg'), at('src/content/team/placeholder-member.svg'));
}
