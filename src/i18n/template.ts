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
