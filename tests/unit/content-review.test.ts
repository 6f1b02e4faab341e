/**
 * What a senior Saudi QHSE reader checks on the pages, in both languages: the Saudi Aramco
 * schedules in their contractual terms, the editions and kinds of the ISO standards, one Arabic
 * term for the approval of a plan or a person, facts instead of the motto on every page, and the
 * links a visitor follows from a service to the pages that detail it. Each test reads the content
 * files as an editor leaves them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { describe, expect, test } from 'vitest';
import { glossaryRules } from '../../src/integrations/content-rules';

const ROOT = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => fs.readFileSync(path.join(ROOT, file), 'utf8');
const both = (file: string) => ({ en: read(`src/content/${file}`), ar: read(`src/content/ar/${file}`) });

/** Every MDX file under a folder, as [path relative to the project, text]. */
function mdx(dir: string): Array<[string, string]> {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry): Array<[string, string]> => {
    const rel = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return rel === 'src/content/ar' ? [] : mdx(rel);
    return entry.name.endsWith('.mdx') ? [[rel, read(rel)]] : [];
  });
}
const english = mdx('src/content');
const arabic = mdx('src/content/ar');

/** A page's front matter, parsed. */
function frontMatter(text: string): Record<string, unknown> {
  return parse(/^---\n([\s\S]*?)\n---/.exec(text)?.[1] ?? '') as Record<string, unknown>;
}

describe('Saudi Aramco schedules in their contractual terms', () => {
  test('the audits service says the contract sets the Schedule Q assessments and names their terms, in both languages', () => {
    const { en, ar } = both('services/ms-audits.mdx');
    expect(en).toContain("Your contract and its Schedule Q set when the contractor's quality system is assessed");
    expect(en).toMatch(/commissioned by the contractor as an independent assessor/);
    expect(en).toMatch(/We are not Saudi Aramco/);
    for (const term of ['SATIP', 'SAIC', 'QA/QC staff approved by Saudi Aramco', 'nonconformance reports']) {
      expect(en).toContain(term);
    }
    expect(ar).toContain('والعقد وملحقه Schedule Q هما اللذان يحددان متى يُقيَّم نظام الجودة');
    expect(ar).toContain('بتكليف من المقاول بصفتنا جهة تقييم مستقلة');
    expect(ar).toContain('ولسنا أرامكو السعودية');
    for (const term of ['SATIP', 'SAIC', 'توافق عليهم أرامكو السعودية', 'تقارير عدم المطابقة']) {
      expect(ar).toContain(term);
    }
  });

  test('Schedule D names the site safety program, the CSM parts and GI 2.100 permits, in both languages', () => {
    const service = both('services/ms-audits.mdx');
    const page = both('pages/management-system-audits/schedule-d-safety-assessment.mdx');
    for (const text of [service.en, page.en]) expect(text).toMatch(/GI 2\.100/);
    expect(service.en).toMatch(/contractor site safety program/i);
    expect(page.en).toContain('Contractor Site Safety Program (CSSP)');
    expect(page.en).toContain('Contractor Safety Administrative Requirements (CSAR)');
    expect(page.en).toContain('Work Site Safety Manual (WSSM)');
    expect(page.en).toMatch(/work permit receivers certified/);
    for (const text of [service.ar, page.ar]) expect(text).toMatch(/GI 2\.100/);
    expect(service.ar).toContain('برنامج السلامة في موقع المقاول');
    expect(page.ar).toContain('برنامج السلامة في موقع المقاول (CSSP)');
    expect(page.ar).toContain('المتطلبات الإدارية لسلامة المقاولين (CSAR)');
    expect(page.ar).toContain('دليل السلامة في مواقع العمل (WSSM)');
  });

  test('the Saudi Aramco awareness courses say what each covers specifically, in both languages', () => {
    const summaries = (text: string) =>
      Object.fromEntries((frontMatter(text).courses as Array<{ id: string; summary: string }>).map((c) => [c.id, c.summary]));
    const { en, ar } = both('pages/trainings/other-trainings.mdx');
    const [e, a] = [summaries(en), summaries(ar)];
    expect(e['schedule-q-awareness']).toMatch(/SATIP and SAIC/);
    expect(e['schedule-q-awareness']).toMatch(/QA\/QC staff approved by Saudi Aramco/);
    expect(e['schedule-q-awareness']).toMatch(/closing nonconformance reports/);
    expect(e['schedule-d-awareness']).toMatch(/Contractor Site Safety Program \(CSSP\)/);
    expect(e['schedule-d-awareness']).toMatch(/GI 2\.100/);
    expect(e['csar-awareness']).toMatch(/Contractor Safety Administrative Requirements \(CSAR\)/);
    expect(a['schedule-q-awareness']).toMatch(/SATIP و SAIC/);
    expect(a['schedule-q-awareness']).toMatch(/إغلاق تقارير عدم المطابقة/);
    expect(a['schedule-d-awareness']).toMatch(/برنامج السلامة في موقع المقاول \(CSSP\)/);
    expect(a['schedule-d-awareness']).toMatch(/GI 2\.100/);
    expect(a['csar-awareness']).toMatch(/المتطلبات الإدارية لسلامة المقاولين \(CSAR\)/);
  });
});

