/**
 * The ISO standards' titles and summaries in Arabic, by id: the twin of ISO_STANDARDS in
 * src/data/standards.ts. The code ("ISO 9001:2015") is the same in both languages and stays there.
 * An unknown id is a type error. A standard added in English without its Arabic text here is
 * shown in English on the Arabic pages, marked as not yet translated; the build warns of it and
 * `npm run translations` lists it as missing.
 */
import { ISO_STANDARD_IDS, getStandard, type IsoStandard, type IsoStandardId } from '../standards';

export type IsoStandardText = Pick<IsoStandard, 'title' | 'summary' | 'update'>;

export const standardTexts: Readonly<Partial<Record<IsoStandardId, IsoStandardText>>> = {
  'iso-iec-17025-2017': {
    title: 'مختبرات الاختبار والمعايرة',
    summary:
      'المتطلبات العامة لكفاءة مختبرات الاختبار والمعايرة وحيادها واتساق عملها، وهي الأساس الذي يقوم عليه اعتماد المختبرات.',
  },
  'iso-iec-17020-2012': {
    title: 'جهات التفتيش',
    summary: 'متطلبات كفاءة الجهات التي تمارس أعمال التفتيش، وحياد أنشطة التفتيش التي تنفذها واتساقها.',
  },
  'iso-9001-2015': {
    title: 'أنظمة إدارة الجودة',
    summary:
      'نظام لإدارة الجودة قائم على نهج العمليات والتفكير المبني على المخاطر، يضمن تقديم منتجات وخدمات تلبي متطلبات العملاء والمتطلبات التنظيمية باستمرار.',
    update:
      'أضاف التعديل 1:2024 تغيّر المناخ إلى سياق المنشأة والأطراف المعنية، وإصدار جديد مرتقب، ونساعدك على معالجة الأمرين في نظامك.',
  },
  'iso-14001-2015': {
    title: 'أنظمة الإدارة البيئية',
    summary: 'إطار لضبط الجوانب البيئية، والوفاء بالتزامات الامتثال، وتحسين الأداء البيئي على امتداد دورة الحياة.',
    update:
      'أضاف التعديل 1:2024 تغيّر المناخ إلى سياق المنشأة والأطراف المعنية، وإصدار جديد مرتقب، ونساعدك على معالجة الأمرين في نظامك.',
  },
  'iso-45001-2018': {
    title: 'أنظمة إدارة السلامة والصحة المهنية',
    summary:
      'متطلبات لإزالة مصادر الخطر وخفض مخاطر السلامة والصحة المهنية، وتوفير أماكن عمل آمنة وصحية بمشاركة العاملين.',
    update:
      'أضاف التعديل 1:2024 تغيّر المناخ إلى سياق المنشأة والأطراف المعنية، ونساعدك على معالجته في نظامك.',
  },
  'iso-22000-2018': {
    title: 'أنظمة إدارة سلامة الغذاء',
    summary:
      'إدارة سلامة الغذاء لكل منشأة في السلسلة الغذائية، بالجمع بين مبادئ HACCP والبرامج المسبقة والتواصل التفاعلي.',
    update:
      'أضاف التعديل 1:2024 تغيّر المناخ إلى سياق المنشأة والأطراف المعنية، ونساعدك على معالجته في نظامك.',
  },
  'iso-55001-2014': {
    title: 'أنظمة إدارة الأصول',
    summary: 'نظام إدارة لتحقيق القيمة من الأصول المادية وغيرها طوال دورة حياتها، بالموازنة بين التكلفة والمخاطر والأداء.',
    update:
      'حلّ الإصدار ISO 55001:2024 محل هذا الإصدار، ونساعدك على الانتقال إلى متطلبات إصدار 2024.',
  },
  'iso-31000-2018': {
    title: 'إرشادات إدارة المخاطر',
    summary: 'مبادئ وإطار عمل وعملية لإدارة المخاطر في أي منشأة، مدمجة في الحوكمة والاستراتيجية واتخاذ القرار.',
  },
  'iso-59004-2024': {
    title: 'الاقتصاد الدائري: المفردات والمبادئ والإرشادات',
    summary: 'مفردات الاقتصاد الدائري ومبادئه، وإرشادات للمنشآت في انتقالها من أنماط العمل الخطية إلى الدائرية.',
  },
  'iso-59010-2024': {
    title: 'الاقتصاد الدائري: نماذج الأعمال وشبكات القيمة',
    summary: 'إرشادات لتحويل نماذج الأعمال وشبكات القيمة إلى نماذج وشبكات دائرية، مع خطوات عملية وأمثلة.',
  },
  'iso-59020-2024': {
    title: 'الاقتصاد الدائري: قياس الدائرية وتقييمها',
    summary: 'متطلبات وإرشادات لقياس أداء الدائرية وتقييمه على مستوى المنشأة أو شبكة القيمة أو منظومة المنتج.',
  },
};

/**
 * A standard as the Arabic pages show it: the English entry's id and code, the Arabic title and
 * summary; without them, the English entry, `pending`.
 */
export function getArabicStandard(id: IsoStandardId): IsoStandard {
  const text = standardTexts[id];
  if (!text) return { ...getStandard(id), pending: true };
  // No English edition note on an Arabic page: a note not yet translated is left out.
  return { ...getStandard(id), update: undefined, ...text };
}

/** The standards with no Arabic text yet, in the English order. */
export const standardsWithoutArabic = (): IsoStandardId[] => ISO_STANDARD_IDS.filter((id) => !standardTexts[id]);
