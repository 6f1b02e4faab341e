/**
 * Home page text that is not part of the service catalogue: vision, mission and the quality
 * policy (docs/requirements.md §4). Edit the words here; the page lays them out.
 */

/** The shape of the home page text in any language (the Arabic twin is src/data/ar/home.ts). */
export interface HomeText {
  readonly vision: string;
  readonly mission: string;
  readonly customSolution: { readonly title: string; readonly text: string; readonly cta: string };
  readonly clients: { readonly text: string; readonly cta: string };
  /** docs/requirements.md §4: five policy points, in this order. */
  readonly qualityPolicy: readonly [string, string, string, string, string];
}

export const home = {
  vision:
    'To be the Kingdom’s most trusted partner for quality assurance and compliance: helping Saudi organizations meet international standards and grow with Saudi Vision 2030.',
  mission:
    'Simple, Efficient and Timely quality assurance. We make compliance clear, deliver it without waste, and meet every deadline our clients depend on.',
  customSolution: {
    title: 'Need a Custom Solution?',
    text: 'Every organization is different. Tell us about your goals and we will shape an audit, training or consultancy program around them.',
    cta: 'Contact Us',
  },
  clients: {
    text: 'Organizations across the Kingdom’s energy, industrial and laboratory sectors rely on our assessments, trainings and consultancy.',
    cta: 'Start Your Partnership',
  },
  /** docs/requirements.md §4: five policy points. */
  qualityPolicy: [
    'Meet our clients’ requirements and applicable statutory and regulatory requirements in every engagement.',
    'Deliver audits, trainings and consultancy that are impartial, confidential and based on evidence.',
    'Keep our people competent through continual training, qualification and evaluation.',
    'Set measurable quality objectives and review them to improve our services continually.',
    'Support Saudi Vision 2030 by building local capability in quality, safety and sustainability.',
  ],
} as const satisfies HomeText;
