/**
 * The hero images' text alternatives in Arabic: one for each picture of `heroImages` in
 * src/data/carousels.ts, in the same order. They say what each picture shows, for people who
 * cannot see it. The client logos need no twin: a logo's alternative is the client's name.
 */
export const heroAlts: readonly string[] = [
  // audits.svg
  'رسم توضيحي لتدقيق نظام إدارة: قائمة تحقق على حامل أوراق أُشِّر على بنودها، مع عدسة مكبّرة ومخطط بياني للنتائج.',
  // laboratory.svg
  'رسم توضيحي لمختبر اختبار: دورق مخروطي، وأنابيب اختبار في حامل، ومجهر على طاولة العمل.',
  // training.svg
  'رسم توضيحي لجلسة تدريبية: مدرب يعرض على الشاشة مخططًا بيانيًا تصاعديًا أمام المتدربين.',
  // safety.svg
  'رسم توضيحي لمعدات السلامة في موقع العمل: خوذة واقية، ونظارات سلامة، ومخروط مروري، ودرع عليه علامة صح.',
  // sustainability.svg
  'رسم توضيحي للاستدامة: توربينات رياح، وألواح شمسية، وأوراق نباتية داخل دائرة من الأسهم.',
  // industrial.svg
  'رسم توضيحي لمنشأة صناعية: أبراج تقطير، وخزانات، وشبكة أنابيب، وبرج شعلة، مع علامة صح تدل على الفحص.',
  // partnership.svg
  'رسم توضيحي للشراكة: قطعتا أحجية متكاملتان أمام كرة أرضية، وشخصان تربط بينهما شبكة اتصال.',
];
