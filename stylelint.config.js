// stylelint: CSS uses logical properties, keywords and units only, so what reads left to right in
// English reads right to left in Arabic. Stylesheets and the <style> blocks of Astro components.
export default {
  extends: ['stylelint-plugin-logical-css/configs/recommended'],
  overrides: [{ files: ['**/*.astro'], customSyntax: 'postcss-html' }],
  ignoreFiles: ['dist/**', 'node_modules/**', '.astro/**', 'test-results/**', 'src/styles/generated/**'],
};