describe('Saudi Aramco vendor approval', () => {
  test('the vendor assessment names the Regulated Vendors List and leaves the decision to the buyer, in both languages', () => {
    const { en, ar } = both('pages/management-system-audits/vendor-assessment.mdx');
    expect(en).toContain('Regulated Vendors List, RVL');
    expect(en).toContain('we are not Saudi Aramco and do not grant vendor approval');
    expect(ar).toContain('قائمةُ الموردين المعتمدين RVL');
    expect(ar).toContain('ولا نمنح الموافقة على الموردين');
  });
});

describe('ISO standards: editions and what each leads to', () => {
  const standards = parse(read('src/data/standards.yaml')) as Array<{
    id: string;
    kind: string;
    en: { summary: string; update?: string };
    ar?: { summary: string; update?: string };
  }>;
  const byId = new Map(standards.map((s) => [s.id, s]));

  test('the standards carry their 2024 changes and the transition support, in both languages', () => {
    for (const id of ['iso-9001-2015', 'iso-14001-2015', 'iso-45001-2018', 'iso-22000-2018']) {
      expect(byId.get(id)?.en.update, id).toMatch(/Amendment 1:2024 adds climate change/);
      expect(byId.get(id)?.ar?.update, id).toMatch(/التعديل 1:2024 تغيّر المناخ/);
    }
    for (const id of ['iso-9001-2015', 'iso-14001-2015']) {
      expect(byId.get(id)?.en.update, id).toMatch(/a new edition is due/);
      expect(byId.get(id)?.ar?.update, id).toMatch(/إصدار جديد مرتقب/);
    }
    expect(byId.get('iso-55001-2014')?.en.update).toMatch(/ISO 55001:2024 replaced this edition; we support the transition/);
    expect(byId.get('iso-55001-2014')?.ar?.update).toMatch(/ISO 55001:2024 محل هذا الإصدار، ونساعدك على الانتقال/);
    expect(['iso-iec-17025-2017', 'iso-iec-17020-2012'].map((id) => byId.get(id)?.kind)).toEqual([
      'accreditation',
      'accreditation',
    ]);
    expect(['iso-31000-2018', 'iso-59004-2024', 'iso-59010-2024'].map((id) => byId.get(id)?.kind)).toEqual([
      'guidance',
      'guidance',
      'guidance',
    ]);
  });

  test('ISO 9001 enables consistent delivery rather than guaranteeing it, in both languages', () => {
    expect(byId.get('iso-9001-2015')?.en.summary).toMatch(/enables the consistent delivery of products and services/);
    expect(byId.get('iso-9001-2015')?.ar?.summary).toMatch(/يمكّن من تقديم [^.]*باستمرار/);
    for (const standard of standards) expect(standard.ar?.summary ?? '', standard.id).not.toMatch(/يضمن/);
  });

  test('the ISO consultancy service groups the standards by what they lead to, in both languages', () => {
    const { en, ar } = both('services/iso-consultancy.mdx');
    expect(en).not.toMatch(/a wide range of management system standards/);
    expect(en).toContain('ISO/IEC 17025 and ISO/IEC 17020 lead to accreditation instead');
    expect(en).toContain('ISO 31000, ISO 59004 and ISO 59010 are guidance that is not certified');
    expect(en).toMatch(/transition support we offer/);
    expect(ar).toContain('ISO/IEC 17025 و ISO/IEC 17020 فتؤديان إلى الاعتماد');
    expect(ar).toContain('ISO 31000 و ISO 59004 و ISO 59010 إرشادية لا تُمنح عليها شهادة');
    expect(ar).toMatch(/الدعم الذي نقدمه للانتقال/);
  });
});

