/**
 * The axe rules every check runs: WCAG 2.0 to 2.2, A and AA, and axe's best practices (every
 * piece of content inside a landmark, one main landmark, headings in order, unique landmark
 * names, ...), which are not WCAG failures but are what screen-reader users navigate by.
 */
export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
