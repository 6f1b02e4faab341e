/**
 * The ISO standards' titles and summaries in Arabic, by id: the twin of ISO_STANDARDS in
 * src/data/standards.ts. The code ("ISO 9001:2015") is the same in both languages and stays there.
 * The Record type makes a missing or unknown id a type error.
 */
import { getStandard, type IsoStandard, type IsoStandardId } from '../standards';

export type IsoStandardText = Pick<IsoStandard, 'title' | 'summary'>;

export const standardTexts: Readonly<Record<IsoStandardId, IsoStandardText>> = {
  'iso-iec-17025-2017': {
    title: 'مختبرات الاختبار والمعايرة',
    summary:
      'المتطلبات العامة لكفاءة مختبرات الاختبار والمعايرة وحياديتها واتساق عملها، وهي الأساس الذي يقوم عليه اعتماد المختبرات.',
  },
  'iso-iec-17020-2012': {
    title: 'جهات التفتيش',
    summary: 'متطلبات كفاءة الجهات التي تمارس أعمال التفتيش، وحيادية أنشطة التفتيش التي تنفذها واتساقها.',
  },
  'iso-9001-2015': {
    title: 'أنظمة إدارة الجودة',
    summary:
      'نظام لإدارة الجودة قائم على نهج العمليات والتفكير المبني على المخاطر، يضمن تقديم منتجات وخدمات تلبي متطلبات العملاء والمتطلبات التنظيمية باستمرار.',
  },
  'iso-14001-2015': {
    title: 'أنظمة الإدارة البيئية',
    summary: 'إطار لضبط الجوانب البيئية، والوفاء بالتزامات الامتثال، وتحسين الأداء البيئي على امتداد دورة الحياة.',
  },
  'iso-45001-2018': {
    title: 'أنظمة إدارة السلامة والصحة المهنية',
    summary:
      'متطلبات لإزالة مصادر الخطر وخفض مخاطر السلامة والصحة المهنية، وتوفير أماكن عمل آمنة وصحية بمشاركة العاملين.',
  },
  'iso-22000-2018': {
    title: 'أنظمة إدارة سلامة الغذاء',
    summary:
      'إدارة سلامة الغذاء لكل منشأة في السلسلة الغذائية، بالجمع بين مبادئ HACCP والبرامج المسبقة والتواصل التفاعلي.',
  },
  'iso-55001-2014': {
    title: 'أنظمة إدارة الأصول',
    summary: 'نظام إدارة لتحقيق القيمة من الأصول المادية وغيرها طوال دورة حياتها، بالموازنة بين التكلفة والمخاطر والأداء.',
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

/** A standard as the Arabic pages show it: the English entry's id and code, the Arabic title and summary. */
export function getArabicStandard(id: IsoStandardId): IsoStandard {
  return { ...getStandard(id), ...standardTexts[id] };
}