describe('accreditation in Saudi Arabia', () => {
  const data = fs.readdirSync(path.join(ROOT, 'src/data')).filter((name) => name.endsWith('.yaml'));
  const sources: Array<[string, string]> = [
    ...english,
    ...arabic,
    ...['src/i18n/en.ts', 'src/i18n/ar.ts', ...data.map((name) => `src/data/${name}`)].map((f): [string, string] => [f, read(f)]),
  ];

  test('the Saudi Accreditation Center is SAAC, never "SAC", in every page, string and data file of both languages', () => {
    expect(sources.filter(([, text]) => /\bSAC\b/.test(text)).map(([file]) => file)).toEqual([]);
    expect(sources.filter(([, text]) => /\bSAAC\b/.test(text)).length).toBeGreaterThan(1);
  });

  test('the accreditation page names SAAC as the national body beside GAC and ILAC MRA signatories, in both languages', () => {
    const { en, ar } = both('pages/laboratory/support-for-accreditation-process.mdx');
    for (const text of [en, ar]) {
      for (const body of ['SAAC', 'GAC', 'ILAC MRA']) expect(text).toContain(body);
    }
    expect(en).toMatch(/SAAC is the national accreditation body/);
    expect(en).toContain('confirm which accreditation your regulator or client accepts');
    expect(ar).toMatch(/\(SAAC\) هو جهة الاعتماد الوطنية/);
    expect(ar).toContain('فتأكّد من الاعتماد الذي تقبله الجهة التنظيمية المعنية أو عميلك');
  });
});

