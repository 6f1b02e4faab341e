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

/**
 * A value from outside the dictionary (a file's name) as a sentence of either direction quotes
 * it: between FIRST STRONG ISOLATE and POP DIRECTIONAL ISOLATE, so it keeps its own direction
 * ("2024 CV.pdf" is not laid out as "CV.pdf 2024" inside an Arabic sentence) and cannot turn the
 * sentence's punctuation around. The marks are invisible.
 */
export function isolate(value: string): string {
  return `\u2068${value}\u2069`;
}
