/**
 * The one way an interface string's `{name}` placeholders are filled, on the server and in the
 * islands alike (this file imports no dictionary, so an island can use it on the strings the
 * page handed it). A placeholder without a value is an error, so a broken string never ships.
 */
export function fillTemplate(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => {
    const value = values[name];
    if (value === undefined) throw new Error(`Missing value "${name}" for "${template}"`);
    return String(value);
  });
}

/**
 * A template cut at its `{name}` placeholders, for a component that puts an element (a link,
 * say) in each: `"Call {phone}."` gives `["Call ", { slot: "phone" }, "."]`. The words around
 * the slots stay in the string's own order.
 */
export function templateParts(template: string): (string | { readonly slot: string })[] {
  return template
    .split(/(\{\w+\})/)
    .filter((part) => part !== '')
    .map((part) => (/^\{\w+\}$/.test(part) ? { slot: part.slice(1, -1) } : part));
}

/** Letters written right to left: Arabic, Hebrew and the scripts beside them. */
const RIGHT_TO_LEFT_LETTER =
  /[\p{Script=Arabic}\p{Script=Hebrew}\p{Script=Syriac}\p{Script=Thaana}\p{Script=Nko}\p{Script=Samaritan}\p{Script=Mandaic}]/u;

/** The direction of a text as its first letter sets it (as FIRST STRONG ISOLATE reads it); undefined without letters. */
export function textDirection(value: string): 'ltr' | 'rtl' | undefined {
  const letter = /\p{L}/u.exec(value)?.[0];
  if (letter === undefined) return undefined;
  return RIGHT_TO_LEFT_LETTER.test(letter) ? 'rtl' : 'ltr';
}

/**
 * A value from outside the dictionary (a file's name) as a sentence of the page's direction
 * quotes it. When the value runs the other way (an Arabic or Hebrew name on an English page, a
 * Latin name on an Arabic page) it goes between FIRST STRONG ISOLATE and POP DIRECTIONAL
 * ISOLATE, so it keeps its own order ("2024 CV.pdf" is not laid out as "CV.pdf 2024" inside an
 * Arabic sentence) and cannot turn the sentence's punctuation around. Otherwise it is left as it
 * is: the text a visitor copies, or a screen reader spells, is then exactly the sentence, with
 * no invisible marks in it.
 */
export function isolate(value: string, pageDirection: 'ltr' | 'rtl'): string {
  const direction = textDirection(value);
  return direction !== undefined && direction !== pageDirection ? `\u2068${value}\u2069` : value;
}