describe('the Certificate of Conformity service', () => {
  test('spells CCC out once, names the SABER certificates and leaves SFDA and CST goods to their schemes, in both languages', () => {
    const { en, ar } = both('services/ccc-consultancy.mdx');
    expect(en.match(/Certificate of Conformity \(CCC\)/g)).toHaveLength(1);
    expect(ar.match(/شهادات المطابقة \(CCC\)/g)).toHaveLength(1);
    for (const text of [en, ar]) {
      for (const name of ['SABER', '(PCoC)', '(SCoC)', '(SFDA)', '(CST)']) expect(text).toContain(name);
    }
    expect(en).toMatch(/\(SFDA\)[^.]*\(CST\)[^.]*follow that authority's own scheme/);
    expect(ar).toMatch(/\(SFDA\)[^.]*\(CST\)[^.]*فتتبع النظام الخاص بتلك الجهة/);
  });
});

describe('the structure the management system standards share', () => {
  test('the implementation training names it as ISO does today, the Harmonized Structure, in both languages', () => {
    const { en, ar } = both('pages/trainings/iso-implementation-training.mdx');
    expect(en).toContain('the Harmonized Structure, formerly the High-Level Structure');
    expect(ar).toContain('ويُعرف اليوم بالهيكل المنسَّق، وسابقًا بالهيكل عالي المستوى');
  });
});

describe('Arabic terms', () => {
  test('the glossary keeps the approval of a plan or a person apart from accreditation', () => {
    const rules = glossaryRules(read('docs/glossary.md'));
    const approval = rules.find((rule) => rule.english.startsWith('approval'));
    expect(approval?.use).toContain('الموافقة');
    expect(approval?.avoid).toEqual(expect.arrayContaining(['اعتماداتها', 'والاعتمادات التي']));
  });

  test("Saudi Aramco's approval of a plan, a person or a vendor is «موافقة», never «اعتماد», in the Arabic content", () => {
    // «اعتماد» is accreditation (docs/glossary.md); the adjective «معتمد» of an approved vendor stays.
    const found = arabic.flatMap(([file, text]) =>
      text
        .split('\n')
        .filter((line) =>
          /(?:^|\s)(?:و|ل|ب)?(?:ال)?اعتماد(?:ه|ها|هم|هما|ات|اتها)?\s+(?:من\s+)?أرامكو|الاعتمادات التي|نمنح اعتماد/.test(line),
        )
        .map((line) => `${file}: ${line.slice(0, 80)}`),
    );
    expect(found).toEqual([]);
  });
});

describe('facts on the pages, not the motto on each', () => {
  test('"Simple, Efficient and Timely" stays where the requirements put it: the mission (home, About)', () => {
    const motto = /simple, efficient and timely/i;
    expect(english.filter(([, text]) => motto.test(text)).map(([file]) => file)).toEqual(['src/content/pages/about.mdx']);
    expect(read('src/data/home.yaml')).toMatch(/Simple, Efficient and Timely/);
    const arabicMotto = /ببساطة وكفاءة وفي الوقت المحدد|بالبساطة والكفاءة|بسيط وفعّال وفي الوقت/;
    expect(arabic.filter(([, text]) => arabicMotto.test(text)).map(([file]) => file)).toEqual(['src/content/ar/pages/about.mdx']);
    // The About page says it once, in its mission, not again in its lead.
    expect(String(frontMatter(read('src/content/pages/about.mdx')).lead)).not.toMatch(motto);
    expect(String(frontMatter(read('src/content/ar/pages/about.mdx')).lead)).not.toMatch(/بسيط|ببساطة/);
  });

  test('each Other Trainings course says its duration, in both languages', () => {
    const { en, ar } = both('pages/trainings/other-trainings.mdx');
    for (const text of [en, ar]) {
      const courses = frontMatter(text).courses as Array<{ id: string; duration?: string }>;
      expect(courses.length).toBeGreaterThan(0);
      expect(courses.filter((c) => !c.duration).map((c) => c.id)).toEqual([]);
    }
    expect(String((frontMatter(en).course as { certificate: string }).certificate)).toMatch(/not a Six Sigma belt/);
    expect(String((frontMatter(ar).course as { certificate: string }).certificate)).toMatch(/وليست حزامًا في ستة سيجما/);
  });

  test('the certification audits page describes what it holds, not a page still to come, in both languages', () => {
    const { en, ar } = both('pages/management-system-audits/management-system-certification-audits.mdx');
    const [e, a] = [frontMatter(en), frontMatter(ar)];
    expect(`${e.description} ${e.lead}`).not.toMatch(/soon|being prepared|in the meantime/i);
    expect(String(e.description)).toMatch(/Stage 1/);
    expect(`${a.description} ${a.lead}`).not.toMatch(/قريبًا|نعمل حاليًا على إعداد|وإلى ذلك الحين/);
    expect(String(a.description)).toMatch(/المرحلة الأولى/);
  });

  test('ISO 19011 is always cited with its year, and no awkward fixed phrases remain, in both languages', () => {
    for (const [file, text] of [...english, ...arabic]) {
      expect(text, file).not.toMatch(/ISO 19011(?!:\d{4})/);
      expect(text, file).not.toMatch(/fault tree thinking|Years Experience/i);
    }
  });
});

describe('links where the visitor looks', () => {
  test("the audits service's overview links the Schedule Q, Schedule D and vendor pages, in both languages", () => {
    const { en, ar } = both('services/ms-audits.mdx');
    for (const route of [
      'MangementSystemAudits/ScheduleQQualityAssessment',
      'MangementSystemAudits/ScheduleDSafetyAssessment',
      'MangementSystemAudits/VendorAssessment',
    ]) {
      expect(en).toContain(`](/${route})`);
      expect(ar).toContain(`](/ar/${route})`);
    }
  });
});
